/**
 * `ignite-element/tools/mcp-server`: a component bound to the MCP SDK's low-level `Server`
 * (`@modelcontextprotocol/server`, SDK v2), for clients of both protocol revisions: 2026-07-28,
 * where every request stands alone (a fresh `Server` per request, from `mcpServerFactory`), and
 * 2025-11-25, where a `Server` lives as long as its client's connection. The `mcp` dialect does
 * the translating; this room is the entry: `serveMcp` and `mcpServerFactory`, the capabilities,
 * and a `Server` bound to the rooms that answer it — the tool list and its changes (`lists.ts`),
 * the calls (`calls.ts`) and, through them, the approvals put to a person (`asked.ts`), and the
 * resources the application gives (`resources.ts`).
 */
import { Server } from "@modelcontextprotocol/server";
import { check, hasMethods } from "../../core/checks.js";
import type { AgentComponent, RuntimeEvent } from "../../core/types.js";
import { answerCalls } from "./calls.js";
import { type Host, hostOf } from "./host.js";
import { listTools, watch } from "./lists.js";
import { NO_RESOURCES, type Resources, resourcesOf, serveResources } from "./resources.js";
import type {
  IgniteMcpServerFactory,
  McpServerContext,
  McpServerFactoryOptions,
  ServeMcpOptions,
} from "./types.js";

export type {
  IgniteMcpServerFactory,
  McpResource,
  McpResourceContents,
  McpResourceEntry,
  McpResourceTemplate,
  McpServerContext,
  McpServerFactoryOptions,
  McpView,
  ServeMcpOptions,
} from "./types.js";

/**
 * What the server can do: tools and logging always; resources when it was given some, or when its
 * calls may return some (content parts).
 */
function capabilitiesOf<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  resources: Resources | undefined,
) {
  const serving = servesResources(host, resources);
  return { tools: { listChanged: true }, logging: {}, ...(serving ? { resources: {} } : {}) };
}

/** Whether the server answers resource requests: it has some, or its calls may return some. */
function servesResources<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  resources: Resources | undefined,
): boolean {
  return resources !== undefined || host.returned !== undefined;
}

/**
 * Makes SDK `Server`s serving `component`, for `createMcpHandler` (a fresh `Server` per
 * 2026-07-28 request, and per 2025-11-25 request under its stateless fallback) and `serveStdio`
 * (one per connection), which serve both protocol revisions from it. Each answers `tools/list`
 * and `tools/call` as `serveMcp` describes. A change of the tool list is published on `bus` for
 * the 2026-07-28 clients listening over HTTP; a `Server` that lives as long as its connection
 * (stdio, a 2025-11-25 session) announces it there itself.
 *
 * @example
 * ```ts
 * const bus = new InMemoryServerEventBus();
 * const handler = createMcpHandler(mcpServerFactory(thermostat, { bus }), { bus });
 * export default { fetch: handler.fetch };
 * ```
 *
 * @throws TypeError when the component's schema is malformed (naming the command), or
 *   `requestStateKey` is shorter than 32 bytes, or `approvalTtlSeconds` is no whole number.
 */
export function mcpServerFactory<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: McpServerFactoryOptions<S, E> = {},
): IgniteMcpServerFactory {
  const host = hostOf("mcpServerFactory", component, options);
  const resources = resourcesOf("mcpServerFactory", options.resources, options.view, component);
  const { serverInfo = { name: "ignite-element", version: "1.0.0" }, bus } = options;
  const stop = bus && watch(host, () => bus.publish({ kind: "tools_list_changed" }));
  const capabilities = capabilitiesOf(host, resources);
  const factory = (context?: McpServerContext) => {
    const server = new Server(serverInfo, { capabilities });
    // A server for one HTTP request is gone with its answer; one for a connection (stdio, a
    // 2025-11-25 session) watches the component and tells its client of changes.
    const lasting = context?.requestInfo === undefined;
    const detach = bind(host, server, lasting, resources);
    // A server that outlives its request stops watching the component when its connection ends
    // (whoever sets `onclose` later calls this one first).
    if (lasting) server.onclose = detach;
    return server;
  };
  return Object.assign(factory, { close: () => stop?.() });
}

/**
 * Serves `component` as the tools of an MCP SDK `Server` for as long as it is connected (stdio,
 * or one 2025-11-25 session): answers `tools/list` with the commands offered (every declared one
 * by default, `offer: "available"` for those available now) and `tools/call` through the bridge
 * (validated, gated by the live state, executed once, one call at a time), declares the
 * `tools.listChanged` capability and sends `notifications/tools/list_changed` once each time the
 * offered tools change — after a call, or when the component's `subscribe` says its state moved.
 * Every failure of a call, an unknown or unavailable tool included, is a `CallToolResult` with
 * `isError: true` and a message the model can act on. A client's `notifications/cancelled` aborts
 * the call it names (and the `signal` of its command's context); the command's `context.progress`
 * goes out as `notifications/progress` when the request carried a `progressToken`, its
 * `context.log` as `notifications/message`, at the level the client asked for. A call the
 * `approve` policy asks about is put to the person: to a 2026-07-28 client as an `input_required`
 * result with a form and a signed `requestState`, to a 2025-11-25 client by elicitation on its
 * connection; accepted, it runs once; declined, or asked of a client that cannot show a form, it
 * is `Denied`. With `wait`, the wait tool is listed too.
 *
 * For 2026-07-28 clients over HTTP, give `mcpServerFactory` to `createMcpHandler`, or use
 * `serveMcpHttp`; over stdio, give it to `serveStdio`, which serves both revisions.
 *
 * Call it before `server.connect(transport)`: MCP fixes a server's capabilities when the client
 * connects. It replaces any `tools/list` and `tools/call` handlers already set. Returns the
 * function that detaches it: the handlers are removed and the component is no longer watched.
 *
 * @example
 * ```ts
 * const server = new Server({ name: "todos", version: "1.0.0" });
 * const detach = serveMcp(server, fromSlice(store, todosSlice, todoCommands));
 * await server.connect(new StdioServerTransport());
 * ```
 *
 * @throws TypeError when the server is already connected, or the component's schema is malformed
 *   (naming the command).
 */
export function serveMcp<S, E extends RuntimeEvent>(
  server: Server,
  component: AgentComponent<S, E>,
  options: ServeMcpOptions<S, E> = {},
): () => void {
  check("serveMcp", "server", server satisfies unknown, SERVER);
  const resources = resourcesOf("serveMcp", options.resources, options.view, component);
  const host = hostOf("serveMcp", component, options);
  try {
    server.registerCapabilities(capabilitiesOf(host, resources));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `serveMcp must be called before server.connect(): MCP fixes a server's capabilities when the client connects (${reason})`,
    );
  }
  return bind(host, server, true, resources);
}

/**
 * Sets `server`'s `tools/list` and `tools/call` handlers, and its resource handlers when it has
 * `resources`. A server that lives as long as its connection (`lasting`) also announces each
 * change of the tool list on it.
 */
function bind<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  lasting: boolean,
  resources: Resources | undefined,
): () => void {
  const [answered, stop] = listTools(host, server, lasting);
  answerCalls(host, server, answered);
  const unserve =
    servesResources(host, resources) &&
    serveResources(server, resources ?? NO_RESOURCES, host.returned);
  let detached = false;
  return () => {
    if (detached) return;
    detached = true;
    stop();
    if (unserve) unserve();
    server.removeRequestHandler("tools/list");
    server.removeRequestHandler("tools/call");
  };
}

/** What `serveMcp` serves on: the MCP SDK's low-level `Server`. */
const SERVER = hasMethods<object>(
  "an MCP SDK Server (new Server({ name, version }) from @modelcontextprotocol/server)",
  "registerCapabilities",
  "setRequestHandler",
);
