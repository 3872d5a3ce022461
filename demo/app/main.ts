/**
 * `npm run demo:app`: serves the demo room's thermostat as an MCP App over Streamable HTTP — its
 * tools, and its element as the view a host renders beside the conversation — and prints the
 * address and how to add it to a host. `PORT` chooses the port (default 5176).
 */
import { startThermostatApp } from "../../examples/mcp-app/server.js";

const server = await startThermostatApp(Number(process.env.PORT ?? 5176));
const url = server.url.href;
process.stdout.write(
  [
    `MCP App demo: ${url}`,
    "",
    "Add it to a host that renders MCP Apps, then ask it to warm the room: the thermostat's",
    "element appears beside the answer, and its buttons run the same commands through the same",
    "bridge. For example:",
    "",
    `  Claude Code:  claude mcp add --transport http thermostat ${url}`,
    `  VS Code (.vscode/mcp.json): ${JSON.stringify({ servers: { thermostat: { type: "http", url } } })}`,
    "",
    "The server listens on 127.0.0.1 only: a host on this machine reaches it.",
    "Ctrl-C stops the server.",
    "",
  ].join("\n"),
);
const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
