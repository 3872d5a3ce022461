/**
 * `ignite-element/tools/mcp-http` (Node only): a component served over MCP's Streamable HTTP,
 * safe to leave running — `serveMcp` on a `node:http` server with the SDK's
 * `StreamableHTTPServerTransport`, one SDK `Server` per client session, `Host` and `Origin`
 * checked, idle sessions closed, and dropped SSE streams resumable.
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
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
import { type ServeMcpOptions, serveMcp } from "./mcp-server.js";

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
  /** The name and version the server gives in `initialize`. @default { name: "ignite-element", version: "1.0.0" } */
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
  readonly transport: StreamableHTTPServerTransport;
  /** Requests of the session still open: a running call, a GET stream. */
  open: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Serves `component` over MCP's Streamable HTTP on `host:port` at `path`: each client session gets
 * its own SDK `Server` bound by `serveMcp` to the one component, so a call from any client, or a
 * change the application makes, reaches every client. It also
 *
 * - refuses, `403`, a request whose `Host` or `Origin` is not allowed (the SDK transport's own
 *   check), so a web page cannot drive a local server (on by default for loopback hosts);
 * - closes a session left idle for `idleTimeoutMs`, detaching it from the component;
 * - keeps each session's last events so a client whose SSE stream dropped resumes it with
 *   `Last-Event-ID` and still gets the result of its call.
 *
 * Request size limits and malformed requests are the SDK transport's to answer (`413`, `400`
 * with a JSON-RPC parse error, `406`, `415`).
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
  } = options;
  if (!LOOPBACK.has(host) && options.allowedHosts === undefined) {
    throw new TypeError(
      `serveMcpHttp: listening on ${host} needs allowedHosts, the Host header values clients use (e.g. "mcp.example.com"): without them any web page could drive this server through DNS rebinding`,
    );
  }
  // A malformed schema is a TypeError now, not at the first client's initialize.
  serveMcp(new Server(serverInfo), component, options)();

  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];
  let allowedOrigins: string[] = [];

  /** A new session: its transport and SDK `Server`, bound to the component. */
  async function openSession(): Promise<Session> {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      eventStore: sessionEvents<JSONRPCMessage>(),
      retryInterval: RETRY_MS,
      // The SDK's own check; it marks these options deprecated in favour of framework
      // middleware, which checks Host only and only for Express.
      enableDnsRebindingProtection: true,
      allowedHosts,
      allowedOrigins,
    });
    const session: Session = { transport, open: 0, idle: undefined };
    const server = new Server(serverInfo);
    const detach = serveMcp(server, component, options);
    // The session ends: the client's DELETE, the idle timeout, or `close()`.
    server.onclose = () => {
      detach();
      clearTimeout(session.idle);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  }

  /** Keeps `session` alive while `response` is open; idle from when its last request ends. */
  function hold(session: Session, response: ServerResponse): void {
    session.open += 1;
    clearTimeout(session.idle);
    response.once("close", () => {
      session.open -= 1;
      if (session.open > 0) return;
      session.idle = setTimeout(() => void session.transport.close(), idleTimeoutMs);
      // An idle session never keeps the process alive.
      session.idle.unref();
    });
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== path) {
      response.writeHead(404).end();
      return;
    }
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (session === undefined) {
        // What the SDK answers for a session it closed; clients then start a new one.
        sendError(response, 404, -32001, "Session not found");
        return;
      }
      hold(session, response);
      await session.transport.handleRequest(request, response);
      return;
    }
    // No session yet: only an initialize request opens one, which the transport checks (with the
    // Host and Origin); anything else leaves a transport without a session, closed at once.
    const session = await openSession();
    hold(session, response);
    await session.transport.handleRequest(request, response);
    if (session.transport.sessionId === undefined) await session.transport.close();
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) response.end();
      else sendError(response, 500, -32603, `Internal error: ${String(error)}`);
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
  allowedHosts = options.allowedHosts
    ? [...options.allowedHosts]
    : ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${address.port}`);
  allowedOrigins = options.allowedOrigins
    ? [...options.allowedOrigins]
    : allowedHosts.flatMap((name) => [`http://${name}`, `https://${name}`]);

  return {
    url,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
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
}

/** A JSON-RPC error with no request id, as the SDK transport answers. */
function sendError(response: ServerResponse, status: number, code: number, message: string) {
  response
    .writeHead(status, { "Content-Type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
