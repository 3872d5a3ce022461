/**
 * The Responses API stream accumulator: the events of `responses.create({ stream: true })` in, the
 * `Response` the API returns for the same turn without streaming out, for `openaiResponses`.
 * Exported from `ignite-element/tools/openai-stream`.
 */

import { isRecord } from "../../core/json.js";
import { shapeError } from "../../wire/describe-value.js";
import {
  callLog,
  idOf,
  type StreamAccumulator,
  type StreamDelta,
  slotOf,
  textDelta,
  upToCut,
} from "../../wire/stream.js";
import type { OpenAIResponsesOutputItem, OpenAIResponsesResponse } from "./dialect.js";

/**
 * One event of a Responses API stream, as loose as the API's event union (the SDK's
 * `ResponseStreamEvent` is assignable to it). The fields the accumulator reads are listed; event
 * types it does not know are ignored.
 */
export interface OpenAIResponsesStreamEvent {
  readonly type: string;
  /** `response.created`, `.in_progress`, `.completed`, `.incomplete`, `.failed`: the response. */
  readonly response?: OpenAIResponsesResponse;
  /** `response.output_item.added` and `.done`: the item, empty at first, then whole. */
  readonly item?: OpenAIResponsesOutputItem;
  readonly output_index?: number;
  readonly content_index?: number;
  readonly summary_index?: number;
  readonly annotation_index?: number;
  /** `response.content_part.*`, `response.reasoning_summary_part.*`: the part. */
  readonly part?: object;
  readonly annotation?: unknown;
  /** `*.delta` events: the next piece of text or arguments. */
  readonly delta?: unknown;
  /** `*.done` events: the whole text, refusal or arguments. */
  readonly text?: unknown;
  readonly refusal?: unknown;
  readonly arguments?: unknown;
}

/** A Responses API response as streaming builds it: what `client.responses.create()` resolves. */
export interface OpenAIResponsesStreamedResponse extends OpenAIResponsesResponse {
  readonly id?: string;
  readonly object?: string;
  readonly model?: string;
  readonly output: readonly OpenAIResponsesOutputItem[];
  readonly usage?: object | null;
}

/** The accumulator `openaiResponsesStream()` returns. */
export type OpenAIResponsesStreamAccumulator = StreamAccumulator<
  OpenAIResponsesStreamEvent,
  OpenAIResponsesStreamedResponse
>;

/** An output item as the accumulator holds it; every item the API sends has a `type`. */
type Item = Record<string, unknown> & { type?: unknown };

const SHAPE =
  "a Responses API stream event (an object with a `type`, as the SDK's stream yields it)";
const LIFECYCLE = /^response\.(created|queued|in_progress|completed|incomplete|failed)$/;
const FINAL = ["response.completed", "response.incomplete", "response.failed"];

/** Text that streams into a part of an item: [list of parts, index field, text field, progress]. */
const TEXTS: Record<string, [string, string, string, "text" | "reasoning" | undefined]> = {
  "response.output_text": ["content", "content_index", "text", "text"],
  "response.refusal": ["content", "content_index", "refusal", undefined],
  "response.reasoning_text": ["content", "content_index", "text", "reasoning"],
  "response.reasoning_summary_text": ["summary", "summary_index", "text", "reasoning"],
};

/** Parts added to an item: [list of parts, index field]. */
const PARTS: Record<string, [string, string]> = {
  "response.content_part": ["content", "content_index"],
  "response.reasoning_summary_part": ["summary", "summary_index"],
};

/**
 * A new accumulator for one streamed Responses API turn. Push it every event in order; `response()`
 * is then the `Response` the API returns for the turn without streaming (the one
 * `response.completed` carries), as `openaiResponses`' `parseToolCalls` and `appendTurn` take it.
 * A `function_call` is ready once its arguments are done. A stream that broke off leaves every item
 * it did not finish with `status: "incomplete"`, so a call cut there is answered `InvalidInput`,
 * never run.
 *
 * @example
 * ```ts
 * const turn = openaiResponsesStream();
 * for await (const event of client.responses.stream(request)) turn.push(event);
 * const results = await bridge.handleToolCalls(turn.response());
 * ```
 */
export function openaiResponsesStream(): OpenAIResponsesStreamAccumulator {
  let snapshot: Item = {};
  let output: Item[] = [];
  const done = new Set<number>();
  const calls = callLog();
  let finished = false;

  const push = (event: OpenAIResponsesStreamEvent): StreamDelta[] => {
    if (!isRecord(event) || typeof event.type !== "string") {
      throw shapeError("openaiResponsesStream.push", SHAPE, event);
    }
    const out: StreamDelta[] = [];
    const { type } = event;
    if (LIFECYCLE.test(type) && isRecord(event.response)) {
      // Each lifecycle event carries the whole response so far: it replaces the snapshot.
      snapshot = { ...event.response };
      output = (Array.isArray(snapshot.output) ? snapshot.output : []).map(copyItem);
      if (FINAL.includes(type)) finished = true;
      if (type === "response.completed") calls.completeAll(out);
      return out;
    }
    const at = slotOf(output, event.output_index);
    const dot = type.lastIndexOf(".");
    const [family, step] = [type.slice(0, dot), type.slice(dot + 1)];
    if (family === "response.output_item" && isRecord(event.item) && at >= 0) {
      setItem(at, event.item, step === "done", out);
      return out;
    }
    const item = output[at];
    if (!item) return out;
    const text = TEXTS[family];
    const part = PARTS[family];
    if (text) streamText(item, event, text, step, out);
    else if (part && isRecord(event.part)) {
      const [list, index] = part;
      const parts = partsOf(item, list);
      const slot = slotOf(parts, event[index as keyof typeof event]);
      if (slot >= 0) parts[slot] = { ...event.part };
    } else if (family === "response.function_call_arguments" && item.type === "function_call") {
      streamArguments(at, item, event, step, out);
    } else if (type === "response.output_text.annotation.added") {
      const target = partsOf(item, "content")[Number(event.content_index)];
      if (isRecord(target)) {
        const annotations = Array.isArray(target.annotations) ? [...target.annotations] : [];
        const slot = slotOf(annotations, event.annotation_index);
        if (slot >= 0) annotations[slot] = event.annotation;
        target.annotations = annotations;
      }
    }
    return out;
  };

  function setItem(at: number, item: Item, whole: boolean, out: StreamDelta[]) {
    output[at] = copyItem(item);
    // Calls are counted in the order of their items: only the last item can begin one.
    if (item.type === "function_call" && !calls.get(at) && at === output.length - 1) {
      calls.start(at, idOf(item.call_id).id, typeof item.name === "string" ? item.name : "", out);
    }
    if (!whole) return;
    done.add(at);
    readyIfWritten(at, item.arguments, out);
  }

  function streamArguments(at: number, item: Item, event: Item, step: string, out: StreamDelta[]) {
    const call = calls.get(at);
    if (step === "delta" && typeof event.delta === "string") {
      item.arguments = `${typeof item.arguments === "string" ? item.arguments : ""}${event.delta}`;
      if (call && event.delta !== "") {
        out.push({ type: "tool-call-delta", index: call.index, arguments: event.delta });
      }
    } else if (step === "done" && typeof event.arguments === "string") {
      item.arguments = event.arguments;
      readyIfWritten(at, event.arguments, out);
    }
  }

  /**
   * Arguments that are done are ready — unless blank: a cut-off response reads a blank last call as
   * cut, so a blank one waits for `response.completed`.
   */
  function readyIfWritten(at: number, args: unknown, out: StreamDelta[]) {
    if (typeof args === "string" && args.trim() !== "") calls.complete(calls.get(at), out);
  }

  return {
    push,
    response() {
      // Items come one after another, so only the last can be an unfinished call; a corrupted
      // stream that added an item before the last was done is cut at it all the same.
      const { cut } = calls;
      const items = upToCut(output, calls).flatMap((item, at) => {
        const copy = copyItem(item);
        // An item the stream never finished is incomplete, as the API marks a cut-off one; so is
        // the cut call (a done one with blank arguments, until `response.completed` vouches for
        // them), which the response now ends with.
        if ((!finished && !done.has(at)) || at === cut?.at) copy.status = "incomplete";
        return [copy];
      });
      // Every output item the API sends is one of its output item kinds; the loose type here
      // cannot say so.
      return { ...snapshot, output: items as OpenAIResponsesOutputItem[] };
    },
    get ready() {
      // A lifecycle event replaces the whole output: never more calls than it holds.
      const held = output.filter((item) => item.type === "function_call").length;
      return Math.min(calls.ready, held);
    },
    get finished() {
      return finished;
    },
  };
}

/** Appends a text delta to its part, or sets the whole text when it is done. */
function streamText(
  item: Item,
  event: Item,
  [list, index, field, progress]: [string, string, string, "text" | "reasoning" | undefined],
  step: string,
  out: StreamDelta[],
) {
  const part = partsOf(item, list)[Number(event[index])];
  if (!isRecord(part)) return;
  if (step === "delta" && typeof event.delta === "string") {
    part[field] = `${typeof part[field] === "string" ? part[field] : ""}${event.delta}`;
    if (progress) textDelta(out, progress, event.delta);
  } else if (step === "done" && typeof event[field] === "string") {
    part[field] = event[field];
  }
}

/** The item's list of parts (`content`, `summary`), made if it has none yet. */
function partsOf(item: Item, list: string): unknown[] {
  const parts = item[list];
  if (Array.isArray(parts)) return parts;
  const made: unknown[] = [];
  item[list] = made;
  return made;
}

/** A copy of an item that shares no mutable part with it (its parts are copied too). */
function copyItem(item: unknown): Item {
  if (!isRecord(item)) return {};
  const copy: Item = { ...item };
  for (const list of ["content", "summary"]) {
    const parts = copy[list];
    if (Array.isArray(parts))
      copy[list] = parts.map((part) => (isRecord(part) ? { ...part } : part));
  }
  return copy;
}
