/**
 * `mcpAppView`: the component's element as an MCP App view (io.modelcontextprotocol/ui) — a
 * `ui://` resource of one self-contained HTML document, and each command's tool linked to it —
 * read by the SDK v2 client as a host that renders apps reads it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { InMemoryTransport, Server } from "@modelcontextprotocol/server";
import { type AgentComponent, toolSearch } from "ignite-element/tools";
import { mcpAppView } from "ignite-element/tools/mcp-app";
import { serveMcp } from "ignite-element/tools/mcp-server";
import { describe, expect, it } from "vitest";

// The element's module, and a module it imports: the view must carry both — in a package that
// says it has no side effects, as many do, while the element's module is all side effect.
const dir = mkdtempSync(join(tmpdir(), "ignite-view-"));
writeFileSync(join(dir, "package.json"), '{ "type": "module", "sideEffects": false }\n');
writeFileSync(
  join(dir, "format.js"),
  'export const degrees = (value) => value.toFixed(1) + " °C";\nexport const END = "</script>";\n',
);
writeFileSync(
  join(dir, "thermo-stat.js"),
  `import { degrees, END } from "./format.js";
customElements.define("thermo-stat", class extends HTMLElement {
  connectedCallback() { this.textContent = degrees(21) + END.length; }
});
`,
);
const MODULE = join(dir, "thermo-stat.js");

const thermostat: AgentComponent<{ target: number }> = {
  getSchema: () => ({
    commands: {
      setTarget: {
        description: "Set the target temperature.",
        input: { type: "object", properties: { celsius: { type: "number" } } },
      },
      read: { description: "Read the temperature.", readOnly: true },
    },
  }),
  execute: () => ({ state: { target: 21 }, events: [] }),
};

async function connected(options: Parameters<typeof serveMcp>[2]) {
  const server = new Server({ name: "thermostat", version: "1.0.0" });
  serveMcp(server, thermostat, options);
  const client = new Client({ name: "host", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

const URI = "ui://ignite-element/thermo-stat.html";

describe("mcpAppView: the component's element as an MCP App view", () => {
  it("is a ui:// resource of one HTML document with the element and its module bundled in", async () => {
    const csp = { connectDomains: ["https://api.example.com"] };
    const view = await mcpAppView({
      element: "thermo-stat",
      module: MODULE,
      title: "Thermostat",
      csp,
      prefersBorder: true,
    });
    const client = await connected({ view });

    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: URI,
        name: "thermo-stat",
        title: "Thermostat",
        mimeType: RESOURCE_MIME_TYPE,
        _meta: { ui: { csp, prefersBorder: true } },
      },
    ]);
    const [contents] = (await client.readResource({ uri: URI })).contents;
    expect(contents).toMatchObject({
      uri: URI,
      mimeType: "text/html;profile=mcp-app",
      _meta: { ui: { csp, prefersBorder: true } },
    });
    const html = contents && "text" in contents ? contents.text : "";
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<title>Thermostat</title>");
    expect(html).toContain("<thermo-stat></thermo-stat>");
    // The imported module is in the document, and nothing is loaded from elsewhere.
    expect(html).toContain('customElements.define("thermo-stat"');
    expect(html).toContain("°C");
    // The runtime, on the extension's App: it connects to the host and hands the element its state.
    expect(html).toContain('"ui/initialize"');
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
    // A "</script>" inside the code does not end the script early.
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it("links each command's tool to the view, and no tool of a layer's own", async () => {
    const view = await mcpAppView({ element: "thermo-stat", module: pathToFileURL(MODULE) });
    const client = await connected({ view, search: toolSearch() });

    const { tools } = await client.listTools();
    // Listed again with nothing changed: the same links.
    expect((await client.listTools()).tools).toEqual(tools);
    const links = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]));
    const link = { ui: { resourceUri: URI }, [RESOURCE_URI_META_KEY]: URI };
    expect(links).toEqual({ read: link, setTarget: link, search_tools: undefined });
    // The view's document, read whole without the application's own resources.
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([URI]);
  });

  it("keeps an app-only command's tool from the model: visible to the view alone", async () => {
    const view = await mcpAppView({
      element: "thermo-stat",
      module: MODULE,
      appOnly: ["setTarget"],
    });
    const client = await connected({ view });
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]));
    expect(meta.setTarget).toEqual({
      ui: { resourceUri: URI, visibility: ["app"] },
      [RESOURCE_URI_META_KEY]: URI,
    });
    expect(meta.read).toEqual({ ui: { resourceUri: URI }, [RESOURCE_URI_META_KEY]: URI });

    const typo = await mcpAppView({ element: "thermo-stat", module: MODULE, appOnly: ["setTemp"] });
    const server = new Server({ name: "thermostat", version: "1.0.0" });
    expect(() => serveMcp(server, thermostat, { view: typo })).toThrow(
      `serveMcp: view's appOnly names "setTemp", which the component does not declare`,
    );
  });

  it("lists the commands deferred behind call_tool, on demand, to the view alone, so the view may still call them", async () => {
    const view = await mcpAppView({ element: "thermo-stat", module: MODULE });
    const search = toolSearch({ onDemand: true, threshold: 0 });
    const client = await connected({ view, search });

    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.map((tool) => [tool.name, tool._meta]));
    const appOnly = { ui: { resourceUri: URI, visibility: ["app"] }, [RESOURCE_URI_META_KEY]: URI };
    // The model is shown the search and call_tool; the view, every command, as before.
    expect(meta).toEqual({
      call_tool: undefined,
      search_tools: undefined,
      read: appOnly,
      setTarget: appOnly,
    });
    expect(tools.find((tool) => tool.name === "setTarget")?.inputSchema).toMatchObject({
      properties: { celsius: { type: "number" } },
    });
    // The view calls a command by its name, as it does without tools on demand.
    const called = await client.callTool({ name: "setTarget", arguments: { celsius: 22 } });
    expect(called.isError).toBeFalsy();
    expect((await client.listTools()).tools).toEqual(tools);
  });

  it("serves the component's state between calls beside the view, for a component with getSnapshot", async () => {
    let target = 21;
    const live: AgentComponent<{ target: number }> = {
      ...thermostat,
      getSnapshot: () => ({ target }),
    };
    const view = await mcpAppView({ element: "thermo-stat", module: MODULE });
    const server = new Server({ name: "thermostat", version: "1.0.0" });
    serveMcp(server, live, { view });
    const client = new Client({ name: "host", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const STATE = "ui://ignite-element/thermo-stat.state.json";
    const { resources } = await client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([
      [URI, RESOURCE_MIME_TYPE],
      [STATE, "application/json"],
    ]);
    target = 23.5;
    expect((await client.readResource({ uri: STATE })).contents).toEqual([
      { uri: STATE, mimeType: "application/json", text: '{"target":23.5}' },
    ]);
    // The document starts its runtime reading it.
    const [page] = (await client.readResource({ uri: URI })).contents;
    expect(page && "text" in page ? page.text : "").toContain(`stateUri:"${STATE}"`);

    const still = await mcpAppView({ element: "thermo-stat", module: MODULE, refreshMs: 0 });
    expect(still.stateUri).toBeUndefined();
    await expect(
      mcpAppView({ element: "thermo-stat", module: MODULE, refreshMs: 5 }),
    ).rejects.toThrow(
      "mcpAppView: refreshMs must be a whole number of milliseconds: 0 (never), or from 100 up, not 5",
    );
  });

  it("serves beside the application's own resources, at the address it is given", async () => {
    const view = await mcpAppView({
      element: "thermo-stat",
      module: MODULE,
      uri: "ui://thermostat/view.html",
    });
    const manual = {
      uri: "thermostat://manual",
      name: "manual",
      read: () => ({ text: "Press +." }),
    };
    const client = await connected({ view, resources: [manual] });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "thermostat://manual",
      "ui://thermostat/view.html",
    ]);
  });

  it("refuses what cannot be a view, naming it, before anything is served", async () => {
    await expect(mcpAppView({ element: "Thermostat", module: MODULE })).rejects.toThrow(
      'mcpAppView: element must be a custom element name: lowercase, starting with a letter, with a hyphen ("thermo-stat"), not "Thermostat" (a string)',
    );
    await expect(
      mcpAppView({ element: "thermo-stat", module: join(dir, "missing.js") }),
    ).rejects.toThrow(/^mcpAppView: module .*missing\.js is not there \(\/.*missing\.js\)$/);
    writeFileSync(join(dir, "broken.js"), 'import "./nowhere.js";\n');
    await expect(
      mcpAppView({ element: "thermo-stat", module: join(dir, "broken.js") }),
    ).rejects.toThrow(
      /^mcpAppView: module .*broken\.js does not bundle: Could not resolve "\.\/nowhere\.js"/,
    );
    await expect(
      mcpAppView({ element: "thermo-stat", module: MODULE, uri: "https://example.com/view" }),
    ).rejects.toThrow('mcpAppView: uri must be a ui:// URI ("ui://thermostat/view.html")');
    const server = new Server({ name: "thermostat", version: "1.0.0" });
    expect(() => serveMcp(server, thermostat, { view: {} as never })).toThrow(
      'serveMcp: view must be a view made by mcpAppView (from "ignite-element/tools/mcp-app"), not an object',
    );
  });
});
