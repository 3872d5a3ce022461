/**
 * The demo room's thermostat served as an MCP App over Streamable HTTP: its tools, and its element
 * as the `ui://` view each tool links to, which a host that renders apps (Claude, ChatGPT, VS
 * Code, Cursor, Goose) shows beside the conversation. A person's click in the view runs the same
 * command as the model's call, through the same bridge.
 *
 *   PORT=3001 node --import tsx examples/mcp-app/server.ts   # then add the URL to a host
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { createThermostat } from "../../demo/web/thermostat.js";
import { type McpHttpServer, serveMcpHttp } from "../../src/tools/hosts/mcp/http.js";
// Relative, not "ignite-element/tools/…", for the reason given in examples/mcp-server/server.ts.
import { mcpAppView } from "../../src/tools/hosts/mcp-app/view.js";

/** The element's module, bundled into the view when the server starts. */
const ELEMENT = fileURLToPath(new URL("../../demo/app/thermostat-view.ts", import.meta.url));

/** Serves a thermostat and its view on 127.0.0.1 (`port` 0 picks a free one) at `/mcp`. */
export async function startThermostatApp(port = 0): Promise<McpHttpServer> {
  const view = await mcpAppView({
    element: "ignite-thermostat",
    module: ELEMENT,
    title: "Thermostat",
    description: "The room's thermostat: its reading, mode and target.",
    prefersBorder: true,
  });
  return serveMcpHttp(createThermostat(), {
    port,
    view,
    serverInfo: { name: "ignite-thermostat", version: "1.0.0" },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const server = await startThermostatApp(Number(process.env.PORT ?? 3001));
  process.stdout.write(`MCP App server: ${server.url.href}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
