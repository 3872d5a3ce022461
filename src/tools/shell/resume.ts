/**
 * `resumeToolLoop`: a loop paused for approval, settled with a person's decisions and continued.
 */
import { err, ok } from "../core/result.js";
import type { ToolTracer } from "../core/tracing.js";
import type { AbortSignalLike, RuntimeEvent } from "../core/types.js";
import type { ApprovalDecision } from "./approval.js";
import type { LoopToolBridge } from "./bridge.js";
import { resumeToolCalls } from "./decisions.js";
import { type CallLedger, memoryLedger, scopedLedger } from "./ledger.js";
import {
  lastSnapshot,
  type ModelRequest,
  type PlatformAbortSignal,
  runToolLoop,
  startAt,
  stepOf,
  type ToolLoopResult,
  type ToolLoopStep,
} from "./loop.js";
import type { ToolLoopState } from "./loop-state.js";
import { type SpanTracer, toolTracer } from "./spans.js";

/** Options of `resumeToolLoop`. */
export interface ResumeToolLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Signal extends AbortSignalLike = AbortSignalLike,
> {
  /** A bridge over the same component and dialect as the loop that paused (any process). */
  tools: LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
  /** The model call, as for `runToolLoop`. */
  model: (request: ModelRequest<ToolDefs, Message, Signal>) => Promise<Response>;
  /** What the paused loop returned as `state` (parsed back from wherever it was stored). */
  state: ToolLoopState<Response, ResultBlock, Message>;
  /** One decision per pending call: `approveCall(pending)` or `denyCall(pending, reason)`. */
  decisions: readonly ApprovalDecision[];
  /**
   * Where calls are recorded; give the same durable ledger to every process that may resume
   * this state.
   *
   * @default a `memoryLedger` holding the state's entries
   */
  ledger?: CallLedger;
  signal?: Signal;
  onStep?: (step: ToolLoopStep<S, E, Response, ResultBlock>) => void;
  /** The clock decisions' `expiresAt` is compared with. @default Date.now */
  now?: () => number;
  /** As for `runToolLoop`: the resumed run, its turns, requests and calls, as one run. */
  tracer?: ToolTracer | SpanTracer;
  /** As for `runToolLoop`: the model's name on the spans. */
  modelName?: string;
  /** As for `runToolLoop`: the agent's name on the spans. */
  agentName?: string;
}

/**
 * Settles a loop paused for approval and continues it: every decision is checked (an
 * `ApprovalError` rejects before anything runs), each approved call executes exactly once, each
 * denied one is answered `Denied`, the whole turn's answers go to the model in order, and the
 * loop goes on as `runToolLoop` would — to `done`, or to another `approval`.
 *
 * @example
 * ```ts
 * const paused = JSON.parse(await store.get(conversationId));
 * const result = await resumeToolLoop({
 *   tools,
 *   model,
 *   state: paused.state,
 *   decisions: paused.pending.map((call) => approveCall(call)),
 * });
 * ```
 */
export async function resumeToolLoop<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Signal extends AbortSignalLike = PlatformAbortSignal,
>(
  options: ResumeToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Signal>,
): Promise<ToolLoopResult<S, E, Response, ResultBlock, Message>> {
  const { tools, model, state, signal, onStep, modelName, agentName } = options;
  const tracer = options.tracer && toolTracer(options.tracer);
  const ledger = options.ledger ?? memoryLedger(state.ledger);
  // One run span for the settled turn and the turns after it, as runToolLoop makes for its own.
  const run = tracer?.start({ kind: "run", agent: agentName });
  const turn = tracer?.start({ kind: "turn", turn: state.turn }, run);
  let messages: Message[];
  let step: ToolLoopStep<S, E, Response, ResultBlock>;
  try {
    const answers = await resumeToolCalls(tools, state.paused, options.decisions, {
      ledger: scopedLedger(ledger, `turn-${state.turn}`),
      ...(signal === undefined ? {} : { signal }),
      ...(turn === undefined ? {} : { parent: turn }),
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    const blocks = answers.map((answer) => answer.block);
    messages = tools.appendTurn(state.messages, state.response, blocks);
    step = stepOf(state.turn, state.response, answers);
    onStep?.(step);
  } catch (error) {
    // Refused decisions (ApprovalError), or the application's bug in onStep: the spans end with
    // it, as runToolLoop's do, before it reaches the caller.
    turn?.end(err(error));
    run?.end(err(error));
    throw error;
  }
  turn?.end(ok(undefined));
  const snapshot = lastSnapshot(step.answers, undefined);
  const settled = { messages, steps: [step], snapshot, response: state.response };
  if (signal?.aborted || state.turnsLeft <= 0) {
    const stop = signal?.aborted ? "aborted" : "maxTurns";
    run?.end(ok(stop));
    return { stop, ...settled };
  }
  const rest = await runToolLoop(
    startAt(
      {
        tools,
        model,
        messages,
        maxTurns: state.turnsLeft,
        ledger,
        ...(signal === undefined ? {} : { signal }),
        ...(onStep === undefined ? {} : { onStep }),
        ...(tracer === undefined ? {} : { tracer }),
        ...(modelName === undefined ? {} : { modelName }),
        ...(agentName === undefined ? {} : { agentName }),
      },
      state.turn + 1,
      run,
    ),
  );
  return {
    ...rest,
    steps: [step, ...rest.steps],
    snapshot: rest.snapshot ?? snapshot,
    response: rest.response ?? state.response,
  };
}
