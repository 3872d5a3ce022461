/**
 * The Redux todo list (examples/redux) served as a Model Context Protocol server over stdio,
 * through `mcpServerFactory` and the official SDK's `serveStdio`, which serves clients of both
 * protocol revisions (2026-07-28 and 2025-11-25). Any MCP client (Claude Desktop, an IDE, the
 * SDK's `Client` of either major) can list its tools and call them.
 *
 *   node --import tsx examples/mcp-server/server.ts
 *
 * stdout carries the protocol, so nothing else may be written to it.
 */
import { serveStdio } from "@modelcontextprotocol/server/stdio";
// Relative, not "ignite-element/tools/…": tsx maps tsconfig `paths` only when it is started in
// the directory holding tsconfig.json, and elsewhere the package's self-reference resolves to
// dist/, a build that may be stale. A published app imports "ignite-element/tools/mcp-server"
// and "ignite-element/tools/redux" instead.
import { mcpServerFactory } from "../../src/tools/hosts/mcp/server.js";
import { fromSlice } from "../../src/tools/sources/redux.js";
import { createTodoStore, todoCommands, todosSlice } from "../redux/todos.js";

const store = createTodoStore();
// Every command is listed from the start, since hosts such as Claude Desktop never list the tools
// again: a call to one that is not available yet (`toggle` needs a todo) is answered with when it
// will be. (`offer: "available"` lists only what the state allows, for clients that re-list.)
const serverInfo = { name: "ignite-todos", version: "1.0.0" };
serveStdio(mcpServerFactory(fromSlice(store, todosSlice, todoCommands), { serverInfo }));
