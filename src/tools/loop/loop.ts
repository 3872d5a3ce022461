/**
 * A model-agnostic agent loop: ask the model with the tools available now, answer every call it
 * makes, append both in the dialect's message format, and repeat until it stops calling tools.
 * The application owns the model call (client, credentials, retries); the loop owns the order.
 * Change notes (`tellChanges`) and exactly-once (`ledger`) are what the loop is given, not what
 * it carries.
 */

import { checkTracer } from "../bridge/checks.js";
import { newId } from "../bridge/ids.js";
import type { ToolCallAnswer } from "../bridge/types.js";
import { err, ok } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type { AbortSignalLike, RuntimeEvent, ToolError } from "../core/types.js";
import { describeValue } from "../wire/describe-value.js";
import { checkLoopOptions } from "./checks.js";
import { pauseLoop, type ToolLoopState, untoldOf } from "./loop-state.js";
import { ask } from "./loop-stream.js";
import type { ChangeNotes, Teller, Told } from "./tell-changes.js";
import type {
  PlatformAbortSignal,
  StreamingToolLoopOptions,
  ToolLoopOptions,
  ToolLoopResult,
  ToolLoopStep,
  ToolLoopStop,
} from "./types.js";

// The loop's own signal, when it was given none; every runtime this library supports has it.
declare const AbortController: new () => { readonly signal: PlatformAbortSignal };

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
  checkLoopOptions(options);
  const from = goingOn<S, E, Message>(options);
  // Made before anything starts: a bridge that cannot observe is a TypeError, with no span left
  // open. A resumed loop goes on with the teller of its resume, which observed the settled turn
  // and stops it.
  const teller = from ? from.teller : notesOf(options.tools, options.tellChanges, "runToolLoop");
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
  const tracer = options.tracer && checkTracer(options.tracer, "runToolLoop");
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
        // What the notes heard and did not tell goes with the state, to be told after the resume.
        const untold = teller?.pause(answers);
        // Paused before the spans end: a state that cannot be made is an error of this run.
        const paused = pauseLoop(messages, reply, turn, left, answers, idOfRun(), { untold });
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

/**
 * The teller of a run's change notes, or `undefined` without them; a `TypeError` (by `who`) for
 * anything but what `changeNotes` makes (`true`, `{ maxChars }`: the forms before it). A resumed
 * run's teller first tells what its paused `state` carries untold (an `ApprovalError`,
 * `tampered`, when that is not what a pause stores).
 */
export function notesOf<S, E extends RuntimeEvent, Message>(
  tools: Told<S, E, Message>,
  option: unknown,
  who: string,
  state?: ToolLoopState<unknown, unknown, unknown>,
): Teller<S, E, Message> | undefined {
  if (option === undefined || option === false) return undefined;
  if (!isChangeNotes(option)) {
    throw new TypeError(
      `${who}: tellChanges takes what changeNotes({ maxChars }) makes, not ${describeValue(option)} (see CHANGELOG.md)`,
    );
  }
  const untold = state && untoldOf(state);
  return untold ? option.start(tools, who, untold) : option.start(tools, who);
}

function isChangeNotes(value: unknown): value is ChangeNotes {
  return (
    typeof value === "object" &&
    value !== null &&
    "layer" in value &&
    value.layer === "changeNotes" &&
    "start" in value &&
    typeof value.start === "function"
  );
}
