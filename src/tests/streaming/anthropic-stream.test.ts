import Anthropic from "@anthropic-ai/sdk";
import type { MessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnthropicMessage,
  type AnthropicResponse,
  anthropic,
} from "../../tools/dialects/anthropic/dialect.js";
import {
  type AnthropicStreamEvent,
  type AnthropicStreamedMessage,
  anthropicStream,
} from "../../tools/dialects/anthropic/stream.js";
import { igniteTools } from "../../tools/index.js";
import { Counter, counterWithTodos } from "../fixtures.js";
import { callEvents, drain, feed, joined } from "./drain.js";
import {
  anthropicCutTurn,
  anthropicFinalTurn,
  anthropicToolMessage,
  anthropicToolTurn,
} from "./recordings/anthropic.js";
import { brokenAfter, json, sse, useReplayServer } from "./replay-server.js";

const TODO = "todo_add_10sxn00";
const events = (recorded: readonly MessageStreamEvent[]) =>
  sse([
    ...recorded.map((data) => ({ event: data.type, data })),
    { event: "ping", data: { type: "ping" } },
  ]);

const server = useReplayServer();
let client: Anthropic;
const request = { model: "claude-sonnet-4-6", max_tokens: 1024 };

beforeAll(() => {
  client = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
});

/** The SDK's final message without `parsed_output`, the SDK's own field for structured output. */
async function finalMessage(stream: ReturnType<Anthropic["messages"]["stream"]>) {
  const { parsed_output: _, ...message } = await stream.finalMessage();
  return message;
}

describe("anthropicStream with @anthropic-ai/sdk streaming from 127.0.0.1", () => {
  it("accumulates the SDK's events into the message finalMessage() and messages.create() give", async () => {
    server.play(events(anthropicToolTurn(TODO)), json(anthropicToolMessage(TODO)));
    const stream = client.messages.stream({
      ...request,
      messages: [{ role: "user", content: "Go" }],
    });
    const turn = anthropicStream();
    const { deltas, error } = await drain(stream, turn);

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    expect(turn.response()).toEqual(await finalMessage(stream));
    const unstreamed = await client.messages.create({ ...request, messages: [] });
    expect(turn.response()).toEqual(unstreamed);
    expect(server.received[0]?.body.stream).toBe(true);

    expect(joined(deltas, "reasoning")).toBe("Increment by two, note the errand, then reset.");
    expect(joined(deltas, "text")).toBe("I'll do all three.");
    // Each call is ready once the model has moved past it; the last when the message ends.
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
      "start 2 reset",
      `ready 1 ${TODO}`,
      "ready 2 reset",
    ]);
    expect(deltas).toContainEqual({
      type: "tool-call-delta",
      index: 1,
      arguments: '"oat\\" milk \\u00e9',
    });
    expect(deltas).toContainEqual({
      type: "tool-call-start",
      index: 0,
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "increment",
    });
  });

  it("runs the streamed turn's calls and sends the turn back as the API returned it", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, anthropic);
    server.play(events(anthropicToolTurn(TODO)), events(anthropicFinalTurn));
    const messages: AnthropicMessage[] = [
      { role: "user", content: "Count to two, note milk, reset." },
    ];

    const first = anthropicStream();
    await drain(
      client.messages.stream({ ...request, tools: bridge.toToolDefs(), messages }),
      first,
    );
    const results = await bridge.handleToolCalls(first.response());
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "reset", input: undefined },
    ]);
    expect(todos).toEqual(['buy "oat" milk é']);
    expect(results.every((result) => result.is_error === undefined)).toBe(true);

    const next = bridge.appendTurn(messages, first.response(), results);
    const second = anthropicStream();
    await drain(client.messages.stream({ ...request, messages: next }), second);
    // Exactly what the dialect sends after the same turn unstreamed.
    expect(server.received.at(-1)?.body.messages).toEqual(
      JSON.parse(JSON.stringify(bridge.appendTurn(messages, anthropicToolMessage(TODO), results))),
    );
    expect(next[1]).toEqual({ role: "assistant", content: anthropicToolMessage(TODO).content });
    expect(bridge.parseToolCalls(second.response())).toEqual([]);
    expect(second.response().stop_reason).toBe("end_turn");
  });

  it("never runs the call max_tokens cut, though the SDK's finalMessage() guesses its input", async () => {
    server.play(events(anthropicCutTurn(TODO)));
    const stream = client.messages.stream({ ...request, messages: [] });
    const turn = anthropicStream();
    const { deltas } = await drain(stream, turn);
    const sdk = await finalMessage(stream);

    // The SDK completes the partial JSON `{"value": "buy oat mi", "`: what nobody finished.
    expect(sdk.content[1]).toMatchObject({ type: "tool_use", input: { value: "buy oat mi" } });
    // Ours keeps `{}` there (the API takes it back); everything else is the SDK's message.
    expect(turn.response()).toEqual({
      ...sdk,
      content: [sdk.content[0], { ...sdk.content[1], input: {} }],
    });
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
    ]);
    expect(turn.ready).toBe(1);

    for (const response of [turn.response(), sdk]) {
      const { component, counter, todos } = counterWithTodos("todo.add");
      const blocks = await igniteTools(component, anthropic).handleToolCalls(response);
      expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
      expect(todos).toEqual([]);
      expect(blocks[1]?.is_error).toBe(true);
      expect(blocks[1]?.content).toContain("arguments were cut off by the output limit");
    }
  });

  it("answers the call a lost connection cut InvalidInput and runs the calls before it", async () => {
    const recorded = anthropicToolTurn(TODO);
    // Dropped in the middle of the todo call's input, after `increment` was complete.
    const cutAt = recorded.findIndex(
      (event) => event.type === "content_block_delta" && event.index === 3,
    );
    server.play(brokenAfter(events(recorded), cutAt + 1));
    const turn = anthropicStream();
    const { deltas, error } = await drain(
      client.messages.stream({ ...request, messages: [] }),
      turn,
    );

    expect(error).toBeInstanceOf(Error);
    expect(turn.finished).toBe(false);
    expect(turn.response().stop_reason).toBeNull();
    expect(turn.ready).toBe(1);
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
    ]);

    const { component, counter, todos } = counterWithTodos("todo.add");
    const blocks = await igniteTools(component, anthropic).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    expect(todos).toEqual([]);
    expect(blocks.map((block) => block.is_error)).toEqual([undefined, true]);
    // The cut block goes back with input {}, which the API accepts, and is answered as cut.
    expect(turn.response().content.at(-1)).toMatchObject({ type: "tool_use", input: {} });
  });
});

describe("anthropicStream", () => {
  it("accepts the SDK's events and gives what the dialect takes", () => {
    expectTypeOf<MessageStreamEvent>().toExtend<AnthropicStreamEvent>();
    expectTypeOf<AnthropicStreamedMessage>().toExtend<AnthropicResponse>();
    expectTypeOf(anthropicStream().response()).toEqualTypeOf<AnthropicStreamedMessage>();
  });

  it("gives an empty unfinished message before any event", () => {
    const turn = anthropicStream();
    expect(turn.response()).toEqual({ stop_reason: null, content: [] });
    expect([turn.ready, turn.finished]).toEqual([0, false]);
  });

  it("throws a TypeError for something that is not an event, and ignores events it does not know", () => {
    const turn = anthropicStream();
    expect(() => turn.push("data: {}" as unknown as AnthropicStreamEvent)).toThrow(
      /anthropicStream\.push expects a Messages API stream event .*got a string/,
    );
    expect(turn.push({ type: "ping" })).toEqual([]);
    expect(
      turn.push({
        type: "content_block_delta",
        index: 7,
        delta: { type: "text_delta", text: "x" },
      }),
    ).toEqual([]);
    expect(turn.response().content).toEqual([]);
  });

  it("reads a block whose type is not a string, even one that cannot be turned into text, as a block of no known type", () => {
    const turn = anthropicStream();
    turn.push({
      type: "content_block_start",
      index: 0,
      content_block: { type: { toString: 0 } as unknown as "text", text: "" },
    });
    expect(turn.response().content).toEqual([{ type: "unknown", text: "" }]);
  });

  it("appends text to a block whose text so far is not a string without throwing", () => {
    const turn = anthropicStream();
    turn.push({
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: { toString: 0 } as unknown as string },
    });
    turn.push({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } });
    expect(turn.response().content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("keeps a complete block's input that is not JSON as text, answered InvalidInput", async () => {
    const turn = anthropicStream();
    feed(turn, [
      ...anthropicToolTurn(TODO).slice(0, 1),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t1", name: "increment", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"by": 2,' },
      },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } },
    ]);
    expect(turn.ready).toBe(1);
    expect(turn.response().content[0]).toMatchObject({ input: '{"by": 2,' });
    const counter = new Counter();
    const [block] = await igniteTools(counter, anthropic).handleToolCalls(turn.response());
    expect(block?.is_error).toBe(true);
    expect(counter.calls).toEqual([]);
  });

  it("merges blocks whose events interleave by index, each call ready once it stopped and a later one began", () => {
    const turn = anthropicStream();
    const use = (index: number, id: string): AnthropicStreamEvent => ({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id, name: "increment", input: {} },
    });
    const json = (index: number, partial_json: string): AnthropicStreamEvent => ({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json },
    });
    const deltas = feed(turn, [
      { type: "message_start" },
      use(0, "a"),
      use(1, "b"),
      json(1, '{"by": 3}'),
      json(0, '{"by": 1}'),
      { type: "content_block_stop", index: 1 },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" } },
    ]);
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      "start 1 increment",
      "ready 0 increment",
      "ready 1 increment",
    ]);
    expect(turn.response().content.map((block) => block.input)).toEqual([{ by: 1 }, { by: 3 }]);
  });

  it("reads citations, server tool input and deltas for blocks of another type as the SDK does", () => {
    const turn = anthropicStream();
    const citation = {
      type: "char_location",
      cited_text: "milk",
      document_index: 0,
      start_char_index: 0,
      end_char_index: 4,
    };
    const delta = (index: number, piece: AnthropicStreamEvent["delta"]): AnthropicStreamEvent => ({
      type: "content_block_delta",
      index,
      delta: piece,
    });
    feed(turn, [
      { type: "content_block_start", index: 0, content_block: { type: "text", citations: null } },
      delta(0, { type: "text_delta", text: "Per" }),
      delta(0, { type: "citations_delta", citation }),
      delta(0, { type: "citations_delta", citation }),
      delta(0, { type: "thinking_delta", thinking: "no" }),
      delta(0, { type: "input_json_delta", partial_json: "{" }),
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "thinking" } },
      delta(1, { type: "thinking_delta", thinking: "Hm" }),
      delta(1, { type: "text_delta", text: "no" }),
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
      },
      delta(2, { type: "input_json_delta", partial_json: '{"query":"milk"}' }),
      delta(2, { type: "text_delta", text: "no" }),
      delta(2, { type: "signature_delta", signature: "no" }),
      delta(2, { type: "citations_delta", citation }),
      { type: "content_block_stop", index: 2 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", container: null },
        usage: { output_tokens: 3, input_tokens: null },
      },
      { type: "message_stop" },
    ]);
    expect(turn.response().content).toEqual([
      { type: "text", text: "Per", citations: [citation, citation] },
      { type: "thinking", thinking: "Hm" },
      { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "milk" } },
    ]);
    expect(turn.response()).toMatchObject({ stop_reason: "end_turn", usage: { output_tokens: 3 } });
    expect(turn.response()).not.toHaveProperty("container");
    expect(turn.ready).toBe(0);
  });
});
