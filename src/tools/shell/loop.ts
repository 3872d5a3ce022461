/**
 * A model-agnostic agent loop: ask the model with the tools available now, answer every call it
 * makes, append both in the dialect's message format, and repeat until it stops calling tools.
 * The application owns the model call (client, credentials, retries); the loop owns the order.
 */

import { err, ok } from "../core/result.js";
import type { ToolTracer, TraceHandle } from "../core/tracing.js";
import type { AbortSignalLike, NeutralToolCall, RuntimeEvent, ToolError } from "../core/types.js";
import type { StreamAccumulator, StreamDelta } from "../wire/stream.js";
import type { PendingCall } from "./approval.js";
import type { LoopToolBridge, ToolCallAnswer } from "./bridge.js";
import type { CallListeners } from "./context.js";
import { newId } from "./ids.js";
import type { CallLedger } from "./ledger.js";
import { pauseLoop, type ToolLoopState } from "./loop-state.js";
import { ask } from "./loop-stream.js";
import { type SpanTracer, toolTracer } from "./spans.js";
import { type TellChanges, type Teller, tellerOf } from "./tell-changes.js";

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

// The loop's own signal, when it was given none; every runtime this library supports has it.
declare const AbortController: new () => { readonly signal: PlatformAbortSignal };

/**
 * What the loop hands the application's model function each turn.
 *
 * @typeParam Signal - the type of the signal given to `runToolLoop`: `request.signal` is that very
 *   signal, so an SDK client takes it as it is (`client.chat.completions.create(body, { signal })`);
 *   the platform's `AbortSignal` when the loop was given none.
 */
export interface ModelRequest<ToolDefs, Message, Signal extends AbortSignalLike = AbortSignalLike> {
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

/** The step of one answered turn: its calls, their answers and the errors among them. */
export function stepOf<S, E extends RuntimeEvent, Response, ResultBlock>(
  turn: number,
  response: Response,
  answers: ToolCallAnswer<S, E, ResultBlock>[],
): ToolLoopStep<S, E, Response, ResultBlock> {
  const calls = answers.map((answer) => answer.call);
  const errors: ToolError[] = [];
  for (const { outcome } of answers) if (!outcome.ok) errors.push(outcome.error);
  return { turn, response, calls, answers, errors };
}

/** The snapshot of the last call of `answers` that succeeded; `before` when none did. */
export function lastSnapshot<S, E extends RuntimeEvent, ResultBlock>(
  answers: readonly ToolCallAnswer<S, E, ResultBlock>[],
  before: S | undefined,
): S | undefined {
  let snapshot = before;
  for (const { outcome } of answers) if (outcome.ok) snapshot = outcome.value.snapshot;
  return snapshot;
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
  Signal extends AbortSignalLike = AbortSignalLike,
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
   * the bridge's own `tracer` reports) under its turn: an OpenTelemetry `Tracer` as it is, or
   * `otelTracer(tracer, options)` from `ignite-element/tools/otel`, makes an `invoke_agent` span,
   * a `turn {n}` span per turn and a `chat {model}` span per request. Give the same tracer to
   * `igniteTools`. See docs/telemetry.md.
   *
   * @default undefined — no spans
   */
  tracer?: ToolTracer | SpanTracer;
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
   * Tells the model what changed outside its own calls — a timer, a person, another agent —
   * since its previous request: before each request after the first, when something did, a note
   * in the dialect's own format (after the turn's results) says which events happened, oldest
   * first (an event the model's wait already answered with is not told again), the state now,
   * and which commands became available or unavailable; at most `maxChars` long. The step of the
   * request keeps it (`step.told`). The component is observed for the run only; it needs
   * `subscribe` and `getSnapshot`, and a dialect with `appendNote` (every conversation dialect
   * has one) — a `TypeError` otherwise. See docs/agent-loop.md.
   *
   * @example
   * ```ts
   * tellChanges: { maxChars: 1000 },
   * ```
   * @default false
   */
  tellChanges?: TellChanges;
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
  Signal extends AbortSignalLike = AbortSignalLike,
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

/** The options of either overload of `runToolLoop`, as its implementation reads them. */
type AnyLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response,
  Signal extends AbortSignalLike,
  Event,
> =
  | ToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Returned, Signal>
  | StreamingToolLoopOptions<
      S,
      E,
      ToolDefs,
      Response,
      ResultBlock,
      Message,
      Event,
      Returned,
      Signal
    >;

/**
 * Runs the agent loop over a streaming model: each turn's stream is read into `stream`'s
 * accumulator, `onDelta` hears its progress, and each call starts as soon as its arguments are
 * complete — one at a time, in the model's order, every call answered.
 *
 * @example
 * ```ts
 * const result = await runToolLoop({
 *   tools: igniteTools(room, anthropic),
 *   stream: anthropicStream,
 *   model: ({ tools, messages, signal }) =>
 *     client.messages.stream({ model: "claude-sonnet-4-6", max_tokens: 4096, tools, messages }, { signal }),
 *   messages: [{ role: "user", content: "Dim the lights." }],
 *   onDelta: (delta) => delta.type === "text" && show(delta.text),
 * });
 * ```
 */
export function runToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Event,
  Streamed extends Response,
  Signal extends AbortSignalLike = PlatformAbortSignal,
>(
  options: StreamingToolLoopOptions<
    S,
    E,
    ToolDefs,
    Response,
    ResultBlock,
    Message,
    Event,
    Streamed,
    Signal
  >,
): Promise<ToolLoopResult<S, E, Streamed, ResultBlock, Message>>;
/**
 * Runs the agent loop over `tools` until the model stops calling tools (`done`), `maxTurns`
 * requests were made, the signal aborts, or the model function fails (`error`). Every call the
 * model made is answered, so the transcript is always one the provider accepts.
 *
 * @example
 * ```ts
 * const result = await runToolLoop({
 *   tools: igniteTools(thermostat, openai),
 *   model: ({ tools, messages, signal }) =>
 *     client.chat.completions.create({ model: "gpt-4.1", tools, messages }, { signal }),
 *   messages: [{ role: "user", content: "Warm the room to 21 °C." }],
 *   signal: AbortSignal.timeout(60_000),
 * });
 * console.log(result.stop, result.snapshot, result.response?.usage);
 * ```
 */
export function runToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response = Response,
  // When no signal is given, `request.signal` is the loop's own: a real AbortSignal.
  Signal extends AbortSignalLike = PlatformAbortSignal,
>(
  options: ToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Returned, Signal>,
): Promise<ToolLoopResult<S, E, Returned, ResultBlock, Message>>;
export async function runToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response,
  Signal extends AbortSignalLike,
  Event,
>(
  options: AnyLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Returned, Signal, Event>,
): Promise<ToolLoopResult<S, E, Returned, ResultBlock, Message>> {
  const from = goingOn<S, E, Message>(options);
  // Made before anything starts: a bridge that cannot observe is a TypeError, with no span left
  // open. A resumed loop goes on with the teller of its resume, which observed the settled turn
  // and stops it.
  const teller = from ? from.teller : tellerOf(options.tools, options.tellChanges, "runToolLoop");
  if (!teller || from) return loop(options, from, teller);
  // Observed for the run only, however it ends: done, error, abort, approval or a throw.
  try {
    return await loop(options, from, teller);
  } finally {
    teller.stop();
  }
}

async function loop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response,
  Signal extends AbortSignalLike,
  Event,
>(
  options: AnyLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Returned, Signal, Event>,
  from: GoingOn<S, E, Message> | undefined,
  teller: Teller<S, E, Message> | undefined,
): Promise<ToolLoopResult<S, E, Returned, ResultBlock, Message>> {
  const { tools, maxTurns = 10, signal, onStep } = options;
  const tracer = options.tracer && toolTracer(options.tracer);
  // Who hears the calls' progress and log lines (`onProgress`, `onLog`), read once for the run.
  const { onProgress, onLog } = options;
  const listeners = onProgress || onLog ? { onProgress, onLog } : undefined;
  let messages = [...options.messages];
  const steps: ToolLoopStep<S, E, Returned, ResultBlock>[] = [];
  let snapshot: S | undefined;
  let response: Returned | undefined;
  const { agentName: agent, modelName } = options;
  // The turn's context names its fields: on Node 20's V8, `{ ...options, key }` takes a slow path
  // for each key the spread did not already have (about 1 µs each), a third of a cheap turn.
  const { stream, onDelta } =
    "stream" in options ? options : { stream: undefined, onDelta: undefined };
  const run = from ? from.run : tracer?.start({ kind: "run", agent });
  // Made only when something needs it: the ledger's keys, or a paused state.
  let runId = options.runId ?? from?.runId;
  const idOfRun = () => {
    runId ??= newId();
    return runId;
  };
  const { ledger, leaseMs } = options;
  let turnSpan: TraceHandle | undefined;
  const close = (stop: ToolLoopStop, error?: unknown) => {
    turnSpan?.end(ok(undefined));
    run?.end(stop === "error" ? err(error) : ok(stop));
  };
  const end = (
    stop: "done" | "maxTurns" | "aborted" | "error",
    error?: unknown,
  ): ToolLoopResult<S, E, Returned, ResultBlock, Message> => {
    close(stop, error);
    return stop === "error"
      ? { stop, messages, steps, snapshot, response, error }
      : { stop, messages, steps, snapshot, response };
  };

  // The overloads make `Signal` the platform's AbortSignal when none is given, which is what this
  // is; the implementation's signature cannot see that.
  const requestSignal = (signal ?? new AbortController().signal) as Signal;
  const first = from?.turn ?? 1;
  // What the model read in the turn before each request: what a note leaves out.
  let answered: readonly ToolCallAnswer<S, E, unknown>[] = from?.answered ?? [];
  try {
    for (let turn = first; turn < first + maxTurns; turn++) {
      if (signal?.aborted) return end("aborted");
      // The first request of a run has no request before it to tell changes since.
      let told: string | undefined;
      if (teller && (turn > first || from)) {
        ({ messages, told } = teller.tell(messages, answered));
      }
      turnSpan = tracer?.start({ kind: "turn", turn }, run);
      const request = {
        tools: tools.toToolDefs(),
        messages: [...messages],
        signal: requestSignal,
        turn,
      };
      const chat = tracer?.start({ kind: "request", turn, model: modelName }, turnSpan);
      const context = {
        tools,
        stream,
        onDelta,
        signal,
        ledger,
        scope: ledger && `${idOfRun()}/turn-${turn}`,
        leaseMs,
        listeners,
        parent: turnSpan,
        span: chat,
        turn,
      };
      const asked = await ask<S, E, Response, ResultBlock, Returned, Event, Returned>(context, () =>
        options.model(request),
      );
      if (!asked.turn) return end(asked.stop, asked.error);
      const reply = asked.response;
      response = reply;
      const { answers } = asked;
      if (answers.some((answer) => answer.pending)) {
        const left = first + maxTurns - 1 - turn;
        // Paused before the spans end: a state that cannot be made is an error of this run.
        const paused = pauseLoop(messages, reply, turn, left, answers, idOfRun());
        close("approval");
        return { stop: "approval", messages, steps, snapshot, response: reply, ...paused };
      }
      const blocks = answers.map((answer) => answer.block);
      messages = tools.appendTurn(messages, reply, blocks);
      const step = stepOf(turn, reply, answers);
      if (told !== undefined) step.told = told;
      answered = answers;
      snapshot = lastSnapshot(answers, snapshot);
      steps.push(step);
      onStep?.(step);
      // A stream that broke off ends the loop once its calls are answered.
      if (asked.stop) return end(asked.stop, asked.error);
      // An abort that came with the model's last answer is still an abort, not `done`.
      if (signal?.aborted) return end("aborted");
      if (answers.length === 0) return end("done");
      turnSpan?.end(ok(undefined));
      turnSpan = undefined;
    }
  } catch (error) {
    // The application's bug (`onStep` threw, a reply its dialect cannot read) reaches it as it
    // was thrown, with the turn and run it broke ended first, not left open for ever.
    turnSpan?.end(err(error));
    run?.end(err(error));
    throw error;
  }
  return end("maxTurns");
}

/**
 * Where a resumed loop goes on from: its first turn, its run's span and its run's id, and, when
 * it tells changes, the resume's teller and the settled turn's answers.
 */
interface GoingOn<S, E extends RuntimeEvent, Message> {
  turn: number;
  run: TraceHandle | undefined;
  runId: string;
  teller?: Teller<S, E, Message> | undefined;
  answered?: readonly ToolCallAnswer<S, E, unknown>[];
}

// Keyed by the options object (see resumeToolLoop).
const resumed = new WeakMap<object, unknown>();

/** Where `options` go on from, when `startAt` made them a resumed loop's. */
function goingOn<S, E extends RuntimeEvent, Message>(
  options: object,
): GoingOn<S, E, Message> | undefined {
  // Only startAt sets it, with the options of a loop over the same bridge: its types are theirs.
  return resumed.get(options) as GoingOn<S, E, Message> | undefined;
}

/**
 * Makes `runToolLoop(options)` number its first request `turn`, report its turns under `run` and
 * go on with the run `runId` (a resumed loop goes on).
 */
export function startAt<O extends object, S, E extends RuntimeEvent, Message>(
  options: O,
  from: GoingOn<S, E, Message>,
): O {
  resumed.set(options, from);
  return options;
}
