/**
 * The runtime inside an MCP App view: the extension's own `App` (the view) and `AppBridge` (the
 * host, forwarding to the server through the SDK v2 client), linked in memory as a host's iframe
 * links them by postMessage, over a server that serves the component.
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { App } from "@modelcontextprotocol/ext-apps";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { InMemoryTransport, Server } from "@modelcontextprotocol/server";
import { type AgentComponent, approval } from "ignite-element/tools";
import { mcpAppView } from "ignite-element/tools/mcp-app";
import { startView, type ViewOptions, viewComponent } from "ignite-element/tools/mcp-app-view";
import { serveMcp } from "ignite-element/tools/mcp-server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Thermostat, thermostat } from "./mcp-app-fixture/thermostat.js";

/** A host: the client to the server, and the bridge to the view, with what the view told it. */
async function hostAndView(
  component: AgentComponent<Thermostat>,
  options = {},
  viewOptions: ViewOptions = {},
  capabilities: Record<string, object> = {
    serverTools: {},
    serverResources: {},
    updateModelContext: { text: {} },
  },
) {
  const server = new Server({ name: "thermostat", version: "1.0.0" });
  serveMcp(server, component, options);
  const client = new Client({ name: "host", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

  const told: unknown[] = [];
  const bridge = new AppBridge(client, { name: "host", version: "1.0.0" }, capabilities);
  bridge.onupdatemodelcontext = async (params) => {
    told.push(params);
    return {};
  };
  const app = new App({ name: "thermo-stat", version: "1.0.0" }, {}, { autoResize: false });
  const view = viewComponent<Thermostat>(app, viewOptions);
  const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([bridge.connect(hostSide), app.connect(viewSide)]);
  return { client, bridge, view, told, app };
}

describe("the view's runtime: the server's component through the host", () => {
  it("shows the state of each result the host pushes, and the input while it streams", async () => {
    const { component } = thermostat();
    const { client, bridge, view } = await hostAndView(component);
    const heard: unknown[] = [];
    view.onEvent((event) => heard.push(event));
    let changes = 0;
    view.subscribe(() => {
      changes += 1;
    });
    expect(view.getSnapshot()).toBeUndefined();

    await bridge.sendToolInputPartial({ arguments: { celsius: 2 } });
    await vi.waitFor(() => expect(view.input).toEqual({ celsius: 2 }));
    await bridge.sendToolInput({ arguments: { celsius: 22 } });
    await vi.waitFor(() => expect(view.input).toEqual({ celsius: 22 }));
    const result = await client.callTool({ name: "setTarget", arguments: { celsius: 22 } });
    await bridge.sendToolResult(result);

    await vi.waitFor(() => expect(view.getSnapshot()).toEqual({ target: 22 }));
    expect(view.input).toBeUndefined();
    expect(heard).toEqual([{ type: "targetSet", payload: { celsius: 22 } }]);
    expect(changes).toBe(3);
  });

  it("runs a person's click once on the server, and tells the model what they did", async () => {
    const { component, ran } = thermostat();
    const { view, told } = await hostAndView(component);

    const done = await view.execute("setTarget", { celsius: 23 });

    expect(done).toEqual({
      state: { target: 23 },
      events: [{ type: "targetSet", payload: { celsius: 23 } }],
    });
    expect(ran).toEqual([23]);
    expect(view.getSnapshot()).toEqual({ target: 23 });
    expect(told).toEqual([
      {
        content: [
          {
            type: "text",
            text: 'The person ran setTarget {"celsius":23} in the view. The state is now {"target":23}.',
          },
        ],
      },
    ]);
  });

  it("answers a click the bridge refuses with its reason, running nothing and telling nobody", async () => {
    const { component, ran } = thermostat();
    const { view, told } = await hostAndView(component, {
      approve: approval(() => "deny"),
    });
    await expect(view.execute("setTarget", { celsius: 99 })).rejects.toThrow(
      /Error \(InvalidInput\): Invalid input for "setTarget"/,
    );
    await expect(view.execute("setTarget", { celsius: 21 })).rejects.toThrow(/Error \(Denied\)/);
    expect(ran).toEqual([]);
    expect(view.getSnapshot()).toBeUndefined();
    expect(told).toEqual([]);
  });

  it("shows a change made outside calls, read from the server between them", async () => {
    const { component } = thermostat();
    let target = 20;
    const listeners = new Set<() => void>();
    const live: AgentComponent<Thermostat> = {
      ...component,
      getSnapshot: () => ({ target }),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const dir = mkdtempSync(join(tmpdir(), "ignite-view-"));
    writeFileSync(join(dir, "view.js"), "");
    const made = await mcpAppView({ element: "thermo-stat", module: join(dir, "view.js") });
    const stateUri = made.stateUri ?? "";
    const { view, app } = await hostAndView(live, { view: made }, { stateUri, refreshMs: 20 });

    await vi.waitFor(() => expect(view.getSnapshot()).toEqual({ target: 20 }));
    target = 24; // the application's own change, no call made
    await vi.waitFor(() => expect(view.getSnapshot()).toEqual({ target: 24 }));
    await app.close();
  });

  it("ignores a result that shows no state, and tells no model a host cannot tell", async () => {
    const { component, ran } = thermostat();
    const { bridge, view, told } = await hostAndView(component, {}, {}, { serverTools: {} });
    await bridge.sendToolResult({ content: [{ type: "text", text: "refused" }], isError: true });
    await bridge.sendToolResult({ content: [], structuredContent: { other: 1 } });
    expect(view.getSnapshot()).toBeUndefined();
    expect(await view.execute("setTarget", { celsius: 21 })).toMatchObject({
      state: { target: 21 },
    });
    expect(ran).toEqual([21]);
    expect(told).toEqual([]);
  });

  it("reads no state between calls from a host that serves no resources", async () => {
    const { component } = thermostat();
    const live: AgentComponent<Thermostat> = { ...component, getSnapshot: () => ({ target: 20 }) };
    const { view, app } = await hostAndView(
      live,
      {},
      { stateUri: "ui://ignite-element/thermo-stat.state.json", refreshMs: 10 },
      { serverTools: {} },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(view.getSnapshot()).toBeUndefined();
    await app.close();
  });
});

describe("startView: what the view's document runs", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("gives the element it finds in the document the server's component, once connected", async () => {
    const element: { component?: unknown } = {};
    vi.stubGlobal("document", {
      querySelector: (selector: string) => (selector === "thermo-stat" ? element : null),
    });
    const bridge = new AppBridge(null, { name: "host", version: "1.0.0" }, {});
    const [hostSide, viewSide] = InMemoryTransport.createLinkedPair();
    const [app] = await Promise.all([
      startView("thermo-stat", {}, viewSide),
      bridge.connect(hostSide),
    ]);
    expect(typeof (element.component as { execute?: unknown }).execute).toBe("function");
    await app.close();

    // An element given as it is; and a page without the element, or without a document.
    const given: { component?: unknown } = {};
    const [second, third] = InMemoryTransport.createLinkedPair();
    const other = new AppBridge(null, { name: "host", version: "1.0.0" }, {});
    await Promise.all([startView(given, {}, third), other.connect(second)]).then(([made]) =>
      made.close(),
    );
    expect(given.component).toBeDefined();
    vi.stubGlobal("document", undefined);
    const [fourth, fifth] = InMemoryTransport.createLinkedPair();
    const last = new AppBridge(null, { name: "host", version: "1.0.0" }, {});
    await Promise.all([startView("thermo-stat", {}, fifth), last.connect(fourth)]).then(([made]) =>
      made.close(),
    );
  });
});
