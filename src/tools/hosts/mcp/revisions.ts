/**
 * The MCP endpoint's two protocol revisions behind one `fetch`: a 2026-07-28 request stands alone
 * and is answered by the SDK's `createMcpHandler` with a fresh `Server` from the factory, so any
 * node may take it; a 2025-11-25 client keeps its session, as that revision requires — one SDK
 * `Server` per session over `WebStandardStreamableHTTPServerTransport`, closed when idle, its
 * dropped SSE streams resumable (`event-store.ts`). Web-standard, a `Request` in and a `Response`
 * out: where it listens, and who may reach it, are `http.ts`'s.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  type JSONRPCMessage,
  type ServerEventBus,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { newId } from "../../bridge/ids.js";
import { sessionEvents } from "./event-store.js";
import type { IgniteMcpServerFactory } from "./types.js";

/** The endpoint of both revisions. */
export interface Revisions {
  /** One request of either revision. */
  fetch(request: Request): Promise<Response>;
  /**
   * Keeps the session `id` names (a request's `mcp-session-id`) alive until the returned function
   * is called — a running call, an open GET stream — and idle from when its last such ends.
   */
  hold(id: unknown): (() => void) | undefined;
  /** Stops the 2026-07-28 handler and ends every session. */
  close(): Promise<void>;
}

/** How a client waits before reconnecting a stream the server ended (SSE `retry`). */
const RETRY_MS = 1000;

/** One client session: its transport, and what keeps it alive. */
interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Requests of the session still open: a running call, a GET stream. */
  open: number;
  idle: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The endpoint of both revisions, their servers from `factory`: changes of the tool list reach
 * 2026-07-28 listeners on `bus`, and a 2025-11-25 session is closed after `idleTimeoutMs` without
 * a request or an open stream.
 */
export function revisions(
  factory: IgniteMcpServerFactory,
  bus: ServerEventBus,
  idleTimeoutMs: number,
): Revisions {
  // 2025-11-25 requests never reach it: they are routed to their sessions first.
  const modern = createMcpHandler(factory, { legacy: "reject", bus });
  const sessions = new Map<string, Session>();

  /** A new 2025-11-25 session: its transport and SDK `Server`, bound to the component. */
  async function openSession(): Promise<Session> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: newId,
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
    // An idle session never keeps the process alive (where timers can be told so: on Node).
    session.idle.unref?.();
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

  return {
    // The SDK's own classification: a request without the 2026-07-28 envelope is 2025-11-25's.
    fetch: async (request) =>
      (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request),
    hold(id) {
      const session = typeof id === "string" ? sessions.get(id) : undefined;
      if (session === undefined) return;
      session.open += 1;
      clearTimeout(session.idle);
      return () => {
        session.open -= 1;
        if (session.open === 0) idleFrom(session);
      };
    },
    async close() {
      await modern.close();
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
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
export function rpcError(status: number, code: number, message: string): Response {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  return new Response(body, { status, headers: { "Content-Type": "application/json" } });
}
