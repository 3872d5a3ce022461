/**
 * A scripted model for `runToolLoop` with `fakeDialect`: an agent loop tested with zero LLM calls.
 */

import type { AbortSignalLike, NeutralToolCall } from "../core/types.js";
import type { ModelRequest } from "../loop/types.js";
import type { FakeMessage, FakeResponse, FakeResultBlock, FakeToolDefs } from "./fake-dialect.js";

/**
 * What a scripted model is sent: typed for any signal (it never reads one), so it runs beside a
 * loop given a signal of its own making as well as the platform's `AbortSignal`.
 */
type ScriptedRequest = ModelRequest<FakeToolDefs, FakeMessage, AbortSignalLike>;

/** One scripted turn: the calls to make, or a function of the request that returns a response. */
export type ScriptedTurn = NeutralToolCall[] | ((request: ScriptedRequest) => FakeResponse);

/**
 * A model for `runToolLoop` with `fakeDialect` that plays `turns` in order, then answers
 * `finalText` without calls; `requests` records what it was sent each turn (the tools offered,
 * the conversation so far), and `offered()` the names of the tools offered each turn.
 */
export function scriptedModel(turns: readonly ScriptedTurn[], finalText = "Done.") {
  const requests: ScriptedRequest[] = [];
  const model = async (request: ScriptedRequest): Promise<FakeResponse> => {
    requests.push(request);
    const turn = turns[requests.length - 1];
    if (turn === undefined) return { text: finalText, toolCalls: [] };
    return typeof turn === "function" ? turn(request) : { toolCalls: turn };
  };
  const offered = () => requests.map((request) => request.tools.map((tool) => tool.name));
  return { model, requests, offered };
}

/** The result blocks at the end of a fake conversation: what the model was just sent back. */
export function lastResults(messages: readonly FakeMessage[]): FakeResultBlock[] {
  const results: FakeResultBlock[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "tool") break;
    results.unshift(message.result);
  }
  return results;
}
