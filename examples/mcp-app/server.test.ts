import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpHttpServer } from "../../src/tools/hosts/mcp/http.js";
import { startThermostatApp } from "./server.js";

let server: McpHttpServer | undefined;
let client: Client | undefined;

beforeAll(async () => {
  server = await startThermostatApp(0);
  client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(server.url));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("examples/mcp-app: the thermostat as an MCP App over Streamable HTTP", () => {
  it("links every tool to the thermostat's view, which a host reads whole", async () => {
    if (!client) throw new Error("not connected");
    const { tools } = await client.listTools();
    const uri = "ui://ignite-element/ignite-thermostat.html";
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "boost",
      "factoryReset",
      "setMode",
      "setTarget",
      "status",
    ]);
    for (const tool of tools) expect(tool._meta?.ui).toEqual({ resourceUri: uri });

    const [view] = (await client.readResource({ uri })).contents;
    expect(view).toMatchObject({
      mimeType: "text/html;profile=mcp-app",
      _meta: { ui: { prefersBorder: true } },
    });
    const html = view && "text" in view ? view.text : "";
    expect(html).toContain("<title>Thermostat</title>");
    expect(html).toContain("<ignite-thermostat></ignite-thermostat>");
    expect(html).toContain('customElements.define("ignite-thermostat"');
  });

  it("answers the model's call with the state the view shows", async () => {
    if (!client) throw new Error("not connected");
    const result = await client.callTool({ name: "setTarget", arguments: { value: 21.5 } });
    expect(result.structuredContent).toMatchObject({
      snapshot: { mode: "off", target: 21.5, boostMinutes: 0 },
    });
  });
});
