/**
 * `resumeToolLoop`: a loop paused for approval, settled with a person's decisions and continued.
 */

import { type ApprovalDecision, checkDecisions } from "../approval/decisions.js";
import { type Claim, claimTurn, settleTurn } from "../approval/pause.js";
import { checkTracer } from "../bridge/checks.js";
import { type CallListeners, listenersOf } from "../bridge/context.js";
import { newId } from "../bridge/ids.js";
import type { LoopToolBridge } from "../bridge/types.js";
import type { CallLedger } from "../core/ledger.js";
import { err, ok } from "../core/result.js";
import type { ToolTracer } from "../core/tracing.js";
import type { AbortSignalLike, RuntimeEvent } from "../core/types.js";
import { checkResumeOptions } from "./checks.js";
import { lastSnapshot, notesOf, runToolLoop, startAt, stepOf } from "./loop.js";
import { pauseLoop, type ToolLoopState } from "./loop-state.js";
import type { ChangeNotes } from "./tell-changes.js";
import type { ModelRequest, PlatformAbortSignal, ToolLoopResult, ToolLoopStep } from "./types.js";

/** Options of `resumeToolLoop`. */
export interface ResumeToolLoopOptions<
  S,
  E extends RuntimeEvent,
  ToolDefs,
  Response,
  ResultBlock,
  Message,
  Signal extends AbortSignalLike = PlatformAbortSignal,
> extends CallListeners {
  /** A bridge over the same component and dialect as the loop that paused (any process). */
  tools: LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
  /** The model call, as for `runToolLoop`. */
  model: (request: ModelRequest<ToolDefs, Message, Signal>) => Promise<Response>;
  /** What the paused loop returned as `state` (parsed back from wherever it was stored). */
  state: ToolLoopState<Response, ResultBlock, Message>;
  /** One decision per pending call: `approveCall(pending)` or `denyCall(pending, reason)`. */
  decisions: readonly ApprovalDecision[];
  /**
   * Where the resume is claimed (a state is resumed once) and every call recorded; give the same
   * durable ledger to every process that may resume this state.
   *
   * @default the process's own in-memory ledger, for the claim only — the same state resumed
   *   again in this process is refused (`already-resumed`); it keeps the last 10 000 claims
   */
  ledger?: CallLedger;
  /**
   * How long the resume's claim, and each call's `started` entry, hold before they count as left
   * by a process that died, in milliseconds; renewed every third of it while the resume runs.
   *
   * @default 30_000
   */
  leaseMs?: number;
  /**
   * What this resume does when another resume of the same state is still running (its claim's
   * lease live, in this process or another): `"refuse"` rejects at once with an `ApprovalError`
   * `resuming-elsewhere` and `retryAt`, the end of the other's lease unless it is renewed;
   * `"wait"` waits for the other — looking at the ledger at most every 250 ms, for as long as it
   * runs; `signal` aborts the wait (`resuming-elsewhere` then) — and rejects `already-resumed`
   * as soon as it finished, or goes on as the recovery once it died (its lease ran out).
   *
   * @default "refuse"
   */
  whenElsewhere?: "refuse" | "wait";
  signal?: Signal;
  onStep?: (step: ToolLoopStep<S, E, Response, ResultBlock>) => void;
  /** The clock decisions' `expiresAt` and the leases are read with. @default Date.now */
  now?: () => number;
  /** As for `runToolLoop`: the resumed run, its turns, requests and calls, as one run. */
  tracer?: ToolTracer;
  /** As for `runToolLoop`: the model's name on the spans. */
  modelName?: string;
  /** As for `runToolLoop`: the agent's name on the spans. */
  agentName?: string;
  /**
   * As for `runToolLoop` (`changeNotes()`), observed from the resume's start: what changes outside
   * the model's calls from then on (while the paused turn's calls are settled, and after) is told
   * at the next request — after what the paused run heard and had not told (`state.untold`), so
   * each is told once. What happened while the loop was paused, before the resume started, is not
   * told — nobody observed it, perhaps in another process — but the settled calls' answers carry
   * the state then.
   *
   * @default undefined — nothing is told
   */
  tellChanges?: ChangeNotes;
}

/**
 * Settles a loop paused for approval and continues it: every decision is checked (an
 * `ApprovalError` rejects before anything runs), the resume is claimed in the ledger — a state
 * already resumed is refused (`already-resumed`), one being resumed elsewhere too
 * (`resuming-elsewhere`, or waited for with `whenElsewhere: "wait"`), one whose resume died is
 * recovered — each approved call executes
 * exactly once, each denied one is answered `Denied`, the whole turn's answers go to the model in
 * order, and the loop goes on as `runToolLoop` would — to `done`, or to another `approval`.
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
  checkResumeOptions(options);
  const { tools, model, state, signal, onStep, modelName, agentName } = options;
  const tracer = options.tracer && checkTracer(options.tracer, "resumeToolLoop");
  const { ledger, leaseMs } = options;
  // Observing from here: the settled turn's own calls are the model's, anything else is told.
  // What the paused run heard and did not tell is told first.
  const teller = notesOf(tools, options.tellChanges, "resumeToolLoop", state);
  const settling = {
    ...(ledger === undefined ? {} : { ledger }),
    ...(signal === undefined ? {} : { signal }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    ...(options.whenElsewhere === undefined ? {} : { whenElsewhere: options.whenElsewhere }),
  };
  // One run span for the settled turn and the turns after it, as runToolLoop makes for its own.
  const run = tracer?.start({ kind: "run", agent: agentName });
  const turn = tracer?.start({ kind: "turn", turn: state.turn }, run);
  let claim: Claim | undefined;
  // The spans still this function's to end, should something throw.
  let open = { turn, run };
  try {
    const chosen = await checkDecisions(
      state.paused.answers,
      options.decisions,
      options.now ?? Date.now,
    );
    claim = await claimTurn(state.paused.scope, settling);
    const answers = await settleTurn(tools, state.paused, chosen, {
      ...settling,
      ...(turn === undefined ? {} : { parent: turn }),
      ...listenersOf(options),
    });
    if (answers.some((answer) => answer.pending)) {
      // The policy read the person's answers and asks more: the turn pauses again, as a round
      // of its own (a scope of its own: this state is spent).
      const round = `${state.paused.scope}/round-${newId()}`;
      const { messages, response, turnsLeft, runId } = state;
      const paused = pauseLoop(messages, response, state.turn, turnsLeft, answers, runId, {
        scope: round,
        untold: teller?.pause(answers),
      });
      turn?.end(ok(undefined));
      run?.end(ok("approval"));
      open = { turn: undefined, run: undefined };
      await claim.finish("approval");
      return {
        stop: "approval",
        messages: [...messages],
        steps: [],
        snapshot: undefined,
        response,
        ...paused,
      };
    }
    const blocks = answers.map((answer) => answer.block);
    const messages = tools.appendTurn(state.messages, state.response, blocks);
    const step = stepOf(state.turn, state.response, answers);
    onStep?.(step);
    turn?.end(ok(undefined));
    open = { turn: undefined, run };
    const snapshot = lastSnapshot(step.answers, undefined);
    const settled = { messages, steps: [step], snapshot, response: state.response };
    if (signal?.aborted || state.turnsLeft <= 0) {
      const stop = signal?.aborted ? "aborted" : "maxTurns";
      run?.end(ok(stop));
      await claim.finish(stop);
      return { stop, ...settled };
    }
    // From here the run span is runToolLoop's: it ends it, however it ends.
    open = { turn: undefined, run: undefined };
    const rest = await runToolLoop(
      startAt(
        {
          tools,
          model,
          messages,
          maxTurns: state.turnsLeft,
          ...(ledger === undefined ? {} : { ledger }),
          ...(leaseMs === undefined ? {} : { leaseMs }),
          ...(signal === undefined ? {} : { signal }),
          ...(onStep === undefined ? {} : { onStep }),
          ...(tracer === undefined ? {} : { tracer }),
          ...(modelName === undefined ? {} : { modelName }),
          ...(agentName === undefined ? {} : { agentName }),
          ...listenersOf(options),
        },
        { turn: state.turn + 1, run, runId: state.runId, teller, answered: step.answers },
      ),
    );
    await claim.finish(rest.stop);
    return {
      ...rest,
      steps: [step, ...rest.steps],
      snapshot: rest.snapshot ?? snapshot,
      response: rest.response ?? state.response,
    };
  } catch (error) {
    // Refused decisions or claim (ApprovalError), or the application's bug in onStep: the spans
    // end with it, as runToolLoop's do, before it reaches the caller. A claim taken is dropped:
    // it runs out after its lease, and the state can then be resumed again (its calls replayed).
    claim?.drop();
    open.turn?.end(err(error));
    open.run?.end(err(error));
    throw error;
  } finally {
    teller?.stop();
  }
}
