/**
 * What a loop paused for approval hands the application: plain JSON holding everything
 * `resumeToolLoop` needs, in this process or in another one days later.
 */

import { ApprovalError } from "../approval/decisions.js";
import { type PausedTurn, pauseToolCalls } from "../approval/pause.js";
import type { ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import { isRecord } from "../core/json.js";
import type { RuntimeEvent } from "../core/types.js";
import { toJsonValue } from "../wire/result-text.js";
import type { UntoldChanges } from "./tell-changes.js";

/**
 * A loop paused for approval, as plain JSON: store it anywhere (`JSON.stringify`), and give it
 * to `resumeToolLoop` with the decisions.
 */
export interface ToolLoopState<Response, ResultBlock, Message> {
  readonly version: 1;
  /**
   * The run's id: its keys in the ledger are scoped to it (the paused turn's are
   * `<runId>/turn-<turn>/…`), so two conversations never meet in one shared ledger.
   */
  readonly runId: string;
  /** The transcript before the paused turn. */
  readonly messages: Message[];
  /** The model's turn whose calls wait, exactly as it was received. */
  readonly response: Response;
  /** The number of the paused turn. */
  readonly turn: number;
  /** How many more model requests the loop may make after the paused turn. */
  readonly turnsLeft: number;
  /** The turn's answers already given, and the calls that wait; scoped `<runId>/turn-<turn>`. */
  readonly paused: PausedTurn<ResultBlock>;
  /**
   * With `tellChanges`: what the run heard outside the model's calls and had not told when it
   * paused — an outside event while the model thought, say — told at the resumed loop's first
   * request, before what the resume itself heard (given `tellChanges` too), so that each is told
   * once. Absent when nothing was left untold. Added beside `version: 1`, which it leaves as it
   * was: a state paused without it (by an earlier version) resumes as one with nothing untold,
   * and an earlier version resuming a state with it leaves it untold, as it always did.
   */
  readonly untold?: UntoldChanges;
}

/** The `pending` calls and `state` of a loop stopped at `turn` for approval. */
export function pauseLoop<S, E extends RuntimeEvent, Response, ResultBlock, Message>(
  messages: readonly Message[],
  response: Response,
  turn: number,
  turnsLeft: number,
  answers: readonly ToolCallAnswer<S, E, ResultBlock>[],
  runId: string,
  { untold, scope }: { untold?: UntoldChanges | undefined; scope?: string } = {},
): { pending: PendingCall[]; state: ToolLoopState<Response, ResultBlock, Message> } {
  const paused = pauseToolCalls(answers, { scope: scope ?? `${runId}/turn-${turn}` });
  return {
    pending: [...paused.pending],
    state: {
      version: 1,
      runId,
      // JSON forms of what the dialect made from JSON: their types still hold.
      messages: toJsonValue(messages) as Message[],
      response: toJsonValue(response) as Response,
      turn,
      turnsLeft,
      paused,
      ...(untold === undefined ? {} : { untold }),
    },
  };
}

/**
 * What a paused `state` carries untold, checked as it was read back from a store: `undefined`
 * without any (a state paused by an earlier version has none), an `ApprovalError` (`tampered`)
 * for anything a pause does not store.
 */
export function untoldOf(
  state: ToolLoopState<unknown, unknown, unknown>,
): UntoldChanges | undefined {
  const { untold }: { untold?: unknown } = state;
  if (untold === undefined) return undefined;
  if (
    isRecord(untold) &&
    Array.isArray(untold.events) &&
    isNames(untold.available) &&
    isNames(untold.unavailable)
  ) {
    return { events: untold.events, available: untold.available, unavailable: untold.unavailable };
  }
  throw new ApprovalError(
    "tampered",
    "The paused state's untold changes are not what a pause stores: the stored state was changed after the pause.",
  );
}

function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}
