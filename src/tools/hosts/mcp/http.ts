/**
 * `ignite-element/tools/mcp-http` (Node only): a component served over MCP's Streamable HTTP to
 * clients of both protocol revisions on one endpoint, safe to leave running. This room is the
 * entry and Node's side of it: the options, the HTTP server (listening, closing, the `500` of a
 * request that failed) and who may reach the endpoint — `Host` and `Origin`, checked for both
 * revisions. What a request of each revision is answered with is `revisions.ts`'s: a 2026-07-28
 * request stands alone (any node behind a load balancer may take it), a 2025-11-25 client keeps
 * its session.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { InMemoryServerEventBus } from "@modelcontextprotocol/server";
import {
  aName,
  anObject,
  check,
  checkOptional,
  type Expect,
  MAX_TIMER_MS,
  names,
  wholeNumber,
} from "../../core/checks.js";
import type { AgentComponent, RuntimeEvent } from "../../core/types.js";
import { checkAsking } from "./asked.js";
import { revisions, rpcError } from "./revisions.js";
import { mcpServerFactory, type ServeMcpOptions } from "./server.js";

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
  const endpoint = revisions(factory, bus, idleTimeoutMs);
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

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
    return endpoint.fetch(request);
  }
  const serve = toNodeHandler({ fetch: route });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A session's request keeps it alive while it is open (a running call, a GET stream).
    const release = endpoint.hold(request.headers["mcp-session-id"]);
    if (release !== undefined) response.once("close", release);
    await serve(request, response);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => failed(response, error));
  });
  const listening = await listen(http, port, host);
  const hostname = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const url = new URL(`http://${hostname}:${listening}${path}`);
  const hosts = options.allowedHosts
    ? [...options.allowedHosts]
    : ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${listening}`);
  allowedHosts = new Set(hosts);
  allowedOrigins = new Set(
    options.allowedOrigins ?? hosts.flatMap((name) => [`http://${name}`, `https://${name}`]),
  );

  return {
    url,
    async close() {
      factory.close();
      await endpoint.close();
      http.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        http.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** Listens on `host:port`; the port it listens on (a free one for `0`). */
async function listen(http: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  if (address === null || typeof address === "string") throw new Error("not a TCP server");
  return address.port;
}

/** The answer to a request whose handling failed: a JSON-RPC internal error, if it still can be. */
function failed(response: ServerResponse, error: unknown): void {
  if (response.headersSent) response.end();
  else {
    const body = {
      jsonrpc: "2.0",
      error: { code: -32603, message: `Internal error: ${String(error)}` },
      id: null,
    };
    response.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  }
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
