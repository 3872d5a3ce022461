/**
 * One model request of the loop: ask the model, read its reply — a complete response, or a stream
 * of the provider's events read into the caller's accumulator — and answer every call in it. A
 * streamed call starts as soon as the accumulator says it is ready, while later calls still
 * stream; the bridge's queue keeps the calls one at a time, in the model's order.
 */

import type { CallListeners } from "../bridge/context.js";
import { withDeadline } from "../bridge/deadline.js";
import type { DialectToolBridge, InvokeOptions, ToolCallAnswer } from "../bridge/types.js";
import type { CallLedger } from "../core/ledger.js";
import { err, ok } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type { AbortSignalLike, RuntimeEvent } from "../core/types.js";
import type { StreamAccumulator, StreamDelta } from "../wire/stream.js";

/** What the model function may give: its response, or a stream of its provider's events. */
export type ModelReply<Returned, Event> = Returned | AsyncIterable<Event>;

/** How one request ended. */
export type Asked<Response, Answer> =
  /** A turn to append: every call in it answered. `stop` is set when the stream broke off. */
  | {
      turn: true;
      response: Response;
      answers: Answer[];
      stop?: "aborted" | "error";
      error?: unknown;
    }
  /** Nothing to append: the request failed, or was aborted, before any call. */
  | { turn: false; stop: "aborted" | "error"; error?: unknown };

/** What `ask` needs of the loop's options. */
export interface AskContext<S, E extends RuntimeEvent, Response, ResultBlock, Event, Streamed> {
  tools: Pick<
    DialectToolBridge<S, E, unknown, Response, ResultBlock>,
    "answerToolCalls" | "answerToolCall" | "parseToolCalls"
  >;
  signal: AbortSignalLike | undefined;
  /** Records the turn's calls: the loop's ledger, under `scope` (the run and the turn). */
  ledger?: CallLedger | undefined;
  scope?: string | undefined;
  leaseMs?: number | undefined;
  /** Hear the calls' progress and log lines (the loop's `onProgress` and `onLog`). */
  listeners?: CallListeners | undefined;
  stream?: (() => StreamAccumulator<Event, Streamed>) | undefined;
  onDelta?: ((delta: StreamDelta, turn: number) => void) | undefined;
  /** The turn's span: the tool spans go under it. */
  parent: TraceHandle | undefined;
  /** The model request's span, ended here. */
  span: TraceHandle | undefined;
  turn: number;
}

/**
 * Asks the model and answers every call of its reply. Rejects only with a `TypeError` from the
 * bridge (a response that is not the dialect's shape) or for a stream without an accumulator.
 */
export async function ask<
  S,
  E extends RuntimeEvent,
  Response,
  ResultBlock,
  Returned extends Response,
  Event,
  Streamed extends Response,
>(
  context: AskContext<S, E, Response, ResultBlock, Event, Streamed>,
  asking: () => ModelReply<Returned, Event> | PromiseLike<ModelReply<Returned, Event>>,
): Promise<Asked<Returned | Streamed, ToolCallAnswer<S, E, ResultBlock>>> {
  const { tools, signal, span } = context;
  let reply: ModelReply<Returned, Event>;
  try {
    const asked = new Promise<ModelReply<Returned, Event>>((resolve) => resolve(asking()));
    // Raced against the signal, when there is one: a model call that ignores it does not hold the
    // loop. When the signal aborted during the call itself, a reply that has already arrived is
    // still taken: it is given until the next macrotask, and a reply that never comes is not
    // waited for.
    const waited =
      signal === undefined
        ? { done: true as const, value: await asked }
        : signal.aborted
          ? await withDeadline(asked, 0, undefined)
          : await withDeadline(asked, undefined, signal);
    if (!waited.done) {
      span?.end(ok(undefined));
      return { turn: false, stop: "aborted" };
    }
    reply = waited.value;
  } catch (error) {
    if (signal?.aborted) {
      span?.end(ok(undefined));
      return { turn: false, stop: "aborted" };
    }
    span?.end(err(error));
    return { turn: false, stop: "error", error };
  }
  if (!isStream(reply)) {
    span?.end(ok(undefined));
    // Every call is answered, even after an abort, so the transcript stays one a provider accepts.
    return {
      turn: true,
      response: reply,
      answers: await tools.answerToolCalls(reply, invokeOptions(context)),
    };
  }
  return read(context, reply);
}

/** Reads a streamed reply, starting each call once it is ready. */
async function read<
  S,
  E extends RuntimeEvent,
  Response,
  ResultBlock,
  Event,
  Streamed extends Response,
>(
  context: AskContext<S, E, Response, ResultBlock, Event, Streamed>,
  events: AsyncIterable<Event>,
): Promise<Asked<Streamed, ToolCallAnswer<S, E, ResultBlock>>> {
  const { tools, signal, span, onDelta, turn } = context;
  if (!context.stream) {
    span?.end(ok(undefined));
    throw new TypeError(
      "runToolLoop: the model function returned a stream, but no `stream` accumulator was given (e.g. `stream: anthropicStream`)",
    );
  }
  const accumulator = context.stream();
  const answers: Promise<ToolCallAnswer<S, E, ResultBlock>>[] = [];
  // Queued in the model's order: the bridge runs them one at a time, in the order started.
  const start = (upTo: number) => {
    if (upTo <= answers.length) return;
    const calls = tools.parseToolCalls(accumulator.response());
    for (
      let call = calls[answers.length];
      call && answers.length < upTo;
      call = calls[answers.length]
    ) {
      answers.push(tools.answerToolCall(call, invokeOptions(context)));
    }
  };

  let stop: "aborted" | "error" | undefined;
  let error: unknown;
  const iterator = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = signal?.aborted ? undefined : iterator.next();
      const waited = next && (await withDeadline(next, undefined, signal));
      if (!waited?.done) {
        stop = "aborted";
        // Stop the stream (the SDKs close the connection); what it says about it is not waited for.
        next?.then(undefined, () => undefined);
        Promise.resolve()
          .then(() => iterator.return?.())
          .then(undefined, () => undefined);
        break;
      }
      if (waited.value.done) break;
      for (const delta of accumulator.push(waited.value.value)) onDelta?.(delta, turn);
      start(accumulator.ready);
    }
  } catch (thrown) {
    stop = signal?.aborted ? "aborted" : "error";
    if (stop === "error") error = thrown;
  }

  // The response as it stands: a stream that broke off reads as one the output limit cut, so the
  // call it cut is answered InvalidInput and never runs. Every call is answered.
  const response = accumulator.response();
  start(Number.POSITIVE_INFINITY);
  span?.end(stop === "error" ? err(error) : ok(undefined));
  const answered = await Promise.all(answers);
  // An interrupted turn without calls is dropped: there is nothing in it to answer.
  if (stop !== undefined && answered.length === 0) {
    return stop === "error" ? { turn: false, stop, error } : { turn: false, stop };
  }
  const taken = { turn: true as const, response, answers: answered };
  if (stop === undefined) return taken;
  return stop === "error" ? { ...taken, stop, error } : { ...taken, stop };
}

/** Whether the model function gave a stream of events rather than a response. */
function isStream<Returned, Event>(
  reply: ModelReply<Returned, Event>,
): reply is AsyncIterable<Event> {
  return typeof reply === "object" && reply !== null && Symbol.asyncIterator in reply;
}

/**
 * The options each call of the turn is invoked with: the signal, its span's parent, the ledger,
 * and who hears its progress and logs.
 */
function invokeOptions(context: {
  signal: AbortSignalLike | undefined;
  parent: TraceHandle | undefined;
  ledger?: CallLedger | undefined;
  scope?: string | undefined;
  leaseMs?: number | undefined;
  listeners?: CallListeners | undefined;
}): InvokeOptions {
  const { signal, parent, ledger, scope, leaseMs, listeners } = context;
  const options: InvokeOptions = ledger ? { signal, parent, ledger, scope } : { signal, parent };
  if (ledger && leaseMs !== undefined) options.leaseMs = leaseMs;
  if (listeners?.onProgress) options.onProgress = listeners.onProgress;
  if (listeners?.onLog) options.onLog = listeners.onLog;
  return options;
}
