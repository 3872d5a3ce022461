/**
 * The Gemini stream accumulator (`ignite-element/tools/gemini-stream`): the chunks of
 * `streamGenerateContent` in, one `generateContent` response out, for the `gemini` dialect.
 */

import { isRecord } from "../../core/json.js";
import { describeValue } from "../../wire/describe-value.js";
import {
  callLog,
  idOf,
  type StreamAccumulator,
  type StreamDelta,
  textDelta,
} from "../../wire/stream.js";
import type { GeminiCandidate, GeminiPart, GeminiResponse } from "./dialect.js";

export type { StreamAccumulator, StreamDelta } from "../../wire/stream.js";

/** The accumulator `geminiStream()` returns. */
export type GeminiStreamAccumulator = StreamAccumulator<GeminiResponse, GeminiResponse>;

interface CandidateState {
  fields: Record<string, unknown>;
  content: Record<string, unknown>;
  parts: Record<string, unknown>[];
}

/**
 * A new accumulator for one streamed Gemini turn. Push it every chunk `generateContentStream`
 * yields (a `GenerateContentResponse`, or the parsed JSON of one SSE event) in order; `response()`
 * is then one response holding every part, as `gemini`'s `parseToolCalls` and `appendTurn` take it.
 * Each chunk carries whole `functionCall` parts, so a call is ready as soon as it arrives. Parts
 * are kept as they came, thought signatures where they came; only consecutive plain text parts of
 * the same kind (answer or thought) are joined, as one part of a non-streamed response.
 *
 * @example
 * ```ts
 * const turn = geminiStream();
 * for await (const chunk of await ai.models.generateContentStream(request)) turn.push(chunk);
 * const results = await bridge.handleToolCalls(turn.response());
 * ```
 */
export function geminiStream(): GeminiStreamAccumulator {
  let top: Record<string, unknown> = {};
  const candidates: CandidateState[] = [];
  const calls = callLog();
  let finished = false;

  const push = (chunk: GeminiResponse): StreamDelta[] => {
    if (!isRecord(chunk) || (chunk.candidates !== undefined && !Array.isArray(chunk.candidates))) {
      throw new TypeError(
        `geminiStream.push expects a streamGenerateContent chunk (a GenerateContentResponse), got ${describeValue(chunk)}`,
      );
    }
    const out: StreamDelta[] = [];
    const { candidates: chunkCandidates = [], ...rest } = chunk;
    // Usage and ids of the latest chunk stand for the whole response.
    top = { ...top, ...rest };
    chunkCandidates.forEach((candidate: unknown, index: number) => {
      if (isRecord(candidate)) applyCandidate(index, candidate, out);
    });
    return out;
  };

  function applyCandidate(index: number, candidate: Record<string, unknown>, out: StreamDelta[]) {
    const { content, ...fields } = candidate;
    const state = candidates[index] ?? { fields: {}, content: {}, parts: [] };
    candidates[index] = state;
    Object.assign(state.fields, fields);
    if (typeof fields.finishReason === "string" && index === 0) finished = true;
    if (!isRecord(content)) return;
    const { parts, ...contentFields } = content;
    Object.assign(state.content, contentFields);
    if (!Array.isArray(parts)) return;
    // Only the first candidate is what the dialect reads; its progress is the turn's.
    for (const part of parts) if (isRecord(part)) addPart(state, part, index === 0, out);
  }

  function addPart(
    state: CandidateState,
    part: Record<string, unknown>,
    first: boolean,
    out: StreamDelta[],
  ) {
    if (first) textDelta(out, part.thought === true ? "reasoning" : "text", part.text);
    const last = state.parts[state.parts.length - 1];
    if (isPlainText(part)) {
      if (last && isPlainText(last) && (last.thought === true) === (part.thought === true)) {
        state.parts[state.parts.length - 1] = { ...last, text: `${last.text}${part.text}` };
        return;
      }
    }
    state.parts.push({ ...part });
    if (first && isRecord(part.functionCall)) {
      // A chunk carries a call whole: it is ready as soon as it starts, so no call is ever cut
      // and the response lists every part.
      const { id, name } = part.functionCall;
      const at = state.parts.length - 1;
      calls.complete(calls.start(at, idOf(id).id, typeof name === "string" ? name : "", out), out);
    }
  }

  return {
    push,
    response() {
      const built = candidates.flatMap((state): GeminiCandidate[] => {
        // The parts are the provider's own, as they came: the loose part type cannot say so.
        const parts = state.parts.map((part) => ({ ...part })) as GeminiPart[];
        return [{ ...state.fields, content: { ...state.content, parts } }];
      });
      return { ...top, candidates: built };
    },
    get ready() {
      return calls.ready;
    },
    get finished() {
      return finished;
    },
  };
}

/** A part that is only text (and maybe the thought flag): one that may be joined with the next. */
function isPlainText(part: Record<string, unknown>): part is { text: string; thought?: boolean } {
  return (
    typeof part.text === "string" &&
    Object.keys(part).every((key) => key === "text" || key === "thought")
  );
}
