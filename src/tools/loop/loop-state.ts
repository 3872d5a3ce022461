/**
 * What a loop paused for approval hands the application: plain JSON holding everything
 * `resumeToolLoop` needs, in this process or in another one days later.
 */

import { type PausedTurn, pauseToolCalls } from "../approval/pause.js";
import type { ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import type { RuntimeEvent } from "../core/types.js";
import { toJsonValue } from "../wire/result-text.js";

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
}

/** The `pending` calls and `state` of a loop stopped at `turn` for approval. */
export function pauseLoop<S, E extends RuntimeEvent, Response, ResultBlock, Message>(
  messages: readonly Message[],
  response: Response,
  turn: number,
  turnsLeft: number,
  answers: readonly ToolCallAnswer<S, E, ResultBlock>[],
  runId: string,
): { pending: PendingCall[]; state: ToolLoopState<Response, ResultBlock, Message> } {
  const paused = pauseToolCalls(answers, { scope: `${runId}/turn-${turn}` });
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
    },
  };
}
