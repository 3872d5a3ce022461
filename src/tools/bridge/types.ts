/**
 * What a bridge is: its options, the per-call options, and the three shapes it takes — neutral,
 * in one provider's tool format, and carrying that provider's conversation.
 */

import type { PendingCall } from "../core/approval.js";
import type { CoreOptions } from "../core/manifest.js";
import type { Result } from "../core/result.js";
import type {
  NeutralManifest,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
  ToolOffer,
  WarningSink,
} from "../core/types.js";
import type { InvokeOptions } from "./call-options.js";
import type { Layer } from "./pipeline.js";

export type { InvokeOptions, LedgerOptions } from "./call-options.js";

/**
 * The options that take a layer, in the order the layers join a bridge: which layer each takes
 * and the function that makes it (what a wrong value is told).
 */
export const LAYER_OPTIONS = {
  tracer: { layer: "tracing", madeBy: "otelTracer(tracer) or tracing(toolTracer)" },
  approve: { layer: "approval", madeBy: "approval(policy)" },
  wait: { layer: "wait", madeBy: "waitTool({ maxMs })" },
  content: { layer: "content", madeBy: "contentParts()" },
  search: { layer: "search", madeBy: "toolSearch()" },
} as const;

/**
 * Options of `igniteTools`: the input limits and validator of the core, and what the shell adds.
 *
 * @example
 * ```ts
 * const tools = igniteTools(component, openai, {
 *   timeoutMs: 10_000,
 *   project: ({ snapshot, events }) => ({ snapshot: summarise(snapshot), events }),
 *   onWarning: (warning) => log.warn(warning.code, warning.message),
 * });
 * ```
 */
export interface IgniteToolsOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends CoreOptions {
  /**
   * How long one `execute` may take, in milliseconds, before its call is answered
   * `ExecuteFailed` with reason `timeout`. Any length works (beyond the timers' 2³¹−1 ms it is
   * waited in steps); `Infinity` means no limit. The queue moves on when the call is answered,
   * not when the late `execute` settles.
   *
   * @default undefined — no limit
   */
  timeoutMs?: number;
  /**
   * What the model sees of a successful call — a summary instead of a large snapshot. `invoke`
   * still returns the full observation; only result blocks are projected. A `project` that throws
   * or returns something that is not `{ snapshot, events? }` answers the call `ExecuteFailed`
   * with reason `projection` (the command ran); every call is still answered.
   *
   * @default undefined — the model sees the whole observation
   */
  project?: (observation: Observation<S, E>, call: NeutralToolCall) => Observation;
  /**
   * Hears what the application should know and the model never sees: a gated command without
   * `canExecute`, a `canExecute` that is never asked or that throws, and whatever a dialect could
   * not send as it was (strict mode dropped, a keyword or a name changed). Each distinct warning
   * is reported once per bridge, not every turn; a sink that throws is ignored.
   *
   * @default undefined — warnings are dropped
   */
  onWarning?: WarningSink;
  /**
   * The approval and exactly-once layer, made by `approval(policy)`: after validation and
   * availability and before `execute`, the policy says whether each call may run — `"allow"`,
   * `"deny"` (or `{ deny: reason }`, answered `Denied`), or `"ask"`: `runToolLoop` and
   * `answerToolCalls` then hold the call as `pending` until a person decides; `invoke` and
   * `handleToolCalls`, which cannot wait, answer it `Denied`. It also records calls in the
   * `ledger` a call is given, so each runs once. See docs/approval.md.
   *
   * @example
   * ```ts
   * approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
   * ```
   * @default undefined — every valid, available call runs, and no call is recorded
   */
  approve?: Layer<"approval">;
  /**
   * The tracing layer: each call — queued, validated, executed, answered — reported to a tracer.
   * `otelTracer(trace.getTracer("shop"))` from `ignite-element/tools/otel` makes one GenAI
   * `execute_tool {name}` span per call; `tracing(toolTracer)` brings any other `ToolTracer` the
   * units of work. See docs/telemetry.md.
   *
   * @default undefined — no spans, no cost
   */
  tracer?: Layer<"tracing">;
  /**
   * Which commands `toToolDefs` lists: `"available"`, the commands available now (the list
   * follows the state, for a host that reads it every turn), or `"declared"`, every declared
   * command (for a host that keeps the first list it gets): a gated command then says in its
   * description when it is available (`availableWhen`), and a call made while it is not is
   * answered `Unavailable` saying so. `manifest()` is always the commands available now.
   *
   * @default "available"
   */
  offer?: ToolOffer;
  /**
   * The model's wait, made by `waitTool({ maxMs })`: one more tool (`waitFor`) with which the
   * model waits, without acting, for an event the component declares, for a gated command to
   * become available, or for any change. See docs/live-state.md.
   *
   * @example
   * ```ts
   * wait: waitTool({ maxMs: 60_000 }),
   * ```
   * @default undefined — no wait tool
   */
  wait?: Layer<"wait">;
  /**
   * Content parts, made by `contentParts()`: a command may answer with images, audio, texts,
   * resources and links beside its state (`{ state, events, content }`), each checked and sent in
   * the provider's own tool-result form. Without it, a result with `content` is refused. See
   * docs/content.md.
   *
   * @default undefined — results are their observation's JSON text
   */
  content?: Layer<"content">;
  /**
   * The built-in tool search, made by `toolSearch()`: one more tool (`search_tools`) that answers
   * the commands matching what the model describes, ranked from the manifest. See
   * docs/tools-on-demand.md.
   *
   * @default undefined — no search tool
   */
  search?: Layer<"search">;
}

/** One answered call: what was asked, what happened, and the block sent back to the provider. */
export interface ToolCallAnswer<S, E extends RuntimeEvent, ResultBlock> {
  call: NeutralToolCall;
  /** The validated command and input `execute` was called with; absent when it was not called. */
  route: Route | undefined;
  outcome: Result<Observation<S, E>, ToolError>;
  block: ResultBlock;
  /**
   * Set when the approval policy asked a person about the call: it did not run, and `outcome`
   * and `block` deny it until `resumeToolCalls` applies a decision.
   */
  pending?: PendingCall;
}

/** A component bridged to tool calls, without a provider format. */
export interface ToolBridge<S, E extends RuntimeEvent> {
  /** The commands available now; call it every turn, availability follows the state. */
  manifest(): NeutralManifest;
  /** The pure check of a call against the live schema and availability; executes nothing. */
  resolveCall(name: string, input: unknown): Result<Route, ToolError>;
  /**
   * Checks the call against a fresh schema and availability, then executes it exactly once with
   * a plain JSON copy of the input that was validated. Calls run one at a time, in the order
   * made. Never throws, never rejects; a call made from inside this bridge's own `execute` is
   * answered `ExecuteFailed` (reason `reentrant`) instead of waiting for itself.
   */
  invoke(
    call: NeutralToolCall,
    options?: InvokeOptions,
  ): Promise<Result<Observation<S, E>, ToolError>>;
}

/** A component bridged to one provider's tool format. */
export interface DialectToolBridge<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>
  extends ToolBridge<S, E> {
  /** The tools available now, in the provider's format. */
  toToolDefs(): ToolDefs;
  /** The tool calls in a provider response, mapped back to commands. */
  parseToolCalls(response: Response): NeutralToolCall[];
  /** One call's outcome in the provider's format (projected, when `project` is set). */
  toToolResult(call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>): ResultBlock;
  /** Parses, invokes each call in order, and answers each: one block per call, same order. */
  handleToolCalls(response: Response, options?: InvokeOptions): Promise<ResultBlock[]>;
  /** `handleToolCalls`, keeping each call and its outcome beside its block. */
  answerToolCalls(
    response: Response,
    options?: InvokeOptions,
  ): Promise<ToolCallAnswer<S, E, ResultBlock>[]>;
  /**
   * Invokes one parsed call and answers it, as `answerToolCalls` does each: queued behind every
   * call made before it, so calls started one by one (as a stream makes them ready) still run in
   * the order started.
   */
  answerToolCall(
    call: NeutralToolCall,
    options?: InvokeOptions,
  ): Promise<ToolCallAnswer<S, E, ResultBlock>>;
}

/** A component bridged to a provider format that can also carry the conversation. */
export interface LoopToolBridge<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>
  extends DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> {
  /** `messages` followed by the model's turn, unchanged, and its result blocks. */
  appendTurn(
    messages: readonly Message[],
    response: Response,
    results: readonly ResultBlock[],
  ): Message[];
  /** `messages` followed by a note for the model, when the dialect can write one. */
  appendNote?(messages: readonly Message[], note: string): Message[];
}
