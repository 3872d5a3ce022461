/**
 * The Redux todo list (examples/redux) served as a Model Context Protocol server over stdio, with
 * the official SDK's low-level `Server`. Any MCP client (Claude Desktop, an IDE, the SDK's
 * `Client`) can list its tools and call them.
 *
 *   node --import tsx examples/mcp-server/server.ts
 *
 * stdout carries the protocol, so nothing else may be written to it.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
// Relative, not "ignite-element/tools": tsx maps tsconfig `paths` only when it is started in the
// directory holding tsconfig.json, and elsewhere the package's self-reference resolves to
// dist/, a build that may be stale. A published app imports "ignite-element/tools" instead.
import { mcp } from "../../src/tools/dialects/mcp.js";
import { igniteTools } from "../../src/tools/index.js";
import { fromSlice } from "../../src/tools/sources/redux.js";
import { createTodoStore, todoCommands, todosSlice } from "../redux/todos.js";

const store = createTodoStore();
const bridge = igniteTools(fromSlice(store, todosSlice, todoCommands), mcp);

const server = new Server(
  { name: "ignite-todos", version: "1.0.0" },
  // The tools follow the list's state (`toggle` needs a todo), so clients are told when they change.
  { capabilities: { tools: { listChanged: true } } },
);

server.setRequestHandler(ListToolsRequestSchema, () => bridge.toToolDefs());

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const before = JSON.stringify(bridge.toToolDefs());
  // One tools/call request is one call, so there is exactly one result; every failure (unknown
  // tool, unavailable, invalid input, a throwing reducer) is a result with `isError: true`.
  const [result] = await bridge.handleToolCalls(request.params);
  if (JSON.stringify(bridge.toToolDefs()) !== before) await server.sendToolListChanged();
  return result ?? { content: [{ type: "text", text: "No result." }], isError: true };
});

await server.connect(new StdioServerTransport());
