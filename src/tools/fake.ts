/**
 * The fake dialect: the neutral types as plain JSON, for testing an agent loop with zero LLM calls.
 */
import type { ModelRequest } from "./loop.js";
import type { Result } from "./result.js";
import type {
  LoopDialect,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
  ToolError,
} from "./types.js";

/** The fake dialect's tool definitions: the manifest, copied as plain JSON. */
export type FakeToolDefs = NeutralTool[];

/** A scripted model response: the calls it makes, and any text beside them. */
export interface FakeResponse {
  text?: string;
  toolCalls: NeutralToolCall[];
}

/** A message of a fake conversation. */
export type FakeMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; response: FakeResponse }
  | { role: "tool"; result: FakeResultBlock };

/** One call's outcome, as data a test can assert on. */
export type FakeResultBlock =
  | { id?: string; name: string; ok: true; snapshot: unknown; events: RuntimeEvent[] }
  | { id?: string; name: string; ok: false; error: ToolError };

/**
 * A dialect for tests: `toToolDefs` returns the manifest as plain JSON, a response is
 * `{ toolCalls }`, each result block is the call's outcome as data, and a conversation is a list
 * of `FakeMessage`s.
 */
export const fakeDialect: LoopDialect<FakeToolDefs, FakeResponse, FakeResultBlock, FakeMessage> = {
  toToolDefs(manifest: NeutralManifest): FakeToolDefs {
    return JSON.parse(JSON.stringify(manifest));
  },
  parseToolCalls(response: FakeResponse): NeutralToolCall[] {
    if (typeof response !== "object" || response === null || !Array.isArray(response.toolCalls)) {
      throw new TypeError("fakeDialect.parseToolCalls expects { toolCalls: NeutralToolCall[] }");
    }
    return response.toolCalls.map((call) => ({ ...call }));
  },
  toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): FakeResultBlock {
    const id = call.id === undefined ? {} : { id: call.id };
    return result.ok
      ? { ...id, name: call.name, ok: true, ...result.value }
      : { ...id, name: call.name, ok: false, error: result.error };
  },
  appendTurn(messages, response, results): FakeMessage[] {
    const answers = results.map((result): FakeMessage => ({ role: "tool", result }));
    return [...messages, { role: "assistant", response }, ...answers];
  },
};

/** One scripted turn: the calls to make, or a function of the request that returns a response. */
export type ScriptedTurn =
  | NeutralToolCall[]
  | ((request: ModelRequest<FakeToolDefs, FakeMessage>) => FakeResponse);

/**
 * A model for `runToolLoop` with `fakeDialect` that plays `turns` in order, then answers
 * `finalText` without calls; `requests` records what it was sent each turn (the tools offered,
 * the conversation so far), and `offered()` the names of the tools offered each turn.
 */
export function scriptedModel(turns: readonly ScriptedTurn[], finalText = "Done.") {
  const requests: ModelRequest<FakeToolDefs, FakeMessage>[] = [];
  const model = async (request: ModelRequest<FakeToolDefs, FakeMessage>): Promise<FakeResponse> => {
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
