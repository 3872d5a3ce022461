/**
 * `resumeToolLoop`: a loop paused for approval, settled with a person's decisions and continued.
 */
import type { AbortSignalLike, RuntimeEvent } from "../core/types.js";
import type { ApprovalDecision } from "./approval.js";
import type { LoopToolBridge } from "./bridge.js";
import { resumeToolCalls } from "./decisions.js";
import { type CallLedger, memoryLedger, scopedLedger } from "./ledger.js";
import {
  type ModelRequest,
  runToolLoop,
  startAt,
  type ToolLoopResult,
  type ToolLoopStep,
} from "./loop.js";
import type { ToolLoopState } from "./loop-state.js";

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
  Signal extends AbortSignalLike = never,
>(
  options: ResumeToolLoopOptions<S, E, ToolDefs, Response, ResultBlock, Message, Signal>,
): Promise<ToolLoopResult<S, E, Response, ResultBlock, Message>> {
  const { tools, model, state, signal, onStep } = options;
  const ledger = options.ledger ?? memoryLedger(state.ledger);
  const answers = await resumeToolCalls(tools, state.paused, options.decisions, {
    ledger: scopedLedger(ledger, `turn-${state.turn}`),
    ...(signal === undefined ? {} : { signal }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const messages = tools.appendTurn(
    state.messages,
    state.response,
    answers.map((answer) => answer.block),
  );
  const step: ToolLoopStep<S, E, Response, ResultBlock> = {
    turn: state.turn,
    response: state.response,
    calls: answers.map((answer) => answer.call),
    answers,
    errors: answers.flatMap((answer) => (answer.outcome.ok ? [] : [answer.outcome.error])),
  };
  onStep?.(step);
  let snapshot: S | undefined;
  for (const { outcome } of answers) if (outcome.ok) snapshot = outcome.value.snapshot;
  const settled = { messages, steps: [step], snapshot, response: state.response };
  if (signal?.aborted) return { stop: "aborted", ...settled };
  if (state.turnsLeft <= 0) return { stop: "maxTurns", ...settled };
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
      },
      state.turn + 1,
    ),
  );
  return {
    ...rest,
    steps: [step, ...rest.steps],
    snapshot: rest.snapshot ?? snapshot,
    response: rest.response ?? state.response,
  };
}
