/**
 * The fake dialect: the neutral types as plain JSON, for testing an agent loop with zero LLM calls.
 */
import type { Result } from "../core/result.js";
import type {
  LoopDialect,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";

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
  appendNote: (messages, note): FakeMessage[] => [...messages, { role: "user", content: note }],
};
