import type { MessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import fc from "fast-check";
import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { anthropicStream } from "../../tools/dialects/anthropic/stream.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { geminiStream } from "../../tools/dialects/gemini/stream.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { ollamaStream } from "../../tools/dialects/ollama/stream.js";
import { openai, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import { openaiResponsesStream, openaiStream } from "../../tools/dialects/openai/stream.js";
import { igniteTools, type NeutralToolCall, type ToolDialect } from "../../tools/index.js";
import type { StreamAccumulator, StreamDelta } from "../../tools/wire/stream.js";
import { counterWithTodos } from "../fixtures.js";
import { feed, joined } from "./drain.js";
import { anthropicCutTurn, anthropicFinalTurn, anthropicToolTurn } from "./recordings/anthropic.js";
import { type GeminiChunk, geminiFinalTurn, geminiToolTurn } from "./recordings/gemini.js";
import { type OllamaChunk, ollamaToolTurn } from "./recordings/ollama.js";
import {
  chatCutTurn,
  chatFinalTurn,
  chatInterleavedCutTurn,
  chatToolTurn,
} from "./recordings/openai.js";
import { responsesCutTurn, responsesToolTurn } from "./recordings/openai-responses.js";

// fast-check prints the seed and the shrunk counterexample of any failure.
const RUNS = { numRuns: 150 };
const OPENAI_TODO = "todo_add_10sxn00";

/** `text` cut at the given places (taken modulo its length): the pieces, in order. */
function pieces(text: string, seeds: readonly number[]): string[] {
  const cuts = [...new Set(seeds.map((seed) => seed % (text.length + 1)))].sort((a, b) => a - b);
  return [...cuts, text.length].map((end, i) => text.slice(i === 0 ? 0 : cuts[i - 1], end));
}

/** One provider: its recordings, its accumulator, its dialect, and how an event splits. */
interface Provider<Event> {
  name: string;
  recordings: Event[][];
  turn: () => StreamAccumulator<Event, unknown>;
  dialect: ToolDialect<unknown, never, unknown>;
  /** The event as several events carrying its text in `seeds`-cut pieces (or itself). */
  split: (event: Event, seeds: readonly number[]) => Event[];
  /** Reorders a recording's events as the provider may: by default, not at all. */
  interleave?: (events: Event[], choices: readonly number[]) => Event[];
}

const anthropicProvider: Provider<MessageStreamEvent> = {
  name: "anthropic",
  recordings: [anthropicToolTurn(OPENAI_TODO), anthropicCutTurn(OPENAI_TODO), anthropicFinalTurn],
  turn: anthropicStream,
  dialect: anthropic,
  split(event, seeds) {
    if (event.type !== "content_block_delta") return [event];
    const { delta } = event;
    const cut = (text: string, make: (piece: string) => typeof delta) =>
      pieces(text, seeds).map((piece): MessageStreamEvent => ({ ...event, delta: make(piece) }));
    if (delta.type === "text_delta") return cut(delta.text, (text) => ({ ...delta, text }));
    if (delta.type === "thinking_delta")
      return cut(delta.thinking, (thinking) => ({ ...delta, thinking }));
    if (delta.type === "input_json_delta") {
      return cut(delta.partial_json, (partial_json) => ({ ...delta, partial_json }));
    }
    return [event];
  },
};

/** Chunks of one tool call, the first keeping its id, type and name. */
function splitToolChunk(
  chunk: ChatCompletionChunk,
  seeds: readonly number[],
): ChatCompletionChunk[] {
  const choice = chunk.choices[0];
  const call = choice?.delta.tool_calls?.[0];
  const text = call?.function?.arguments ?? "";
  if (!choice || !call || text === "") return [chunk];
  return pieces(text, seeds).map((piece, i) => {
    const head = i === 0 ? call : { index: call.index };
    const fn = i === 0 ? { ...call.function, arguments: piece } : { arguments: piece };
    return {
      ...chunk,
      choices: [{ ...choice, delta: { tool_calls: [{ ...head, function: fn }] } }],
    };
  });
}

/** Tool chunks of different calls merged in any order that keeps each call's own order. */
function interleaveCalls(
  chunks: ChatCompletionChunk[],
  choices: readonly number[],
): ChatCompletionChunk[] {
  const callOf = (chunk: ChatCompletionChunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.index;
  const groups: ChatCompletionChunk[][] = [];
  for (const chunk of chunks) {
    const call = callOf(chunk);
    if (call !== undefined) groups[call] = [...(groups[call] ?? []), chunk];
  }
  const merged: ChatCompletionChunk[] = [];
  let opened = 0;
  for (let step = 0; groups.some((group) => group.length > 0); step++) {
    // A call may go on once it has begun, and the next one may begin: calls begin in model order.
    const open = groups.flatMap((group, i) => (i <= opened && group.length > 0 ? [i] : []));
    const pick = open[(choices[step] ?? 0) % open.length] ?? 0;
    if (pick === opened) opened++;
    const next = groups[pick]?.shift();
    if (next) merged.push(next);
  }
  const first = chunks.findIndex((chunk) => callOf(chunk) !== undefined);
  if (first < 0) return chunks;
  const rest = chunks.filter((chunk, i) => i > first && callOf(chunk) === undefined);
  return [...chunks.slice(0, first), ...merged, ...rest];
}

const chatProvider: Provider<ChatCompletionChunk> = {
  name: "openai",
  recordings: [
    chatToolTurn(OPENAI_TODO),
    chatCutTurn,
    chatInterleavedCutTurn(OPENAI_TODO),
    chatFinalTurn,
  ],
  turn: openaiStream,
  dialect: openai,
  split(chunk, seeds) {
    const choice = chunk.choices[0];
    const text = choice?.delta.content;
    if (!choice || typeof text !== "string" || text === "") return splitToolChunk(chunk, seeds);
    return pieces(text, seeds).map((content) => ({
      ...chunk,
      choices: [{ ...choice, delta: { ...choice.delta, content } }],
    }));
  },
  interleave: interleaveCalls,
};

const responsesProvider: Provider<ResponseStreamEvent> = {
  name: "openaiResponses",
  recordings: [responsesToolTurn(OPENAI_TODO), responsesCutTurn()],
  turn: openaiResponsesStream,
  dialect: openaiResponses,
  split(event, seeds) {
    if (
      event.type !== "response.function_call_arguments.delta" &&
      event.type !== "response.output_text.delta" &&
      event.type !== "response.reasoning_summary_text.delta"
    ) {
      return [event];
    }
    return pieces(event.delta, seeds).map((delta) => ({ ...event, delta }));
  },
};

const geminiProvider: Provider<GeminiChunk> = {
  name: "gemini",
  recordings: [geminiToolTurn("todo.add"), geminiFinalTurn],
  turn: geminiStream,
  dialect: gemini,
  split(chunk, seeds) {
    const [candidate] = chunk.candidates ?? [];
    const [part, ...others] = candidate?.content?.parts ?? [];
    if (!candidate || !part || others.length > 0 || part.thoughtSignature || !part.text)
      return [chunk];
    return pieces(part.text, seeds).map((text) => ({
      ...chunk,
      candidates: [{ ...candidate, content: { ...candidate.content, parts: [{ ...part, text }] } }],
    }));
  },
};

const ollamaProvider: Provider<OllamaChunk> = {
  name: "ollama",
  recordings: [ollamaToolTurn(OPENAI_TODO)],
  turn: ollamaStream,
  dialect: ollama,
  split(chunk, seeds) {
    const { content, thinking, tool_calls } = chunk.message;
    if (tool_calls) return [chunk];
    if (thinking)
      return pieces(thinking, seeds).map((piece) => ({
        ...chunk,
        message: { ...chunk.message, thinking: piece },
      }));
    if (content === "") return [chunk];
    return pieces(content, seeds).map((piece) => ({
      ...chunk,
      message: { ...chunk.message, content: piece },
    }));
  },
};

const providers = [
  anthropicProvider,
  chatProvider,
  responsesProvider,
  geminiProvider,
  ollamaProvider,
];

/** A recording of a provider, re-chunked by fast-check. */
function rechunked<Event>(provider: Provider<Event>) {
  return fc
    .constantFrom(...provider.recordings)
    .chain((recording) =>
      fc.tuple(
        fc.constant(recording),
        fc.array(fc.array(fc.nat(500), { maxLength: 4 }), {
          minLength: recording.length,
          maxLength: recording.length,
        }),
        fc.array(fc.nat(100), { maxLength: 60 }),
      ),
    )
    .map(([recording, seeds, choices]) => {
      const split = recording.flatMap((event, i) => provider.split(event, seeds[i] ?? []));
      return { recording, events: provider.interleave?.(split, choices) ?? split };
    });
}

const summary = (deltas: StreamDelta[]) => ({
  text: joined(deltas, "text"),
  reasoning: joined(deltas, "reasoning"),
  ready: deltas.flatMap((delta) => (delta.type === "tool-call-ready" ? [delta] : [])),
  arguments:
    deltas.flatMap((delta) => (delta.type === "tool-call-delta" ? [delta.index] : [])).length > 0,
});

/** The calls the provider's dialect reads in a response. */
function reader(provider: Provider<unknown>): (response: unknown) => NeutralToolCall[] {
  const bridge = igniteTools(counterWithTodos("todo.add").component, provider.dialect);
  // Each provider's accumulator gives its own dialect's response type.
  return (response) => bridge.parseToolCalls(response as never);
}

describe.each(providers as Provider<unknown>[])("the $name accumulator", (provider) => {
  it("accumulates any re-chunking of a recorded stream to the same response and progress", () => {
    fc.assert(
      fc.property(rechunked(provider), ({ recording, events }) => {
        const whole = provider.turn();
        const wholeDeltas = feed(whole, recording);
        const pieces = provider.turn();
        const pieceDeltas = feed(pieces, events);
        expect(pieces.response()).toEqual(whole.response());
        expect([pieces.ready, pieces.finished]).toEqual([whole.ready, whole.finished]);
        const [a, b] = [summary(pieceDeltas), summary(wholeDeltas)];
        expect({ ...a, ready: a.ready.length }).toEqual({ ...b, ready: b.ready.length });
        expect(new Set(a.ready.map((delta) => JSON.stringify(delta)))).toEqual(
          new Set(b.ready.map((delta) => JSON.stringify(delta))),
        );
      }),
      RUNS,
    );
  });

  it("never gives, wherever the stream breaks, a call that reads other than when it is whole", () => {
    fc.assert(
      fc.property(rechunked(provider), ({ events }) => {
        const callsOf = reader(provider);
        const whole = provider.turn();
        feed(whole, events);
        const final = callsOf(whole.response());
        const turn = provider.turn();
        for (const event of events) {
          turn.push(event);
          const calls = callsOf(turn.response());
          // A call read without an input error is read exactly as the whole stream reads it.
          calls.forEach((call, i) => {
            if (call.inputError === undefined) expect(call).toEqual(final[i]);
          });
          // A ready call reads now as it will when the stream is whole: it may run now.
          expect(calls.slice(0, turn.ready)).toEqual(final.slice(0, turn.ready));
          // Nothing after a cut call: the response ends with it, so no call after it runs.
          const cut = calls.findIndex((call) => call.inputError !== undefined);
          if (cut >= 0) expect(calls).toHaveLength(cut + 1);
        }
        const cut = final.findIndex((call) => call.inputError !== undefined);
        if (cut >= 0) expect(final).toHaveLength(cut + 1);
      }),
      { numRuns: 40 },
    );
  });
});

/** Every place in a value where another value can be put: [parent, key]. */
function slots(value: unknown, found: [Record<string, unknown>, string][] = []) {
  if (typeof value !== "object" || value === null) return found;
  for (const key of Object.keys(value)) {
    found.push([value as Record<string, unknown>, key]);
    slots((value as Record<string, unknown>)[key], found);
  }
  return found;
}

/** A copy of `event` with some fields, at any depth, replaced by anything at all. */
function corrupt(event: unknown, changes: readonly [number, unknown][]): unknown {
  const copy: unknown = structuredClone(event);
  for (const [seed, value] of changes) {
    const places = slots(copy);
    const place = places[seed % Math.max(places.length, 1)];
    // A copy each time: the same value put inside itself would make a cycle.
    if (place) place[0][place[1]] = structuredClone(value);
  }
  return copy;
}

describe.each(providers as Provider<unknown>[])(
  "the $name accumulator, fed malformed events",
  (provider) => {
    it("never throws but a TypeError for a non-event, and always gives a response its dialect reads", () => {
      const callsOf = reader(provider);
      fc.assert(
        fc.property(
          fc.constantFrom(...provider.recordings),
          fc.array(
            fc.tuple(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.anything()), { maxLength: 2 })),
          ),
          (recording, damage) => {
            const turn = provider.turn();
            const events = recording.map((event, i) => {
              const changes = damage
                .filter(([at]) => at % recording.length === i)
                .flatMap(([, c]) => c);
              return changes.length === 0 ? event : corrupt(event, changes);
            });
            for (const event of events) {
              try {
                expect(Array.isArray(turn.push(event))).toBe(true);
              } catch (error) {
                expect(error).toBeInstanceOf(TypeError);
              }
            }
            const calls = callsOf(turn.response());
            expect(calls.length).toBeGreaterThanOrEqual(turn.ready);
          },
        ),
        { numRuns: 100 },
      );
    });
  },
);

/** Copies of `event`, one per field named `key` at any depth, with that field set to `value`. */
function reindexed(event: unknown, key: string, value: number): unknown[] {
  const count = slots(event).filter(([, name]) => name === key).length;
  return Array.from({ length: count }, (_, nth) => {
    const copy: unknown = structuredClone(event);
    const place = slots(copy).filter(([, name]) => name === key)[nth];
    if (place) place[0][place[1]] = value;
    return copy;
  });
}

const INDEX_KEYS: Record<string, string> = {
  anthropic: "index",
  openai: "index",
  openaiResponses: "output_index",
};

describe.each(providers.filter(({ name }) => name in INDEX_KEYS) as Provider<unknown>[])(
  "the $name accumulator, given a corrupted index",
  (provider) => {
    const key = INDEX_KEYS[provider.name] ?? "index";
    const callsOf = reader(provider);
    it.each([2 ** 40, 7, 1])(
      "ignores an index of %i where no item can be, and lists every call it counts as ready",
      (index) => {
        for (const recording of provider.recordings) {
          recording.forEach((event, at) => {
            for (const changed of reindexed(event, key, index)) {
              const turn = provider.turn();
              feed(
                turn,
                recording.map((original, i) => (i === at ? changed : original)),
              );
              expect(callsOf(turn.response()).length).toBeGreaterThanOrEqual(turn.ready);
            }
          });
        }
      },
    );
  },
);
