/**
 * `ignite-element/tools/mcp-server`: a component bound to the MCP SDK's low-level `Server`. The
 * `mcp` dialect does the translating; this is the part that needs the SDK: the two request
 * handlers, the capability, the `list_changed` notifications and the client's cancellations.
 */

import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { igniteTools } from "#compat";
import { NOT_ASKED } from "../approval/approval.js";
import { answerAsked } from "../approval/asked.js";
import { withDefaults } from "../bridge/defaults.js";
import { partsOf } from "../bridge/pipeline.js";
import type { IgniteToolsOptions, InvokeOptions, ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import { check, hasMethods } from "../core/checks.js";
import { executeFailed } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { err } from "../core/result.js";
import type {
  AgentComponent,
  JsonSchema,
  LogEntry,
  LogLevel,
  NeutralToolCall,
  ProgressUpdate,
  RuntimeEvent,
  ToolOffer,
} from "../core/types.js";
import { type McpOptions, type McpToolResult, mcp } from "../dialects/mcp/dialect.js";
import { checkInput } from "../validation/cache.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../wire/result-text.js";

/** Options of `serveMcp`: the bridge's (`igniteTools`) and the dialect's (`mcp`). */
export interface ServeMcpOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends IgniteToolsOptions<S, E>,
    McpOptions {
  /**
   * Which commands `tools/list` answers with. `"declared"`: every declared command, whatever the
   * state — a gated command's description ends with its `availableWhen`, and a call made while it
   * is unavailable is answered `Unavailable` saying when it will be; the list changes only when the
   * declarations do. `"available"`: the commands available now, with
   * `notifications/tools/list_changed` each time that changes — only for clients that list the
   * tools again when told (many hosts keep the first list: see docs/serving.md).
   *
   * @default "declared"
   */
  offer?: ToolOffer;
}

const LIST_CHANGED = { method: "notifications/tools/list_changed" } as const;

/**
 * Serves `component` as the tools of an MCP SDK `Server`: answers `tools/list` with the commands
 * offered (every declared one by default, `offer: "available"` for those available now) and
 * `tools/call` through the bridge (validated, gated by the live state, executed once, one call at
 * a time), declares the `tools.listChanged` capability and sends
 * `notifications/tools/list_changed` once each time the offered tools change — after a call, or
 * when the component's `subscribe` says its state moved. Every failure of a call, an unknown or
 * unavailable tool included, is a `CallToolResult` with `isError: true` and a message the model
 * can act on. A client's `notifications/cancelled` aborts the call it names (and the `signal` of
 * its command's context); the command's `context.progress` goes out as `notifications/progress`
 * when the request carried a `progressToken`, its `context.log` as `notifications/message` under
 * the `logging` capability, filtered by the level the client set with `logging/setLevel`. A call
 * the `approve` policy asks about is put to the person through MCP elicitation when the client
 * supports it (run once if they accept, `Denied` otherwise); without it, it is answered `Denied`.
 * With `wait`, the wait tool is listed too: a wait answers when what it waits for happens, other
 * `tools/call`s are answered meanwhile, and the client's cancellation ends it.
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
    server.registerCapabilities({ tools: { listChanged: true }, logging: {} });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `serveMcp must be called before server.connect(): MCP fixes a server's capabilities when the client connects (${reason})`,
    );
  }
  const dialect = mcp(options);
  const bridge = igniteTools(component, dialect, {
    ...options,
    offer: options.offer ?? "declared",
  });
  const { validator } = withDefaults(options);
  const maxChars = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;

  // The tool list the client was last given or told about (`known`), and the one it surely has
  // (`seen`): one it listed, or a change announced on one of its own calls. The server's own
  // notifications need a stream the client may not hold (on Streamable HTTP, its GET stream), so
  // a change sent there may never arrive: the client's next call announces it again, on the
  // call's own stream. Read now, so a malformed schema is a TypeError here rather than at the
  // client's first list.
  let knownDefs = bridge.toToolDefs();
  let known = JSON.stringify(knownDefs);
  let seenDefs = knownDefs;
  let seen = known;
  let detached = false;

  /** The tools offered now, or `undefined` when getSchema() throws (each call reports it). */
  const current = () => {
    try {
      return bridge.toToolDefs();
    } catch {
      return undefined;
    }
  };

  // A notification that cannot be sent (no client connected yet, or gone) is nobody's error: a
  // client that connects later lists the tools as they are then.

  /** Announces the tool list as the server's own notification if it differs from `known`. */
  const announce = async () => {
    const defs = current();
    // The bridge gives the same definitions exactly while nothing changed: nothing to write out
    // and compare.
    if (defs === undefined || defs === knownDefs || detached) return;
    knownDefs = defs;
    const now = JSON.stringify(defs);
    if (now === known) return;
    known = now;
    await server.sendToolListChanged().catch(() => undefined);
  };

  /** Announces the tool list on a call's own stream if it differs from `known` or `seen`. */
  const announceTo = async (extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
    const defs = current();
    if (defs === undefined || detached || (defs === knownDefs && defs === seenDefs)) return;
    const now = JSON.stringify(defs);
    const news = now !== known || now !== seen;
    seenDefs = knownDefs = defs;
    seen = known = now;
    if (news) await extra.sendNotification(LIST_CHANGED).catch(() => undefined);
  };

  // The level each session asked for with logging/setLevel (the session id is undefined on
  // stdio); until it asks, every log line is sent, as the SDK's own logging does.
  const levels = new Map<string | undefined, LogLevel>();
  server.setRequestHandler(SetLevelRequestSchema, (request, extra) => {
    levels.set(extra.sessionId, request.params.level);
    return {};
  });

  /** Who hears a call's progress and log lines: the client that made the request, on its stream. */
  const listenersFor = (extra: Extra): Pick<InvokeOptions, "onProgress" | "onLog"> => {
    const send = (notification: ServerNotification) => {
      // A client gone, or a value JSON cannot carry: nothing the command could do about it.
      extra.sendNotification(notification).catch(() => undefined);
    };
    const token = extra._meta?.progressToken;
    const level = () => levels.get(extra.sessionId);
    const onLog = (entry: LogEntry, call: NeutralToolCall) => {
      const floor = level();
      if (floor !== undefined && SEVERITY[entry.level] < SEVERITY[floor]) return;
      send({ method: "notifications/message", params: logParams(entry, call) });
    };
    if (token === undefined) return { onLog };
    // MCP requires the progress to grow with each notification: one that does not is not sent.
    let last = Number.NEGATIVE_INFINITY;
    const onProgress = (update: ProgressUpdate) => {
      if (!(update.progress > last)) return;
      last = update.progress;
      send({ method: "notifications/progress", params: { progressToken: token, ...update } });
    };
    return { onProgress, onLog };
  };

  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = bridge.toToolDefs();
    if (tools !== seenDefs) {
      seenDefs = knownDefs = tools;
      seen = known = JSON.stringify(tools);
    }
    return tools;
  });

  // Calls being answered now. A change while one runs, or one the client may have missed, is
  // announced when it is answered, on its request: on Streamable HTTP that is the call's own
  // stream, which needs no other stream open, and the client hears of the change before it reads
  // the result. A wait is not counted: it may last long, and what happens meanwhile happens
  // outside the calls, so it is announced at once. (Its name is a valid MCP name and no command
  // has it, so it is sent as it is.) A layer's own tool is one that runs beside the queue.
  let running = 0;
  const { beside } = partsOf(bridge, "serveMcp").pipeline;

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const counted = !beside(request.params.name);
    if (counted) running += 1;
    let answers: ToolCallAnswer<S, E, McpToolResult>[];
    try {
      // `extra.signal` is aborted by the client's notifications/cancelled: a queued call is then
      // never executed, a running one is answered at once (the SDK sends no response to it) and
      // its command's context signal aborts.
      const invokeOptions = { signal: extra.signal, ...listenersFor(extra) };
      answers = await bridge.answerToolCalls(request.params, invokeOptions);
      const [first] = answers;
      if (first?.pending) answers = [await decide(first, first.pending, extra, invokeOptions)];
    } finally {
      if (counted) running -= 1;
    }
    // A cancelled request's stream may be gone: its change goes out like any other.
    await (extra.signal.aborted ? announce() : announceTo(extra));
    // One tools/call is one call, so there is exactly one answer.
    const [answer] = answers;
    return answer === undefined ? NO_ANSWER : declared(answer);
  });

  // Outside a call the state moves too (a click, a timer, a dispatch): the component says so.
  // Many changes in one tick are one look at the list.
  let scheduled = false;
  const changed = () => {
    if (scheduled || detached) return;
    scheduled = true;
    void Promise.resolve().then(() => {
      scheduled = false;
      if (running > 0) return undefined; // announced when the call is answered
      return announce();
    });
  };
  const unsubscribe = component.subscribe?.(changed);

  /**
   * A call the policy asked about, put to the person by MCP elicitation on the call's own
   * request: accepted, it runs (bound to the input they were shown, once); declined, cancelled,
   * unanswered or not askable (a client without elicitation), it is `Denied`.
   */
  async function decide(
    answer: ToolCallAnswer<S, E, McpToolResult>,
    pending: PendingCall,
    extra: Extra,
    invokeOptions: InvokeOptions,
  ): Promise<ToolCallAnswer<S, E, McpToolResult>> {
    let action: string | undefined;
    if (server.getClientCapabilities()?.elicitation) {
      const ask = { method: "elicitation/create", params: confirmation(pending) } as const;
      try {
        // Abandoned with the call when the client cancels it.
        const options = { signal: extra.signal };
        action = (await extra.sendRequest(ask, ElicitResultSchema, options)).action;
      } catch {
        action = undefined; // the client failed, went away or cancelled: nobody approved
      }
    }
    const said = action === "accept" ? "allow" : { deny: WHY_NOT[action ?? ""] ?? NOT_ASKED };
    return answerAsked(bridge, answer, pending, said, invokeOptions);
  }

  /** The block, checked against the output schema the client was promised for this tool. */
  function declared(answer: ToolCallAnswer<S, E, McpToolResult>): McpToolResult {
    const { call, outcome, block } = answer;
    if (!outcome.ok) return block;
    const output = outputOf(component, call.name);
    if (output === undefined) return block;
    if (block.structuredContent === undefined) {
      return ranButNotSent(
        call,
        `its result is larger than the ${maxChars} characters this server sends`,
      );
    }
    const checked = checkInput(validator, output, block.structuredContent.snapshot);
    if ("compileError" in checked) {
      return ranButNotSent(call, `its output schema does not compile: ${checked.compileError}`);
    }
    if (checked.ok) return block;
    const issues = checked.error.map((issue) => `${issue.path || "snapshot"} ${issue.message}`);
    return ranButNotSent(
      call,
      `its result does not match its declared output schema (${issues.join("; ")})`,
    );
  }

  /**
   * A success that cannot be sent as declared: the model must know it took effect. Answered for
   * `call`, so the text quotes the tool name the model used.
   */
  function ranButNotSent(call: NeutralToolCall, why: string): McpToolResult {
    const reason = `ran, but ${why}, so it cannot be shown to you. It took effect: do not call it again to retry.`;
    return dialect.toToolResult(
      call,
      err(executeFailed(call.name, "output", reason, { called: call.toolName ?? call.name })),
    );
  }

  return () => {
    if (detached) return;
    detached = true;
    unsubscribe?.();
    server.removeRequestHandler("tools/list");
    server.removeRequestHandler("tools/call");
    server.removeRequestHandler("logging/setLevel");
  };
}

/** What a request handler is given beside the request. */
type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** MCP's levels in order of severity, as `logging/setLevel` compares them. */
const SEVERITY: Record<LogLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/**
 * A log line as `notifications/message` params: `logger` is the tool that wrote it, `data` the
 * message alone, or `{ message, data }` when the command attached data.
 */
function logParams({ level, message, data }: LogEntry, call: NeutralToolCall) {
  return {
    level,
    logger: call.toolName ?? call.name,
    data: data === undefined ? message : { message, data },
  };
}

/** The declared output schema of `name`, read from the live schema. */
function outputOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  name: string,
): JsonSchema | undefined {
  try {
    const { commands } = component.getSchema();
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    return isRecord(command?.output) ? command.output : undefined;
  } catch {
    return undefined; // the call itself reported a broken getSchema()
  }
}

const WHY_NOT: Record<string, string> = {
  decline: "the person declined it",
  cancel: "the person dismissed the request without deciding",
};

/**
 * What the person is asked: the tool, its effect and the exact input it would run with, and
 * nothing to fill in — accepting is the approval.
 */
function confirmation({ command, toolName, input, flags }: PendingCall) {
  const effect = flags.destructive
    ? " It may destroy or overwrite data."
    : flags.readOnly
      ? " It only reads."
      : "";
  const shown = input === undefined ? "no input" : `this input: ${JSON.stringify(input)}`;
  return {
    message: `Allow the agent to run "${toolName ?? command}" with ${shown}?${effect}`,
    requestedSchema: { type: "object" as const, properties: {} },
  };
}

/** Unreachable (a tools/call is always one call); answered rather than thrown, all the same. */
const NO_ANSWER: McpToolResult = {
  content: [{ type: "text", text: "Error: the call was not answered. Call the tool again." }],
  isError: true,
};

/** What `serveMcp` serves on: the MCP SDK's low-level `Server`. */
const SERVER = hasMethods<object>(
  "an MCP SDK Server (new Server({ name, version }) from @modelcontextprotocol/sdk/server/index.js)",
  "registerCapabilities",
  "setRequestHandler",
);
