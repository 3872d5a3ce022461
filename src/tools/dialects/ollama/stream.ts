/**
 * The Ollama stream accumulator (`ignite-element/tools/ollama-stream`): the NDJSON chunks of a
 * streamed `/api/chat` in, the response the server returns for the same turn with
 * `stream: false` out, for the `ollama` dialect.
 */

import { isRecord } from "../../core/json.js";
import { shapeError } from "../../wire/describe-value.js";
import {
  callLog,
  idOf,
  type StreamAccumulator,
  type StreamDelta,
  textDelta,
} from "../../wire/stream.js";
import type { OllamaChatResponse, OllamaMessage, OllamaToolCall } from "./dialect.js";

export type { StreamAccumulator, StreamDelta } from "../../wire/stream.js";

/** One chunk of a streamed `/api/chat` (the SDK's `ChatResponse` is assignable to it). */
export interface OllamaChatChunk extends OllamaChatResponse {
  /** `true` on the last chunk, which carries `done_reason` and the timings. */
  readonly done?: boolean;
}

/** The accumulator `ollamaStream()` returns. */
export type OllamaStreamAccumulator = StreamAccumulator<OllamaChatChunk, OllamaChatChunk>;

const SHAPE = "an /api/chat stream chunk (parsed JSON with a `message` object)";

/**
 * A new accumulator for one streamed Ollama chat turn. Push it every chunk in order (the SDK's
 * `chat({ stream: true })` yields them parsed); `response()` is then the response of the same turn
 * without streaming — the last chunk's fields, with the content and thinking of every chunk joined
 * and every tool call in order — as `ollama`'s `parseToolCalls` and `appendTurn` take it. Each
 * chunk carries whole tool calls, so a call is ready as soon as it arrives.
 *
 * @example
 * ```ts
 * const turn = ollamaStream();
 * for await (const chunk of await client.chat({ ...request, stream: true })) turn.push(chunk);
 * const results = await bridge.handleToolCalls(turn.response());
 * ```
 */
export function ollamaStream(): OllamaStreamAccumulator {
  let top: Record<string, unknown> = {};
  let message: Record<string, unknown> = { role: "assistant" };
  let content = "";
  let thinking = "";
  const toolCalls: OllamaToolCall[] = [];
  const calls = callLog();
  let finished = false;

  const push = (chunk: OllamaChatChunk): StreamDelta[] => {
    if (!isRecord(chunk) || !isRecord(chunk.message)) {
      throw shapeError("ollamaStream.push", SHAPE, chunk);
    }
    const out: StreamDelta[] = [];
    const { message: piece, ...rest } = chunk;
    // The last chunk's timings and reason stand for the whole turn, as the server's own are.
    top = { ...top, ...rest };
    if (chunk.done === true) finished = true;
    const { content: text, thinking: thought, tool_calls: calling, ...fields } = piece;
    message = { ...message, ...fields };
    if (typeof thought === "string") thinking += thought;
    if (typeof text === "string") content += text;
    textDelta(out, "reasoning", thought);
    textDelta(out, "text", text);
    for (const call of Array.isArray(calling) ? calling : []) {
      if (!isRecord(call)) continue;
      // The server's own call, kept as it came; `parseToolCalls` checks every field.
      toolCalls.push({ ...call } as OllamaToolCall);
      // Only function calls are calls to `parseToolCalls`, so only they are counted.
      if (!isRecord(call.function)) continue;
      const { name } = call.function;
      const id = idOf(call.id).id;
      // Whole, so ready at once: no call is ever cut, and the response lists every call.
      const at = toolCalls.length - 1;
      calls.complete(calls.start(at, id, typeof name === "string" ? name : "", out), out);
    }
    return out;
  };

  return {
    push,
    response() {
      const whole: OllamaMessage = {
        ...message,
        role: typeof message.role === "string" ? message.role : "assistant",
        content,
        // As the server writes it: no thinking and no calls are left out, not sent empty.
        ...(thinking === "" ? {} : { thinking }),
        ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls.map((call) => ({ ...call })) }),
      };
      return { ...top, message: whole };
    },
    get ready() {
      return calls.ready;
    },
    get finished() {
      return finished;
    },
  };
}
