/**
 * The OpenAI stream accumulators (`ignite-element/tools/openai-stream`): `openaiStream()` turns the
 * chunks of a streamed Chat Completion into the `ChatCompletion` the API returns for the same turn
 * without streaming, for the `openai` dialect; `openaiResponsesStream()` does the same for the
 * Responses API and `openaiResponses`.
 */

import { isRecord } from "../../core/json.js";
import { shapeError } from "../../wire/describe-value.js";
import {
  type CallLog,
  callLog,
  idOf,
  type JsonProgress,
  jsonProgress,
  positionOf,
  type StreamAccumulator,
  type StreamDelta,
  scanJson,
  slotOf,
  type TrackedCall,
  textDelta,
  upToCut,
} from "../../wire/stream.js";
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatResponse,
  OpenAIChatToolCall,
} from "./dialect.js";

export type { StreamAccumulator, StreamDelta } from "../../wire/stream.js";
export {
  type OpenAIResponsesStreamAccumulator,
  type OpenAIResponsesStreamEvent,
  type OpenAIResponsesStreamedResponse,
  openaiResponsesStream,
} from "./responses-stream.js";

/**
 * A chunk of a streamed Chat Completion (the SDK's `ChatCompletionChunk` is assignable to it). A
 * tool call's id, type and name come in its first chunk only; every later chunk of it carries its
 * `index` and a piece of its `arguments`.
 */
export interface OpenAIChatChunk {
  readonly id?: string;
  readonly object?: string;
  readonly created?: number;
  readonly model?: string;
  readonly choices: readonly OpenAIChatChunkChoice[];
  readonly usage?: object | null;
}

/** One choice of a chunk. */
export interface OpenAIChatChunkChoice {
  readonly index: number;
  readonly delta?: {
    readonly role?: string;
    readonly content?: string | null;
    readonly refusal?: string | null;
    readonly tool_calls?: readonly {
      readonly index: number;
      readonly id?: string;
      readonly type?: string;
      readonly function?: { readonly name?: string; readonly arguments?: string };
    }[];
  };
  readonly finish_reason?: string | null;
  readonly logprobs?: {
    readonly content?: readonly unknown[] | null;
    readonly refusal?: readonly unknown[] | null;
  } | null;
}

/** A Chat Completion as streaming builds it: what `client.chat.completions.create()` resolves. */
export interface OpenAIChatStreamedResponse extends OpenAIChatResponse {
  readonly id?: string;
  readonly object: "chat.completion";
  readonly created?: number;
  readonly model?: string;
  readonly choices: readonly {
    readonly index: number;
    readonly message: OpenAIChatAssistantMessage;
    /** `"length"` also when the stream broke off before the model finished. */
    readonly finish_reason: string;
    readonly logprobs: unknown;
  }[];
  readonly usage?: object | null;
}

/** The accumulator `openaiStream()` returns. */
export type OpenAIChatStreamAccumulator = StreamAccumulator<
  OpenAIChatChunk,
  OpenAIChatStreamedResponse
>;

interface ToolCallState {
  fields: Record<string, unknown>;
  name: string;
  arguments: string;
  progress: JsonProgress;
  call: TrackedCall;
}

interface ChoiceState {
  fields: Record<string, unknown>;
  /** The choice's calls: each choice is a turn of its own, cut at its own first unfinished call. */
  calls: CallLog;
  finish?: string;
  logprobs: Record<string, unknown> | null;
  role?: string;
  content?: string;
  refusal?: string;
  toolCalls?: ToolCallState[];
}

const SHAPE = "a Chat Completions stream chunk (an object with a `choices` array)";

/**
 * A new accumulator for one streamed Chat Completions turn. Push it every chunk in order;
 * `response()` is then the `ChatCompletion` the API returns for the turn without streaming, as
 * `openai`'s `parseToolCalls` and `appendTurn` take it. Calls are merged by `index`, whatever the
 * order of their chunks; a call is ready once its arguments are a whole JSON object, or when the
 * model finishes (for any reason but `"length"`). A stream that broke off before its
 * `finish_reason` reads as `finish_reason: "length"`, the cut-off the dialect knows: a call cut
 * there is answered `InvalidInput`, never run. A cut turn's calls end at its first unfinished
 * call: calls streamed interleaved after it are left out, so none of them runs.
 *
 * @example
 * ```ts
 * const turn = openaiStream();
 * for await (const chunk of await client.chat.completions.create({ ...request, stream: true })) {
 *   turn.push(chunk);
 * }
 * const messages = bridge.appendTurn(history, turn.response(), await bridge.handleToolCalls(turn.response()));
 * ```
 */
export function openaiStream(): OpenAIChatStreamAccumulator {
  let top: Record<string, unknown> | undefined;
  // Keyed by the choice's own `index`, which each choice carries: with `n > 1` their chunks may
  // arrive in any order, so a map, listed by index.
  const choices = new Map<number, ChoiceState>();

  const push = (chunk: OpenAIChatChunk): StreamDelta[] => {
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) {
      throw shapeError("openaiStream.push", SHAPE, chunk);
    }
    const out: StreamDelta[] = [];
    const { choices: chunkChoices, ...rest } = chunk;
    // As the SDK does: a chunk with an id (all of OpenAI's) updates the completion's own fields,
    // so the usage of the last chunk is kept.
    if (!top) top = { ...rest };
    else if (chunk.id) Object.assign(top, rest);
    for (const choice of chunkChoices) {
      if (isRecord(choice) && positionOf(choice.index) >= 0) applyChoice(choice, out);
    }
    return out;
  };

  function applyChoice(choice: Record<string, unknown>, out: StreamDelta[]) {
    const { delta, finish_reason: finish, index, logprobs, ...other } = choice;
    const position = Number(index);
    const state = choices.get(position) ?? { fields: {}, calls: callLog(), logprobs: null };
    choices.set(position, state);
    Object.assign(state.fields, other);
    if (isRecord(logprobs)) state.logprobs = mergeLogprobs(state.logprobs, logprobs);
    // Only the first choice is what the dialect reads; its progress is the turn's.
    const progress = position === 0 ? out : [];
    if (isRecord(delta)) applyDelta(state, delta, progress);
    if (typeof finish === "string" && finish !== "") {
      state.finish = finish;
      // Every argument text is final now, unless the limit cut the last one.
      if (finish !== "length") state.calls.completeAll(progress);
    }
  }

  function applyDelta(state: ChoiceState, delta: Record<string, unknown>, out: StreamDelta[]) {
    if (typeof delta.role === "string") state.role = delta.role;
    if (typeof delta.content === "string") {
      state.content = (state.content ?? "") + delta.content;
      textDelta(out, "text", delta.content);
    }
    if (typeof delta.refusal === "string") state.refusal = (state.refusal ?? "") + delta.refusal;
    if (!Array.isArray(delta.tool_calls)) return;
    const list = state.toolCalls ?? [];
    state.toolCalls = list;
    for (const piece of delta.tool_calls) {
      if (isRecord(piece) && slotOf(list, piece.index) >= 0) {
        applyToolCall(state.calls, list, piece, out);
      }
    }
  }

  /** Merges a piece of a tool call into the call with its `index`. */
  function applyToolCall(
    calls: CallLog,
    list: ToolCallState[],
    piece: Record<string, unknown>,
    out: StreamDelta[],
  ) {
    const { index, function: fn, ...fields } = piece;
    const position = Number(index);
    const name = isRecord(fn) && typeof fn.name === "string" ? fn.name : "";
    let state = list[position];
    if (!state) {
      const call = calls.start(position, idOf(fields.id).id, name, out);
      state = { fields: {}, name, arguments: "", progress: jsonProgress(), call };
      list[position] = state;
    }
    // Id, type and name come once, in the first piece; a later empty one never erases them.
    for (const [key, value] of Object.entries(fields)) if (value) state.fields[key] = value;
    if (name) state.name = name;
    state.call.id = idOf(state.fields.id).id;
    state.call.name = state.name;
    const text = isRecord(fn) && typeof fn.arguments === "string" ? fn.arguments : "";
    if (text === "") return;
    state.arguments += text;
    scanJson(state.progress, text);
    out.push({ type: "tool-call-delta", index: state.call.index, arguments: text });
    if (state.progress.state === "closed") calls.complete(state.call, out);
  }

  return {
    push,
    response() {
      const { system_fingerprint: fingerprint, ...fields } = top ?? {};
      return {
        ...fields,
        object: "chat.completion",
        choices: [...choices]
          .sort(([a], [b]) => a - b)
          .map(([index, state]) => ({
            ...state.fields,
            index,
            finish_reason: state.finish ?? "length",
            logprobs: state.logprobs,
            message: messageOf(state),
          })),
        ...(fingerprint ? { system_fingerprint: fingerprint } : {}),
      };
    },
    get ready() {
      return choices.get(0)?.calls.ready ?? 0;
    },
    get finished() {
      return choices.get(0)?.finish !== undefined;
    },
  };
}

function messageOf(state: ChoiceState): OpenAIChatAssistantMessage {
  const message: OpenAIChatAssistantMessage = {
    role: "assistant",
    content: state.content ?? null,
    refusal: state.refusal ?? null,
  };
  // Cut (by the limit, a broken stream, or read mid-stream) at the first unfinished call: the
  // dialect reads the last call of a cut-off turn as cut, and a call streamed interleaved after
  // it would otherwise be read as whole and run after a call that never ran.
  if (state.toolCalls)
    message.tool_calls = upToCut(state.toolCalls, state.calls).flatMap(toolCallOf);
  return message;
}

function toolCallOf(state: ToolCallState): OpenAIChatToolCall[] {
  const { id, type, ...fields } = state.fields;
  return [
    {
      ...fields,
      id: typeof id === "string" ? id : "",
      type: "function",
      function: { name: state.name, arguments: state.arguments },
    },
  ];
}

/** Token log probabilities arrive a piece per chunk: the pieces are appended, as the SDK does. */
function mergeLogprobs(
  known: Record<string, unknown> | null,
  next: Record<string, unknown>,
): Record<string, unknown> {
  if (!known) return { ...next };
  const merged = { ...known };
  for (const key of ["content", "refusal"]) {
    const piece = next[key];
    if (!Array.isArray(piece)) continue;
    const before = merged[key];
    merged[key] = [...(Array.isArray(before) ? before : []), ...piece];
  }
  return merged;
}
