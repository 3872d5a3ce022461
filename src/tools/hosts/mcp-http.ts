/**
 * `ignite-element/tools/mcp-http` (Node only): a component served over MCP's Streamable HTTP to
 * clients of both protocol revisions on one endpoint, safe to leave running. A 2026-07-28
 * request stands alone: the SDK's `createMcpHandler` answers it with a fresh `Server` from
 * `mcpServerFactory`, so any node behind a load balancer may take any request. A 2025-11-25
 * client keeps its session, as that revision requires: one SDK `Server` per session over the
 * SDK's `WebStandardStreamableHTTPServerTransport` (through `toNodeHandler`), idle sessions
 * closed, dropped SSE streams resumable.
 * `Host` and `Origin` are checked for both.
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  InMemoryServerEventBus,
  isLegacyRequest,
  type JSONRPCMessage,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import {
  aName,
  anObject,
  check,
  checkOptional,
  type Expect,
  MAX_TIMER_MS,
  names,
  wholeNumber,
} from "../core/checks.js";
import type { AgentComponent, RuntimeEvent } from "../core/types.js";
import { sessionEvents } from "./event-store.js";
import { checkAsking } from "./mcp-asked.js";
import { mcpServerFactory, type ServeMcpOptions } from "./mcp-server.js";

/** Options of `serveMcpHttp`: where to listen, who may connect, and `serveMcp`'s own. */
export interface ServeMcpHttpOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends ServeMcpOptions<S, E> {
  /** The TCP port; `0` picks a free one (read it from `url`). @default 0 */
  readonly port?: number;
  /**
   * The interface to listen on. Anything but a loopback address (`127.0.0.1`, `localhost`,
   * `::1`) reaches other machines, and needs `allowedHosts`.
   * @default "127.0.0.1"
   */
  readonly host?: string;
  /** The path of the MCP endpoint; any other path is `404`. @default "/mcp" */
  readonly path?: string;
  /**
   * The `Host` header values a request may carry, port included when the client's URL has one
   * (`"mcp.example.com"`, `"localhost:3000"`); any other is refused `403` — the MCP spec's
   * protection against DNS rebinding, where a web page reaches a local server under its own
   * domain name. Default, on a loopback `host`: `localhost`, `127.0.0.1` and `[::1]` at the
   * server's port; required on any other.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * The `Origin` header values a request may carry; any other is refused `403`, so a web page
   * elsewhere cannot drive the server from a visitor's browser. A request without `Origin` (not
   * from a browser) is accepted. Default: `http://` and `https://` of each allowed host.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * How long a session may go without a request or an open stream before it is closed, its
   * `serveMcp` detached and its memory released: clients that vanish without ending their
   * session (a closed laptop, a killed host) do not pile up. A client holding its GET stream is
   * never idle. A request naming a closed session is answered `404`, and MCP clients then start a
   * new one.
   * @default 1_800_000 (30 minutes)
   */
  readonly idleTimeoutMs?: number;
  /**
   * The name and version the server gives, in `initialize` (2025-11-25) and `server/discover`
   * (2026-07-28). @default { name: "ignite-element", version: "1.0.0" }
   */
  readonly serverInfo?: { readonly name: string; readonly version: string };
}

/** A running `serveMcpHttp` server. */
export interface McpHttpServer {
  /** The endpoint clients connect to, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** How long a client waits before reconnecting a stream the server ended (SSE `retry`). */
const RETRY_MS = 1000;

/** One client session: its transport, and what keeps it alive. */
interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests of the session still open: a running call, a GET stream. */
  open: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Serves `component` over MCP's Streamable HTTP on `host:port` at `path`, to clients of the
 * 2026-07-28 revision (each request answered on its own, `server/discover`, cacheable lists,
 * `subscriptions/listen` for `list_changed`, approvals as `input_required` results) and of
 * 2025-11-25 (a session each, elicitation for approvals), on the same endpoint. Every request, of
 * either revision, goes through one bridge to the one component, so a call from any client, or a
 * change the application makes, reaches every client. It also
 *
 * - refuses, `403`, a request whose `Host` or `Origin` is not allowed, so a web page cannot
 *   drive a local server (on by default for loopback hosts);
 * - closes a 2025-11-25 session left idle for `idleTimeoutMs`, detaching it from the component;
 * - keeps each such session's last events so a client whose SSE stream dropped resumes it with
 *   `Last-Event-ID` and still gets the result of its call.
 *
 * A body over 4 MiB is `413`, one that is not JSON `400` with a JSON-RPC parse error; the rest
 * of the protocol's refusals are the SDK's (`-32602` for a missing `_meta` envelope, `-32020`
 * for headers that contradict the body, `404`/`-32601` for the methods 2026-07-28 removed,
 * `406`, `415`).
 *
 * @example
 * ```ts
 * const { url, close } = await serveMcpHttp(thermostat, { port: 3000 });
 * console.log(`MCP endpoint: ${url}`); // http://127.0.0.1:3000/mcp
 * ```
 *
 * @throws TypeError when `host` is not a loopback address and no `allowedHosts` are given, or the
 *   component's schema is malformed.
 */
export async function serveMcpHttp<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: ServeMcpHttpOptions<S, E> = {},
): Promise<McpHttpServer> {
  checkHttpOptions(options);
  const {
    port = 0,
    host = "127.0.0.1",
    path = "/mcp",
    idleTimeoutMs = 1_800_000,
    serverInfo = { name: "ignite-element", version: "1.0.0" },
    allowedHosts: _hosts,
    allowedOrigins: _origins,
    ...served
  } = options;
  if (!LOOPBACK.has(host) && options.allowedHosts === undefined) {
    throw new TypeError(
      `serveMcpHttp: listening on ${host} needs allowedHosts, the Host header values clients use (e.g. "mcp.example.com"): without them any web page could drive this server through DNS rebinding`,
    );
  }
  // A malformed schema is a TypeError now, not at the first client's request.
  const bus = new InMemoryServerEventBus();
  const factory = mcpServerFactory(component, { ...served, serverInfo, bus });
  // 2025-11-25 requests never reach it: they are routed to their sessions first.
  const modern = createMcpHandler(factory, { legacy: "reject", bus });

  const sessions = new Map<string, Session>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  /** A new 2025-11-25 session: its transport and SDK `Server`, bound to the component. */
  async function openSession(): Promise<Session> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        idleFrom(session);
      },
      eventStore: sessionEvents<JSONRPCMessage>(),
      retryInterval: RETRY_MS,
    });
    const session: Session = { transport, open: 0, idle: undefined };
    const server = factory({ era: "legacy" });
    // The session ends: the client's DELETE, the idle timeout, or `close()`.
    const detach = server.onclose;
    server.onclose = () => {
      detach?.();
      clearTimeout(session.idle);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  }

  /** Closes `session` after `idleTimeoutMs` unless a request comes first. */
  function idleFrom(session: Session): void {
    clearTimeout(session.idle);
    session.idle = setTimeout(() => void session.transport.close(), idleTimeoutMs);
    // An idle session never keeps the process alive.
    session.idle.unref();
  }

  /** Keeps `session` alive while `response` is open; idle from when its last request ends. */
  function hold(session: Session, response: ServerResponse): void {
    session.open += 1;
    clearTimeout(session.idle);
    response.once("close", () => {
      session.open -= 1;
      if (session.open === 0) idleFrom(session);
    });
  }

  /** A 2025-11-25 request: its session's, or, for an `initialize`, a new session's. */
  async function legacy(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      // What the SDK answers for a session it closed; clients then start a new one.
      if (session === undefined) return rpcError(404, -32001, "Session not found");
      const response = await session.transport.handleRequest(request);
      return request.method === "GET" ? opened(response) : response;
    }
    // No session yet: only an initialize request opens one, which the transport checks; anything
    // else leaves a transport without a session, closed at once.
    const session = await openSession();
    const response = await session.transport.handleRequest(request);
    if (session.transport.sessionId === undefined) await session.transport.close();
    return response;
  }

  /** One request of either revision, as the SDK's web-standard handlers take it. */
  async function route(request: Request): Promise<Response> {
    if (new URL(request.url).pathname !== path) return new Response(null, { status: 404 });
    // The MCP spec's protection against DNS rebinding, for both revisions, as the SDK's v1
    // transport checked it: exact `Host` values, port included, and exact origins. (The SDK's
    // `validateHostHeader` and `validateOriginHeader` compare hostnames without the port, which
    // would accept another server's port on the same machine.)
    const hostHeader = request.headers.get("host");
    if (hostHeader === null || !allowedHosts.has(hostHeader)) {
      return rpcError(403, -32000, `Invalid Host header: ${hostHeader ?? "(none)"}`);
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !allowedOrigins.has(origin)) {
      return rpcError(403, -32000, `Invalid Origin header: ${origin}`);
    }
    // The SDK's own classification: a request without the 2026-07-28 envelope is 2025-11-25's.
    const isLegacy = await isLegacyRequest(request);
    return isLegacy ? legacy(request) : modern.fetch(request);
  }
  const serve = toNodeHandler({ fetch: route });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A session's request keeps it alive while it is open (a running call, a GET stream).
    const id = request.headers["mcp-session-id"];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (session !== undefined) hold(session, response);
    await serve(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      else {
        const body = {
          jsonrpc: "2.0",
          error: { code: -32603, message: `Internal error: ${String(error)}` },
          id: null,
        };
        response.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("not a TCP server");
  const hostname = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = new URL(`http://${hostname}:${address.port}${path}`);
  const hosts = options.allowedHosts
    ? [...options.allowedHosts]
    : ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${address.port}`);
  allowedHosts = new Set(hosts);
  allowedOrigins = new Set(
    options.allowedOrigins ?? hosts.flatMap((name) => [`http://${name}`, `https://${name}`]),
  );

  return {
    url,
    async close() {
      factory.close();
      await modern.close();
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/**
 * A GET stream that starts with an SSE comment. The SDK's transport opens it without writing to
 * it, and Node sends a response's headers with its first byte: without one, the client would not
 * know its stream is open until the first event or keep-alive, up to 15 s later. Clients ignore
 * comments.
 */
function opened(response: Response): Response {
  if (
    response.body === null ||
    !response.headers.get("content-type")?.startsWith("text/event-stream")
  ) {
    return response;
  }
  const comment = new TextEncoder().encode(": open\n\n");
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ start: (stream) => stream.enqueue(comment) }),
  );
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A JSON-RPC error with no request id, as the SDK transport answers. */
function rpcError(status: number, code: number, message: string): Response {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  return new Response(body, { status, headers: { "Content-Type": "application/json" } });
}

/** A path of the server's own, as a URL has it. */
const PATH: Expect<string> = {
  allowed: 'a path starting with "/" (such as "/mcp")',
  test: (value): value is string => typeof value === "string" && value.startsWith("/"),
};

/**
 * Every option of `serveMcpHttp` that says where and to whom it listens, checked before it
 * listens: nothing is left listening behind a bad one, and no empty list switches a check off.
 */
function checkHttpOptions(options: unknown): void {
  const who = "serveMcpHttp";
  const given = check(who, "options", options, anObject);
  const read = (key: string): unknown => Reflect.get(given, key);
  checkOptional(who, "port", read("port"), wholeNumber(0, 65535));
  checkOptional(who, "host", read("host"), aName);
  checkOptional(who, "path", read("path"), PATH);
  checkOptional(who, "allowedHosts", read("allowedHosts"), names);
  checkOptional(who, "allowedOrigins", read("allowedOrigins"), names);
  checkOptional(who, "idleTimeoutMs", read("idleTimeoutMs"), wholeNumber(1, MAX_TIMER_MS));
  const asked = {
    requestStateKey: read("requestStateKey"),
    approvalTtlSeconds: read("approvalTtlSeconds"),
  };
  checkAsking(who, asked);
}
