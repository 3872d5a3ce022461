/**
 * A model-agnostic agent loop: ask the model with the tools available now, answer every call it
 * makes, append both in the dialect's message format, and repeat until it stops calling tools.
 * The application owns the model call (client, credentials, retries); the loop owns the order.
 */

import type { AbortSignalLike, NeutralToolCall, RuntimeEvent, ToolError } from "../core/types.js";
import type { PendingCall } from "./approval.js";
import type { LoopToolBridge, ToolCallAnswer } from "./bridge.js";
import { withDeadline } from "./deadline.js";
import { type CallLedger, scopedLedger } from "./ledger.js";
import { pauseLoop, type ToolLoopState } from "./loop-state.js";

/**
 * What the loop hands the application's model function each turn.
 *
 * @typeParam Signal - the type of the signal given to `runToolLoop`: `request.signal` is that very
 *   signal, so an SDK client takes it as it is (`client.chat.completions.create(body, { signal })`).
 */
export interface ModelRequest<ToolDefs, Message, Signal extends AbortSignalLike = AbortSignalLike> {
  /** The tools available in the component's state now. */
  tools: ToolDefs;
  /** The conversation so far, in the dialect's message format. */
  messages: Message[];
  /**
   * The loop's own `signal`: pass it to your client so aborting the loop also aborts the request
   * in flight. `undefined` when the loop was given none.
   */
  signal?: Signal | undefined;
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
}

/**
 * Why the loop stopped:
 * - `done` — the model answered without calling a tool;
 * - `maxTurns` — `maxTurns` model requests were made and the model still called tools;
 * - `aborted` — the signal aborted (before a request, during one, or while calls were answered);
 * - `error` — the model function threw or rejected (not because of the abort); `error` holds
 *   what it threw, and the transcript holds everything before it;
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
> {
  /** A bridge made with a dialect that carries conversations (`appendTurn`). */
  tools: LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
  /**
   * The application's own model call, with its client, credentials and retries. Its response
   * type is kept: `result.response` and each `step.response` are what it returned. A throw or
   * rejection ends the loop with `stop: "error"` (or `"aborted"` when the signal aborted).
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
   * Records every call before and after it runs; a call it already holds is replayed, never run
   * again. A `memoryLedger()` travels in a paused loop's `state`. See docs/approval.md.
   *
   * @default undefined — calls are not recorded
   */
  ledger?: CallLedger;
}

/** The conversation, how it ended, and what the component last observed. */
export interface ToolLoopResult<S, E extends RuntimeEvent, Response, ResultBlock, Message> {
  stop: ToolLoopStop;
  /** The whole transcript: the starting messages, every model turn and every result. */
  messages: Message[];
  steps: ToolLoopStep<S, E, Response, ResultBlock>[];
  /** The snapshot of the last successful call, if any call succeeded. */
  snapshot: S | undefined;
  /** The model's last response, as the model function returned it, when there was one. */
  response: Response | undefined;
  /** What the model function threw, when `stop` is `"error"`. */
  error?: unknown;
  /** The calls waiting for a person's decision, when `stop` is `"approval"`. */
  pending?: PendingCall[];
  /** Plain JSON to store and give to `resumeToolLoop`, when `stop` is `"approval"`. */
  state?: ToolLoopState<Response, ResultBlock, Message>;
}

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
export async function runToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Returned extends Response = Response,
  // `never` when no signal is given: `request.signal` is then `undefined`, which every client takes.
  Signal extends AbortSignalLike = never,
>(
  options: ToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Returned, Signal>,
): Promise<ToolLoopResult<S, E, Returned, ResultBlock, Message>> {
  const { tools, model, maxTurns = 10, signal, onStep } = options;
  let messages = [...options.messages];
  const steps: ToolLoopStep<S, E, Returned, ResultBlock>[] = [];
  let snapshot: S | undefined;
  let response: Returned | undefined;
  const end = (stop: ToolLoopStop): ToolLoopResult<S, E, Returned, ResultBlock, Message> => ({
    stop,
    messages,
    steps,
    snapshot,
    response,
  });

  const first = firstTurns.get(options) ?? 1;
  for (let turn = first; turn < first + maxTurns; turn++) {
    if (signal?.aborted) return end("aborted");
    const request = { tools: tools.toToolDefs(), messages: [...messages], signal, turn };
    let reply: Returned;
    try {
      const asked = model(request);
      // Raced against the signal: a model call that ignores it does not hold the loop. When the
      // signal aborted during the call itself, a reply that has already arrived is still taken:
      // it is given until the next macrotask, and a reply that never comes is not waited for.
      const waited = signal?.aborted
        ? await withDeadline(asked, 0, undefined)
        : await withDeadline(asked, undefined, signal);
      if (!waited.done) return end("aborted");
      reply = waited.value;
    } catch (error) {
      if (signal?.aborted) return end("aborted");
      return { ...end("error"), error };
    }
    response = reply;
    // Every call is answered, even after an abort, so the transcript stays one a provider accepts.
    const ledger = options.ledger && scopedLedger(options.ledger, `turn-${turn}`);
    const answers = await tools.answerToolCalls(reply, ledger ? { signal, ledger } : { signal });
    if (answers.some((answer) => answer.pending)) {
      const left = first + maxTurns - 1 - turn;
      return { ...end("approval"), ...pauseLoop(messages, reply, turn, left, answers, options) };
    }
    const blocks = answers.map((answer) => answer.block);
    messages = tools.appendTurn(messages, reply, blocks);
    for (const { outcome } of answers) if (outcome.ok) snapshot = outcome.value.snapshot;
    const step = {
      turn,
      response: reply,
      calls: answers.map((answer) => answer.call),
      answers,
      errors: answers.flatMap((answer) => (answer.outcome.ok ? [] : [answer.outcome.error])),
    };
    steps.push(step);
    onStep?.(step);
    // An abort that came with the model's last answer is still an abort, not `done`.
    if (signal?.aborted) return end("aborted");
    if (answers.length === 0) return end("done");
  }
  return end("maxTurns");
}

// The turn a resumed loop goes on from, keyed by its options object (see resumeToolLoop).
const firstTurns = new WeakMap<object, number>();

/** Makes `runToolLoop(options)` number its first request `turn` (a resumed loop goes on). */
export function startAt<O extends object>(options: O, turn: number): O {
  firstTurns.set(options, turn);
  return options;
}
