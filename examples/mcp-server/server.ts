/**
 * The Redux todo list (examples/redux) served as a Model Context Protocol server over stdio,
 * through `serveMcp` and the official SDK's low-level `Server`. Any MCP client (Claude Desktop, an
 * IDE, the SDK's `Client`) can list its tools and call them.
 *
 *   node --import tsx examples/mcp-server/server.ts
 *
 * stdout carries the protocol, so nothing else may be written to it.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// Relative, not "ignite-element/tools/…": tsx maps tsconfig `paths` only when it is started in
// the directory holding tsconfig.json, and elsewhere the package's self-reference resolves to
// dist/, a build that may be stale. A published app imports "ignite-element/tools/mcp-server"
// and "ignite-element/tools/redux" instead.
import { serveMcp } from "../../src/tools/hosts/mcp-server.js";
import { fromSlice } from "../../src/tools/sources/redux.js";
import { createTodoStore, todoCommands, todosSlice } from "../redux/todos.js";

const store = createTodoStore();
const server = new Server({ name: "ignite-todos", version: "1.0.0" });
// The tools follow the list's state (`toggle` needs a todo): serveMcp tells the client each time
// they change, after a call or after a dispatch from anywhere else.
serveMcp(server, fromSlice(store, todosSlice, todoCommands));
await server.connect(new StdioServerTransport());
