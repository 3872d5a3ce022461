/**
 * For a host that can ask a person while a call waits (MCP elicitation, WebMCP's
 * `requestUserInteraction`): the call the approval policy held, settled by their answer at once,
 * instead of pausing a loop.
 */

import type { DialectToolBridge, InvokeOptions, ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import { denied } from "../core/errors.js";
import { err } from "../core/result.js";
import type { Answers, RuntimeEvent } from "../core/types.js";
import { answeredOf, withApprovals } from "./approval.js";

/**
 * What the person said: run it, their answers to the policy's questions (`pending.questions`), or
 * why not (read by the model).
 */
export type PersonsAnswer = "allow" | { readonly answers: Answers } | { readonly deny: string };

/**
 * `answer`, the held call `pending`, settled by the person: allowed (or answered), it runs now
 * through `bridge` — once, bound by its digest to the input they were shown, and checked again
 * against the state as it is now — unless the policy, reading their answers, asks more (the
 * answer is then `pending` again); denied, it is answered `Denied` with their reason, and
 * nothing runs.
 */
export async function answerAsked<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>(
  bridge: DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>,
  answer: ToolCallAnswer<S, E, ResultBlock>,
  pending: PendingCall,
  said: PersonsAnswer,
  options: InvokeOptions = {},
): Promise<ToolCallAnswer<S, E, ResultBlock>> {
  if (said === "allow" || "answers" in said) {
    // With answers, the policy reads them and may ask more: the answer is then `pending` again.
    const answered = answeredOf(pending, said === "allow" ? undefined : said.answers);
    const approved = withApprovals(options, [pending.digest], undefined, answered);
    return bridge.answerToolCall(answer.call, approved);
  }
  const refusal = err(denied(pending.command, said.deny, pending.toolName ?? pending.command));
  return {
    call: answer.call,
    route: undefined,
    outcome: refusal,
    block: bridge.toToolResult(answer.call, refusal),
  };
}
