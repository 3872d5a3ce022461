/**
 * What the agent loop takes and gives: the model request, its options (plain and streaming), each
 * step, and the result, narrowed by why it stopped.
 */

import type { CallListeners } from "../bridge/context.js";
import type { LoopToolBridge, ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import type { CallLedger } from "../core/ledger.js";
import type { ToolTracer } from "../core/tracing.js";
import type { AbortSignalLike, NeutralToolCall, RuntimeEvent, ToolError } from "../core/types.js";
import type { StreamAccumulator, StreamDelta } from "../wire/stream.js";
import type { ToolLoopState } from "./loop-state.js";
import type { ChangeNotes } from "./tell-changes.js";

/**
 * The platform's own `AbortSignal` type — the DOM's or Node's, whichever the program has — or
 * `AbortSignalLike` in a program with neither. Named through `globalThis` so this library's types
 * need no DOM or Node types of their own.
 */
export type PlatformAbortSignal = typeof globalThis extends {
  AbortSignal: { prototype: infer Signal extends AbortSignalLike };
}
  ? Signal
  : AbortSignalLike;

/**
 * What the loop hands the application's model function each turn.
 *
 * A model function typed once with it is one `runToolLoop` and `resumeToolLoop` both take, and
 * an SDK client takes its `signal` as it is:
 *
 * @example
 * ```ts
 * const model = (request: ModelRequest<OpenAIChatTool[], OpenAIChatMessage>) =>
 *   client.chat.completions.create(
 *     { model: "gpt-4.1", tools: request.tools, messages: request.messages },
 *     { signal: request.signal },
 *   );
 * ```
 * @typeParam Signal - the type of the signal given to `runToolLoop`: `request.signal` is that very
 *   signal, so an SDK client takes it as it is (`client.chat.completions.create(body, { signal })`).
 *   By default the platform's `AbortSignal` (what the SDKs take, and what the loop hands the model
 *   when it was given no signal); `AbortSignalLike` for a model that runs beside a signal of the
 *   application's own making.
 */
export interface ModelRequest<
  ToolDefs,
  Message,
  Signal extends AbortSignalLike = PlatformAbortSignal,
> {
  /** The tools available in the component's state now. */
  tools: ToolDefs;
  /** The conversation so far, in the dialect's message format. */
  messages: Message[];
  /**
   * Always a signal, so it goes as it is into an SDK's optional `abortSignal?: AbortSignal` (even
   * under `exactOptionalPropertyTypes`): the loop's own `signal`, so aborting the loop also
   * aborts the request in flight, or, when the loop was given none, a signal of the loop's that
   * never aborts.
   */
  signal: Signal;
  /** 1 for the first request. */
  turn: number;
}

/** One model turn and everything it caused. */
export interface ToolLoopStep<S, E extends RuntimeEvent, Response, ResultBlock> {
  turn: number;
  /** The model's response, as the model function returned it. */
  response: Response;
  calls: NeutralToolCall[];
  answers: ToolCallAnswer<S, E, ResultBlock>[];
  /** The errors among the answers, in call order. */
  errors: ToolError[];
  /**
   * The note the turn's request carried (`tellChanges`): what changed outside the model's calls
   * since its previous request, as the model read it. Absent when nothing was told.
   */
  told?: string;
}

/**
 * Why the loop stopped:
 * - `done` — the model answered without calling a tool;
 * - `maxTurns` — `maxTurns` model requests were made and the model still called tools;
 * - `aborted` — the signal aborted (before a request, during one, or while calls were answered);
 * - `error` — the model function threw or rejected, or its stream threw mid-way (not because of
 *   the abort); `error` holds what it threw, and the transcript holds everything before it — with
 *   the interrupted turn, answered, when it had calls;
 * - `approval` — the approval policy asked a person about a call: `pending` lists the calls that
 *   wait, `state` is what `resumeToolLoop` continues from.
 */
export type ToolLoopStop = "done" | "maxTurns" | "aborted" | "error" | "approval";

/** Options of `runToolLoop`. */
export interface ToolLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response = Response,
  Signal extends AbortSignalLike = PlatformAbortSignal,
> extends CallListeners {
  /** A bridge made with a dialect that carries conversations (`appendTurn`). */
  tools: LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
  /**
   * The application's own model call, with its client, credentials and retries. Its response
   * type is kept: `result.response` and each `step.response` are what it returned. A throw or
   * rejection ends the loop with `stop: "error"` (or `"aborted"` when the signal aborted). To
   * stream, return the SDK's stream instead and give `stream` (`StreamingToolLoopOptions`).
   *
   * @example
   * ```ts
   * model: ({ tools, messages, signal }) =>
   *   client.chat.completions.create({ model: "gpt-4.1", tools, messages }, { signal }),
   * ```
   */
  model: (request: ModelRequest<ToolDefs, Message, Signal>) => Promise<Returned>;
  /** The conversation to start from (the user's request, a system prompt). Not mutated. */
  messages: readonly Message[];
  /**
   * The most model requests to make.
   *
   * @default 10
   */
  maxTurns?: number;
  /**
   * Aborting stops the loop promptly — even while a model request that ignores the signal is
   * pending — with `stop: "aborted"`. It is passed to `model` and to every call.
   *
   * @default undefined — the loop cannot be aborted
   */
  signal?: Signal;
  /**
   * Called after each turn is answered.
   *
   * @default undefined
   */
  onStep?: (step: ToolLoopStep<S, E, Returned, ResultBlock>) => void;
  /**
   * Records every call before and after it runs, under the run's id and the turn; a call it
   * already holds is replayed, never run again. Give the same durable ledger to `resumeToolLoop`
   * in every process that may resume this run. See docs/approval.md.
   *
   * @default undefined — calls are not recorded
   */
  ledger?: CallLedger;
  /**
   * The run's id: what its keys in the ledger are scoped to, carried in a paused loop's `state`.
   * Unique per run: two runs with one id are one run to the ledger.
   *
   * @default a new random id (`crypto.randomUUID()`), made when it is first needed
   */
  runId?: string;
  /**
   * How long a call's `started` entry in the ledger holds before it counts as left by a process
   * that died, in milliseconds; renewed every third of it while `execute` runs.
   *
   * @default 30_000
   */
  leaseMs?: number;
  /**
   * Reports the run, each turn and each model request to a tracer, with the turn's calls (which
   * the bridge's own `tracer` reports) under its turn: `otelTracer(tracer)` from
   * `ignite-element/tools/otel` makes an `invoke_agent` span, a `turn {n}` span per turn and a
   * `chat {model}` span per request. Give the same tracer to
   * `igniteTools`. See docs/telemetry.md.
   *
   * @default undefined — no spans
   */
  tracer?: ToolTracer;
  /**
   * The model's name, for the spans: `gen_ai.request.model` and the span name `chat {model}`.
   *
   * @default undefined — the spans are named `chat`
   */
  modelName?: string;
  /**
   * The agent's name, for the spans: `gen_ai.agent.name` and the span name
   * `invoke_agent {name}`.
   *
   * @default undefined — the span is named `invoke_agent`
   */
  agentName?: string;
  /**
   * The change notes, made by `changeNotes({ maxChars })`: before each request after the first,
   * when something changed outside the model's own calls — a timer, a person, another agent —
   * since its previous request, a note in the dialect's own format (after the turn's results)
   * says which events happened, oldest first (an event the model's wait already answered with is
   * not told again), the state now, and which commands became available or unavailable outside
   * its calls; at most `maxChars` long. The step of the request keeps it (`step.told`). The
   * component is observed for the run only; it needs `subscribe` and `getSnapshot`, and a dialect
   * with `appendNote` (every conversation dialect has one) — a `TypeError` otherwise. See
   * docs/agent-loop.md.
   *
   * @example
   * ```ts
   * tellChanges: changeNotes({ maxChars: 1000 }),
   * ```
   * @default undefined — nothing is told
   */
  tellChanges?: ChangeNotes;
}

/**
 * Options of `runToolLoop` when the model streams: `model` returns (or resolves) the SDK's stream
 * of the provider's events, and `stream` is that provider's accumulator. Each call starts as soon
 * as its arguments are complete, while later calls still stream; calls still run one at a time in
 * the model's order, and every call is answered. See docs/streaming.md.
 *
 * @example
 * ```ts
 * const options: StreamingToolLoopOptions<…> = {
 *   tools: igniteTools(room, openai),
 *   stream: openaiStream,
 *   model: ({ tools, messages }) =>
 *     client.chat.completions.create({ model: "gpt-4.1", tools, messages, stream: true }),
 *   messages: [{ role: "user", content: "Dim the lights." }],
 * };
 * ```
 * @typeParam Event - the provider's stream event, as the SDK yields it.
 * @typeParam Streamed - the response the accumulator assembles: `result.response` and each
 *   `step.response`.
 */
export interface StreamingToolLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Event,
  Streamed extends Response,
  Signal extends AbortSignalLike = PlatformAbortSignal,
> extends Omit<
    ToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Streamed, Signal>,
    "model"
  > {
  /**
   * The application's own streaming model call: an async iterable of the provider's events, as
   * the SDKs' stream objects are, returned or resolved. A throw or rejection before the stream
   * ends the loop with `stop: "error"`; a stream that throws mid-way, see `stream`.
   *
   * @example
   * ```ts
   * model: ({ tools, messages, signal }) =>
   *   client.messages.stream({ model: "claude-sonnet-4-6", max_tokens: 4096, tools, messages }, { signal }),
   * ```
   */
  model: (
    request: ModelRequest<ToolDefs, Message, Signal>,
  ) => AsyncIterable<Event> | PromiseLike<AsyncIterable<Event>>;
  /**
   * The provider's accumulator, from its own entrypoint: `anthropicStream`, `openaiStream`,
   * `openaiResponsesStream`, `geminiStream`, `ollamaStream`. The loop makes one per turn. A stream
   * that ends early is read as a response the output limit cut: the call it cut is answered
   * `InvalidInput` and never runs. A stream that throws mid-way (a lost connection) has every call
   * answered, its turn appended when it has calls, and stops the loop with `stop: "error"`.
   *
   * @example
   * ```ts
   * stream: anthropicStream,
   * ```
   */
  stream: () => StreamAccumulator<Event, Streamed>;
  /**
   * Hears a streamed turn's progress as it arrives: text, reasoning, a call started, a piece of
   * its arguments, its arguments complete. A throw stops the stream as a lost connection would.
   *
   * @default undefined
   */
  onDelta?: (delta: StreamDelta, turn: number) => void;
}

/** What every `ToolLoopResult` holds: the conversation and what the component last observed. */
export interface ToolLoopTranscript<S, E extends RuntimeEvent, Response, ResultBlock, Message> {
  /** The whole transcript: the starting messages, every model turn and every result. */
  messages: Message[];
  steps: ToolLoopStep<S, E, Response, ResultBlock>[];
  /** The snapshot of the last successful call, if any call succeeded. */
  snapshot: S | undefined;
  /** The model's last response, as the model function returned it, when there was one. */
  response: Response | undefined;
}

/** A loop that ended: `done`, `maxTurns` or `aborted`. */
export interface ToolLoopEnded<S, E extends RuntimeEvent, Response, ResultBlock, Message>
  extends ToolLoopTranscript<S, E, Response, ResultBlock, Message> {
  stop: "done" | "maxTurns" | "aborted";
  error?: undefined;
  pending?: undefined;
  state?: undefined;
}

/** A loop whose model function failed: `error` is what it threw. */
export interface ToolLoopFailed<S, E extends RuntimeEvent, Response, ResultBlock, Message>
  extends ToolLoopTranscript<S, E, Response, ResultBlock, Message> {
  stop: "error";
  /** What the model function (or its stream) threw. */
  error: unknown;
  pending?: undefined;
  state?: undefined;
}

/** A loop paused for approval: `pending` waits for a person, `state` is what to resume from. */
export interface ToolLoopPaused<S, E extends RuntimeEvent, Response, ResultBlock, Message>
  extends ToolLoopTranscript<S, E, Response, ResultBlock, Message> {
  stop: "approval";
  error?: undefined;
  /** The calls waiting for a person's decision. */
  pending: PendingCall[];
  /** Plain JSON to store and give to `resumeToolLoop`. */
  state: ToolLoopState<Response, ResultBlock, Message>;
}

/**
 * The conversation, how it ended, and what the component last observed: narrowed by `stop`, so
 * after `if (result.stop === "approval")`, `pending` and `state` are there.
 */
export type ToolLoopResult<S, E extends RuntimeEvent, Response, ResultBlock, Message> =
  | ToolLoopEnded<S, E, Response, ResultBlock, Message>
  | ToolLoopFailed<S, E, Response, ResultBlock, Message>
  | ToolLoopPaused<S, E, Response, ResultBlock, Message>;
