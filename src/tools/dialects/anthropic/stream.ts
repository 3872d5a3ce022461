/**
 * The Anthropic Messages API stream accumulator (`ignite-element/tools/anthropic-stream`): the
 * events of `messages.create({ stream: true })` in, the `Message` the API returns for the same
 * turn without streaming out, for the `anthropic` dialect.
 */

import { isRecord } from "../../core/json.js";
import { shapeError } from "../../wire/describe-value.js";
import {
  callLog,
  idOf,
  positionOf,
  type StreamAccumulator,
  type StreamDelta,
  type TrackedCall,
  textDelta,
  upToCut,
} from "../../wire/stream.js";
import type { AnthropicContentBlock, AnthropicResponse } from "./dialect.js";

export type { StreamAccumulator, StreamDelta } from "../../wire/stream.js";

/**
 * One event of a Messages API stream, as loose as the API's event union (the SDK's
 * `MessageStreamEvent` is assignable to it). The fields each event type carries are listed; `ping`
 * and event types added later are ignored.
 */
export interface AnthropicStreamEvent {
  readonly type: string;
  /** `message_start`: the message, with empty `content` and `stop_reason: null`. */
  readonly message?: AnthropicStreamedMessage;
  /** `content_block_*`: the block's position in `content`. */
  readonly index?: number;
  /** `content_block_start`: the block, with empty text, thinking or `input`. */
  readonly content_block?: AnthropicContentBlock;
  /** `content_block_delta`: a piece of a block; `message_delta`: how the message ended. */
  readonly delta?: AnthropicStreamEventDelta;
  /** `message_delta`: cumulative token counts. */
  readonly usage?: object | null;
}

/** The `delta` of a `content_block_delta` or `message_delta` event. */
export interface AnthropicStreamEventDelta {
  readonly type?: string;
  readonly text?: string;
  readonly partial_json?: string;
  readonly thinking?: string;
  readonly signature?: string;
  readonly citation?: unknown;
  readonly stop_reason?: string | null;
  readonly stop_sequence?: string | null;
  readonly stop_details?: unknown;
  readonly container?: unknown;
}

/** A Messages API response as streaming builds it; the SDK's `Message` is assignable to it. */
export interface AnthropicStreamedMessage extends AnthropicResponse {
  readonly id?: string;
  readonly type?: string;
  readonly role?: string;
  readonly model?: string;
  readonly content: readonly AnthropicContentBlock[];
  /** `null` until `message_delta` says why the message ended; still `null` if the stream broke. */
  readonly stop_reason?: string | null;
  readonly stop_sequence?: string | null;
  readonly usage?: object | null;
}

/** The accumulator `anthropicStream()` returns. */
export type AnthropicStreamAccumulator = StreamAccumulator<
  AnthropicStreamEvent,
  AnthropicStreamedMessage
>;

/** A content block being built: its fields so far, and the input JSON text of a tool block. */
interface Block {
  fields: Record<string, unknown>;
  /** Input JSON text so far, for blocks that carry an `input` (`tool_use`, `server_tool_use`). */
  json: string | undefined;
  /** The input, once the block stopped. */
  input?: unknown;
  stopped: boolean;
  call?: TrackedCall | undefined;
}

const SHAPE =
  "a Messages API stream event (an object with a `type`, as the SDK's stream yields it)";
// Stop reasons after which the last block may be incomplete (`null`: the stream broke first).
const CUT_OFF: unknown[] = ["max_tokens", "model_context_window_exceeded", null];

/**
 * A block's input: its JSON text parsed, or the input it started with when no text came (a tool
 * without input: `{}`). Text that does not parse stays text, answered `InvalidInput` — unless the
 * output limit cut it, when it is `{}`: the dialect answers a cut block without reading it, and the
 * API takes `{}` back.
 */
function readInput(json: string, start: unknown, cut: boolean): unknown {
  if (json.trim() === "") return start;
  try {
    return JSON.parse(json);
  } catch {
    return cut ? {} : json;
  }
}

/**
 * A new accumulator for one streamed Messages API turn. Push it every event in order; `response()`
 * is then the `Message` the API returns for the turn without streaming, as `anthropic`'s
 * `parseToolCalls` and `appendTurn` take it. A `tool_use` block is ready once the model has moved
 * past it (a later block began, or the message ended for a reason other than the output limit),
 * since the limit can cut the last block after it stopped. A stream that breaks off leaves
 * `stop_reason: null`, so a `tool_use` it cut is answered as cut off, never run.
 *
 * @example
 * ```ts
 * const turn = anthropicStream();
 * for await (const event of client.messages.stream(request)) turn.push(event);
 * const blocks = await bridge.handleToolCalls(turn.response());
 * ```
 */
export function anthropicStream(): AnthropicStreamAccumulator {
  let message: Record<string, unknown> = { stop_reason: null };
  const blocks: Block[] = [];
  const calls = callLog();
  let finished = false;

  /** Every stopped tool block before `index` is complete: the model moved past it. */
  const movedPast = (index: number, out: StreamDelta[]) => {
    blocks.forEach((block, at) => {
      if (at < index && block.stopped) calls.complete(block.call, out);
    });
  };

  const push = (event: AnthropicStreamEvent): StreamDelta[] => {
    if (!isRecord(event) || typeof event.type !== "string") {
      throw shapeError("anthropicStream.push", SHAPE, event);
    }
    const out: StreamDelta[] = [];
    const index = positionOf(event.index);
    const block = blocks[index];
    const delta: Record<string, unknown> = isRecord(event.delta) ? event.delta : {};
    switch (event.type) {
      case "message_start":
        // A message without a stop reason is unfinished, whatever the event left out.
        if (isRecord(event.message)) message = { stop_reason: null, ...event.message };
        break;
      case "content_block_start":
        // Blocks start once each, numbered in order: a start anywhere else is a corrupted event,
        // ignored, as it would count a call where the content does not list it.
        if (isRecord(event.content_block) && index === blocks.length)
          startBlock(index, event.content_block, out);
        break;
      case "content_block_delta":
        if (block) applyDelta(block, delta, out);
        break;
      case "content_block_stop":
        if (block) stopBlock(block, index, out);
        break;
      case "message_delta":
        endMessage(delta, event.usage, out);
        break;
      case "message_stop":
        finished = true;
        break;
    }
    return out;
  };

  function startBlock(index: number, fields: Record<string, unknown>, out: StreamDelta[]) {
    const json = "input" in fields ? "" : undefined;
    const block: Block = { fields: { ...fields }, json, stopped: false };
    if (fields.type === "tool_use") {
      const name = typeof fields.name === "string" ? fields.name : "";
      block.call = calls.start(index, idOf(fields.id).id, name, out);
    }
    if (fields.type === "text") textDelta(out, "text", fields.text);
    blocks[index] = block;
    movedPast(index, out);
  }

  function applyDelta(block: Block, delta: Record<string, unknown>, out: StreamDelta[]) {
    const { fields } = block;
    const piece = (key: string) => (typeof delta[key] === "string" ? delta[key] : "");
    // The text so far: a corrupted start may have left anything there.
    const sofar = (key: string) => (typeof fields[key] === "string" ? fields[key] : "");
    switch (delta.type) {
      case "text_delta":
        if (fields.type !== "text") return;
        fields.text = `${sofar("text")}${piece("text")}`;
        textDelta(out, "text", delta.text);
        return;
      case "thinking_delta":
        if (fields.type !== "thinking") return;
        fields.thinking = `${sofar("thinking")}${piece("thinking")}`;
        textDelta(out, "reasoning", delta.thinking);
        return;
      case "signature_delta":
        // The signature arrives whole, just before the thinking block stops.
        if (fields.type === "thinking") fields.signature = delta.signature;
        return;
      case "citations_delta":
        if (fields.type !== "text") return;
        fields.citations = [
          ...(Array.isArray(fields.citations) ? fields.citations : []),
          delta.citation,
        ];
        return;
      case "input_json_delta":
        if (block.json === undefined) return;
        block.json += piece("partial_json");
        if (block.call && piece("partial_json") !== "") {
          out.push({
            type: "tool-call-delta",
            index: block.call.index,
            arguments: piece("partial_json"),
          });
        }
        return;
    }
  }

  function stopBlock(block: Block, index: number, out: StreamDelta[]) {
    block.stopped = true;
    if (block.json !== undefined) block.input = readInput(block.json, block.fields.input, false);
    // A later block has started: the model moved past this one.
    if (index < blocks.length - 1) calls.complete(block.call, out);
  }

  function endMessage(delta: Record<string, unknown>, usage: unknown, out: StreamDelta[]) {
    // As the SDK does: the stop fields always, the container only when there is one.
    for (const [key, value] of Object.entries(delta)) {
      if (key !== "container" || value != null) message[key] = value;
    }
    if (isRecord(usage)) {
      const merged = isRecord(message.usage) ? { ...message.usage } : {};
      // Counts that do not apply are omitted (null): they never erase one already known.
      for (const [key, value] of Object.entries(usage)) if (value != null) merged[key] = value;
      message.usage = merged;
    }
    if (!CUT_OFF.includes(message.stop_reason)) movedPast(blocks.length, out);
  }

  return {
    push,
    response() {
      // Blocks come one after another, so only the last can be an unfinished call; a corrupted
      // stream that began a block before the last stopped is cut at it all the same.
      const listed = upToCut(blocks, calls);
      const last = listed.length - 1;
      const cut = CUT_OFF.includes(message.stop_reason);
      const content = listed.flatMap((block, at): AnthropicContentBlock[] => {
        // A corrupted type is no block the dialect reads; it must not throw as it is read.
        const { type } = block.fields;
        const fields = { ...block.fields, type: typeof type === "string" ? type : "unknown" };
        if (block.json === undefined) return [fields];
        const cutHere = cut && at === last;
        const input =
          block.stopped && !cutHere
            ? block.input
            : readInput(block.json, block.fields.input, cutHere);
        return [{ ...fields, input }];
      });
      return { ...message, content };
    },
    get ready() {
      return calls.ready;
    },
    get finished() {
      return finished;
    },
  };
}
