/**
 * `ignite-element/tools/mcp-server`: a component bound to the MCP SDK's low-level `Server`
 * (`@modelcontextprotocol/server`, SDK v2), for clients of both protocol revisions: 2026-07-28,
 * where every request stands alone (a fresh `Server` per request, from `mcpServerFactory`), and
 * 2025-11-25, where a `Server` lives as long as its client's connection. The `mcp` dialect does
 * the translating; this is the part that needs the SDK: the two request handlers, the
 * capabilities, the cache hints, `list_changed`, and the approvals put to a person.
 */
import {
  type CacheScope,
  type InputRequiredResult,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type ServerContext,
  type ServerEventBus,
} from "@modelcontextprotocol/server";
import { igniteTools } from "#compat";
import { withDefaults } from "../bridge/defaults.js";
import { partsOf } from "../bridge/pipeline.js";
import type { IgniteToolsOptions, InvokeOptions, ToolCallAnswer } from "../bridge/types.js";
import { check, hasMethods } from "../core/checks.js";
import { isRecord } from "../core/json.js";
import type { CallLedger } from "../core/ledger.js";
import type { AgentComponent, RuntimeEvent, ToolOffer } from "../core/types.js";
import { type McpOptions, type McpToolResult, mcp } from "../dialects/mcp/dialect.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../wire/result-text.js";
import {
  type Asking,
  asking,
  askOnConnection,
  askPerson,
  isInputRequired,
  settleAsked,
} from "./mcp-asked.js";
import { checkedAgainstOutput, listenersFor, NO_ANSWER } from "./mcp-results.js";

/** Options of `serveMcp`: the bridge's (`igniteTools`), the dialect's (`mcp`) and the host's. */
export interface ServeMcpOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends IgniteToolsOptions<S, E>,
    McpOptions {
  /**
   * Which commands `tools/list` answers with. `"declared"`: every declared command, whatever the
   * state — a gated command's description ends with its `availableWhen`, and a call made while it
   * is unavailable is answered `Unavailable` saying when it will be; the list changes only when the
   * declarations do, so a 2026-07-28 client may cache it (`listTtlMs`). `"available"`: the
   * commands available now, with `notifications/tools/list_changed` each time that changes — only
   * for clients that list the tools again when told (many hosts keep the first list: see
   * docs/serving.md); its lists are never cached (`ttlMs: 0`).
   *
   * @default "declared"
   */
  offer?: ToolOffer;
  /**
   * The HMAC key (at least 32 bytes) that signs the `requestState` of an approval asked of a
   * 2026-07-28 client: the state carries the held call, and the retry that brings the person's
   * answer is refused unless it verifies. Give every server node the same key, so that the
   * answer may reach any of them.
   *
   * @default 32 random bytes drawn for this process
   */
  requestStateKey?: string | Uint8Array;
  /**
   * How long the person has to answer an approval, in seconds: a retry with an older state is
   * refused. @default 600
   */
  approvalTtlSeconds?: number;
  /**
   * Where an approved call is claimed and recorded before and after it runs, so that the retry
   * carrying the person's answer runs it once however often it is delivered, and on whichever
   * node: give every node the same durable ledger (`ignite-element/tools/ledger-redis`,
   * `…/ledger-postgres`).
   *
   * @default the process's own in-memory ledger
   */
  ledger?: CallLedger;
  /**
   * How long a 2026-07-28 client may reuse a `tools/list` answer under `offer: "declared"`, in
   * milliseconds (its `ttlMs`; `cacheScope` is `"public"`: the list is the same for every caller).
   * @default 60_000
   */
  listTtlMs?: number;
}

/** Options of `mcpServerFactory`: `serveMcp`'s, and what each `Server` it makes is given. */
export interface McpServerFactoryOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends ServeMcpOptions<S, E> {
  /** The name and version the server gives. @default { name: "ignite-element", version: "1.0.0" } */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /**
   * Where a change of the tool list is published for 2026-07-28 clients listening with
   * `subscriptions/listen`: the same bus given to `createMcpHandler` (`options.bus`), which
   * delivers it on every open subscription stream.
   */
  readonly bus?: ServerEventBus;
}

/**
 * A factory of SDK `Server`s bound to one component, as `createMcpHandler` and `serveStdio`
 * take it (`McpServerFactory`): every `Server` shares one bridge (one queue, one component), the
 * approvals' signing key and the ledger.
 */
export interface IgniteMcpServerFactory {
  (context?: McpServerContext): Server;
  /** Stops watching the component; the servers already made keep answering. */
  close(): void;
}

/**
 * What `createMcpHandler` and `serveStdio` tell a factory about the `Server` they ask for (the
 * SDK's `McpRequestContext`, as far as the factory reads it).
 */
export interface McpServerContext {
  /** The revision the server will speak: `"modern"` for 2026-07-28, `"legacy"` for 2025-11-25. */
  readonly era?: "legacy" | "modern";
  /**
   * The HTTP request the server answers, when it serves one request only (`createMcpHandler`
   * sets it); without it, the server lives as long as its connection (`serveStdio`, a session).
   */
  readonly requestInfo?: Request;
}

/** What every server of one component shares. */
interface Host<S, E extends RuntimeEvent> {
  readonly component: AgentComponent<S, E>;
  readonly bridge: ReturnType<typeof bridgeOf<S, E>>["bridge"];
  readonly dialect: ReturnType<typeof bridgeOf<S, E>>["dialect"];
  readonly asked: Asking;
  readonly output: Parameters<typeof checkedAgainstOutput>[1];
  readonly cache: { readonly ttlMs: number; readonly cacheScope: CacheScope };
  /** Looks at the tool list again: each watcher's, called after every call is answered. */
  readonly looks: Set<() => void>;
}

function bridgeOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: McpServerFactoryOptions<S, E>,
) {
  const dialect = mcp(options);
  // The bridge is given its own options only: on Node it tells `onWarning` of any other key.
  const {
    maxResultChars,
    requestStateKey,
    approvalTtlSeconds,
    ledger,
    listTtlMs,
    serverInfo,
    bus,
    ...bridgeOptions
  } = options;
  const bridge = igniteTools(component, dialect, {
    ...bridgeOptions,
    offer: options.offer ?? "declared",
  });
  return { dialect, bridge };
}

function hostOf<S, E extends RuntimeEvent>(
  who: string,
  component: AgentComponent<S, E>,
  options: McpServerFactoryOptions<S, E>,
): Host<S, E> {
  const { dialect, bridge } = bridgeOf(component, options);
  // Read now, so a malformed schema is a TypeError here rather than at the client's first list.
  bridge.toToolDefs();
  const declared = (options.offer ?? "declared") === "declared";
  return {
    component,
    bridge,
    dialect,
    asked: asking(who, options),
    output: {
      component,
      dialect,
      validator: withDefaults(options).validator,
      maxChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    },
    cache: declared
      ? { ttlMs: options.listTtlMs ?? 60_000, cacheScope: "public" }
      : { ttlMs: 0, cacheScope: "private" },
    looks: new Set(),
  };
}

const CAPABILITIES = { capabilities: { tools: { listChanged: true }, logging: {} } } as const;

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
  const { serverInfo = { name: "ignite-element", version: "1.0.0" }, bus } = options;
  const stop = bus && watch(host, () => bus.publish({ kind: "tools_list_changed" }));
  const factory = (context?: McpServerContext) => {
    const server = new Server(serverInfo, CAPABILITIES);
    // A server for one HTTP request is gone with its answer; one for a connection (stdio, a
    // 2025-11-25 session) watches the component and tells its client of changes.
    const lasting = context?.requestInfo === undefined;
    const detach = bind(host, server, lasting);
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
  try {
    server.registerCapabilities(CAPABILITIES.capabilities);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `serveMcp must be called before server.connect(): MCP fixes a server's capabilities when the client connects (${reason})`,
    );
  }
  return bind(hostOf("serveMcp", component, options), server, true);
}

/**
 * Calls `changed` once each time the tool list the component offers differs from the last one
 * seen — after a call, or when the component's `subscribe` says its state moved (many changes in
 * one tick are one look). Returns the function that stops watching.
 */
function watch<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  changed: (now: string) => void,
): () => void {
  let known = JSON.stringify(host.bridge.toToolDefs());
  let scheduled = false;
  let stopped = false;
  const look = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    void Promise.resolve().then(() => {
      scheduled = false;
      let now: string;
      try {
        now = JSON.stringify(host.bridge.toToolDefs());
      } catch {
        return; // getSchema() threw: each call reports it
      }
      if (now === known || stopped) return;
      known = now;
      changed(now);
    });
  };
  const unsubscribe = host.component.subscribe?.(look);
  host.looks.add(look);
  return () => {
    stopped = true;
    unsubscribe?.();
    host.looks.delete(look);
  };
}

/**
 * Sets `server`'s `tools/list` and `tools/call` handlers. A server that lives as long as its
 * connection (`lasting`) also announces each change of the tool list on it.
 */
function bind<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  lasting: boolean,
): () => void {
  const { bridge, cache } = host;
  let detached = false;
  const { beside } = partsOf(bridge, "serveMcp").pipeline;

  // A lasting connection is told of each change of the tool list. The server's own notification
  // needs a stream the client may not hold (on Streamable HTTP, its GET stream), so it may never
  // arrive: a change while a call runs, or one the client may have missed, is announced when the
  // call is answered, on its own stream, before its result. A layer's own tool (the wait) is not
  // counted: it may last long, and what happens meanwhile is announced at once.
  // The tool list the client was last given or told about (`known`), and the one it surely has
  // (`seen`): one it listed, or a change announced on one of its own calls.
  let known = lasting ? JSON.stringify(bridge.toToolDefs()) : "";
  let seen = known;
  let running = 0;
  const announce = (now: string) => {
    // The client was told already, or hears of it after its call.
    if (now === known || running > 0 || detached) return;
    known = now;
    server.sendToolListChanged().catch(() => undefined);
  };
  const stop = lasting ? watch(host, announce) : undefined;
  const announceTo = async (ctx: ServerContext) => {
    let now: string;
    try {
      now = JSON.stringify(bridge.toToolDefs());
    } catch {
      return;
    }
    if ((now === known && now === seen) || detached) return;
    // A cancelled request's stream may be gone: its change goes out like any other. A 2026-07-28
    // client hears of changes on its `subscriptions/listen` stream only, where `serveStdio`
    // routes the server's own notification.
    if (ctx.mcpReq.signal.aborted || isModern(ctx)) return announce(now);
    seen = known = now;
    await ctx.mcpReq.notify({ method: "notifications/tools/list_changed" }).catch(() => undefined);
  };

  server.setRequestHandler("tools/list", (_request, ctx) => {
    const tools = bridge.toToolDefs();
    if (lasting) seen = known = JSON.stringify(tools);
    // Cache hints are a 2026-07-28 field: a 2025-11-25 client is answered as before.
    return isModern(ctx) ? { ...tools, ...cache } : tools;
  });

  server.setRequestHandler("tools/call", async ({ params }, ctx) => {
    const counted = !beside(params.name);
    if (counted) running += 1;
    let answer: McpToolResult | InputRequiredResult;
    try {
      answer = await answerCall(host, server, params, ctx);
    } finally {
      if (counted) running -= 1;
    }
    if (lasting) await announceTo(ctx);
    for (const look of host.looks) look();
    return answer;
  });

  return () => {
    if (detached) return;
    detached = true;
    stop?.();
    server.removeRequestHandler("tools/list");
    server.removeRequestHandler("tools/call");
  };
}

/**
 * One `tools/call`: the retry of an asked call settled by the person's answer, or a call answered
 * by the bridge — and, when the policy asks about it, asked of the person.
 */
async function answerCall<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  params: { readonly name: string; readonly arguments?: Record<string, unknown> | undefined },
  ctx: ServerContext,
): Promise<McpToolResult | InputRequiredResult> {
  const { bridge, asked } = host;
  // `ctx.mcpReq.signal` is aborted by the client's cancellation: a queued call is then never
  // executed, a running one is answered at once and its command's context signal aborts.
  const invokeOptions: InvokeOptions = { signal: ctx.mcpReq.signal, ...listenersFor(ctx) };
  const request = { name: params.name, arguments: params.arguments };
  const state = ctx.mcpReq.requestState();
  let answer: ToolCallAnswer<S, E, McpToolResult> | InputRequiredResult;
  if (typeof state === "string") {
    answer = await settleAsked(bridge, asked, state, request, ctx, invokeOptions);
  } else {
    const [first] = await bridge.answerToolCalls(request, invokeOptions);
    if (first === undefined) return NO_ANSWER;
    const { pending } = first;
    if (pending === undefined) answer = first;
    // A 2026-07-28 client is answered `input_required`; a 2025-11-25 one is asked on its
    // connection, as that revision does.
    else if (isModern(ctx)) {
      answer = await askPerson(bridge, asked, first, pending, request, ctx, canElicit(server));
    } else {
      answer = await askOnConnection(bridge, first, pending, ctx, canElicit(server), invokeOptions);
    }
  }
  return isInputRequired(answer) ? answer : checkedAgainstOutput(answer, host.output);
}

/** Whether the request was made under the 2026-07-28 revision (it carries the per-request envelope). */
function isModern(ctx: ServerContext): boolean {
  const envelope: unknown = ctx.mcpReq.envelope;
  return isRecord(envelope) && typeof envelope[PROTOCOL_VERSION_META_KEY] === "string";
}

/**
 * Whether the client can be shown a form: the capabilities it declared, on this request
 * (2026-07-28, which the SDK also reports here) or when it connected (2025-11-25).
 */
function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation !== undefined;
}

/** What `serveMcp` serves on: the MCP SDK's low-level `Server`. */
const SERVER = hasMethods<object>(
  "an MCP SDK Server (new Server({ name, version }) from @modelcontextprotocol/server)",
  "registerCapabilities",
  "setRequestHandler",
);
