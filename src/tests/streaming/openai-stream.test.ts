import OpenAI from "openai";
import type { ChatCompletionStream } from "openai/lib/ChatCompletionStream";
import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  type OpenAIChatMessage,
  type OpenAIChatResponse,
  openai,
} from "../../tools/dialects/openai/dialect.js";
import {
  type OpenAIChatChunk,
  type OpenAIChatStreamedResponse,
  openaiStream,
} from "../../tools/dialects/openai/stream.js";
import { igniteTools } from "../../tools/index.js";
import { Counter, counterWithTodos } from "../fixtures.js";
import { callEvents, drain, feed, joined } from "./drain.js";
import {
  chatCutTurn,
  chatFinalTurn,
  chatInterleavedCutTurn,
  chatToolCompletion,
  chatToolTurn,
  opens,
  piece,
} from "./recordings/openai.js";
import { brokenAfter, json, sse, useReplayServer } from "./replay-server.js";

const TODO = "todo_add_10sxn00";
const events = (chunks: readonly ChatCompletionChunk[]) =>
  sse(
    chunks.map((data) => ({ data })),
    "[DONE]",
  );

const server = useReplayServer();
let client: OpenAI;
const request = { model: "gpt-4o", stream_options: { include_usage: true } };

beforeAll(() => {
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
});

/** The SDK's final completion without `message.parsed`, the SDK's own structured-output field. */
async function finalChatCompletion(stream: ChatCompletionStream<null>) {
  const completion = await stream.finalChatCompletion();
  return {
    ...completion,
    choices: completion.choices.map(({ message: { parsed: _, ...message }, ...choice }) => ({
      ...choice,
      message,
    })),
  };
}

describe("openaiStream with the openai SDK streaming Chat Completions from 127.0.0.1", () => {
  it("merges interleaved parallel calls by index into what finalChatCompletion() and create() give", async () => {
    server.play(events(chatToolTurn(TODO)), json(chatToolCompletion(TODO)));
    const stream = client.chat.completions.stream({ ...request, messages: [] });
    const turn = openaiStream();
    const { deltas, error } = await drain(stream, turn);

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    expect(turn.response()).toEqual(await finalChatCompletion(stream));
    expect(turn.response()).toEqual(
      await client.chat.completions.create({ model: "gpt-4o", messages: [] }),
    );
    expect(server.received[0]?.body).toMatchObject({ stream: true });

    expect(joined(deltas, "text")).toBe("On it.");
    // A call is ready when its arguments close, and only after every call before it.
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
      "start 2 reset",
      `ready 1 ${TODO}`,
      "ready 2 reset",
    ]);
    expect(deltas.filter((delta) => delta.type === "tool-call-delta" && delta.index === 1)).toEqual(
      [
        { type: "tool-call-delta", index: 1, arguments: '{"value":"buy \\' },
        { type: "tool-call-delta", index: 1, arguments: '"oat\\" milk \\u00e9"' },
        { type: "tool-call-delta", index: 1, arguments: "}" },
      ],
    );
  });

  it("runs the streamed calls and sends the assistant message back as the API returned it", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, openai);
    server.play(events(chatToolTurn(TODO)), events(chatFinalTurn));
    const messages: OpenAIChatMessage[] = [
      { role: "user", content: "Count two, note milk, reset." },
    ];

    const first = openaiStream();
    await drain(
      client.chat.completions.stream({ ...request, tools: bridge.toToolDefs(), messages }),
      first,
    );
    const results = await bridge.handleToolCalls(first.response());
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "reset", input: undefined },
    ]);
    expect(todos).toEqual(['buy "oat" milk é']);

    const next = bridge.appendTurn(messages, first.response(), results);
    const second = openaiStream();
    await drain(client.chat.completions.stream({ ...request, messages: next }), second);
    // Exactly what the dialect sends after the same turn unstreamed.
    expect(server.received[1]?.body.messages).toEqual(
      JSON.parse(JSON.stringify(bridge.appendTurn(messages, chatToolCompletion(TODO), results))),
    );
    expect(bridge.parseToolCalls(second.response())).toEqual([]);
    expect(second.response().choices[0]?.message.content).toBe("Done.");
  });

  it("never runs the call finish_reason length cut, and equals finalChatCompletion()", async () => {
    server.play(events(chatCutTurn));
    const stream = client.chat.completions.stream({ ...request, messages: [] });
    const turn = openaiStream();
    const { deltas } = await drain(stream, turn);

    expect(turn.response()).toEqual(await finalChatCompletion(stream));
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      "ready 0 increment",
      "start 1 increment",
    ]);
    const counter = new Counter();
    const blocks = await igniteTools(counter, openai).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    expect(blocks[1]?.content).toContain("InvalidInput");
  });

  it("leaves out a call streamed after the one finish_reason length cut, complete or not, and runs neither", async () => {
    server.play(events(chatInterleavedCutTurn(TODO)));
    const stream = client.chat.completions.stream({ ...request, messages: [] });
    const turn = openaiStream();
    const { deltas, error } = await drain(stream, turn);

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    // The second call closed, but calls run in the model's order: never before the first.
    expect(callEvents(deltas)).toEqual([`start 0 ${TODO}`, "start 1 increment"]);
    expect(turn.ready).toBe(0);
    const [choice] = turn.response().choices;
    expect(choice?.finish_reason).toBe("length");
    // As if the output had stopped in the first call: the SDK's own final completion keeps both.
    expect(choice?.message.tool_calls?.map((call) => call.id)).toEqual(["call_1"]);
    const sdk = (await finalChatCompletion(stream)).choices[0]?.message.tool_calls;
    expect(sdk?.map((call) => call.id)).toEqual(["call_1", "call_2"]);

    const { component, counter, todos } = counterWithTodos("todo.add");
    const blocks = await igniteTools(component, openai).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([]);
    expect(todos).toEqual([]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(blocks[0]?.content).toContain("InvalidInput");
  });

  it("answers calls a lost connection cut InvalidInput, even one with no argument text yet", async () => {
    const recorded = chatToolTurn(TODO);
    // Dropped after `reset` opened and closed, while the todo call's string was still open.
    const cutAt = recorded.findIndex(
      (chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments === "{}",
    );
    server.play(brokenAfter(events(recorded), cutAt + 1));
    const turn = openaiStream();
    const { deltas, error } = await drain(
      client.chat.completions.stream({ ...request, messages: [] }),
      turn,
    );

    expect(error).toBeInstanceOf(Error);
    expect(turn.finished).toBe(false);
    expect(turn.ready).toBe(1);
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
      "start 2 reset",
    ]);
    // Read as cut at the first unfinished call: `reset`, streamed after it, is not in the turn.
    const message = turn.response().choices[0];
    expect(message?.finish_reason).toBe("length");
    expect(message?.message.tool_calls?.map((call) => call.id)).toEqual([
      "call_DdmO9pD3xa9XTPNJ32zg2hcA",
      "call_ABcdEF0123456789ghijKLMN",
    ]);

    const { component, counter, todos } = counterWithTodos("todo.add");
    const blocks = await igniteTools(component, openai).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    expect(todos).toEqual([]);
    expect(blocks[1]?.content).toContain("InvalidInput");

    // A call that had only opened when the stream broke is cut too, never read as `{}`.
    const opened = openaiStream();
    feed(opened, [...recorded.slice(0, 4)]);
    const [call] = igniteTools(new Counter(), openai).parseToolCalls(opened.response());
    expect(call?.inputError).toMatch(/cut off/);
  });
});

describe("openaiStream", () => {
  it("accepts the SDK's chunks and gives what the dialect takes", () => {
    expectTypeOf<ChatCompletionChunk>().toExtend<OpenAIChatChunk>();
    expectTypeOf<OpenAIChatStreamedResponse>().toExtend<OpenAIChatResponse>();
    expectTypeOf(openaiStream().response()).toEqualTypeOf<OpenAIChatStreamedResponse>();
  });

  it("throws a TypeError for something that is not a chunk, and gives no choice before one", () => {
    const turn = openaiStream();
    expect(turn.response()).toEqual({ object: "chat.completion", choices: [] });
    expect(() => turn.push({ data: "{}" } as unknown as OpenAIChatChunk)).toThrow(
      /openaiStream\.push expects a Chat Completions stream chunk/,
    );
  });

  it("keeps id and name from the first piece, reads servers that send them late or whole", () => {
    const turn = openaiStream();
    const deltas = feed(turn, [
      {
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"by"' } }] } },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, id: "late", function: { name: "increment" } }] },
          },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, id: "", type: "", function: { name: "", arguments: ":1}" } },
              ],
            },
          },
        ],
      },
      opens(1, "whole", "increment"),
      piece(1, '{"by":3}'),
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ]);
    expect(turn.response().choices[0]?.message.tool_calls).toEqual([
      { id: "late", type: "function", function: { name: "increment", arguments: '{"by":1}' } },
      { id: "whole", type: "function", function: { name: "increment", arguments: '{"by":3}' } },
    ]);
    expect(deltas.filter((delta) => delta.type === "tool-call-ready")).toEqual([
      { type: "tool-call-ready", index: 0, id: "late", name: "increment" },
      { type: "tool-call-ready", index: 1, id: "whole", name: "increment" },
    ]);
  });

  it("makes ready at the finish the calls whose arguments never closed, as the dialect reads them", () => {
    const turn = openaiStream();
    const deltas = feed(turn, [
      opens(0, "a", "reset"),
      opens(1, "b", "increment"),
      piece(1, '{"by": 2} trailing'),
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ]);
    expect(callEvents(deltas)).toEqual([
      "start 0 reset",
      "start 1 increment",
      "ready 0 reset",
      "ready 1 increment",
    ]);
    const calls = igniteTools(new Counter(), openai).parseToolCalls(turn.response());
    expect(calls.map((call) => call.inputError)).toEqual([
      undefined,
      "arguments were not valid JSON (possibly cut off); send a complete JSON object",
    ]);
  });

  it("keeps every choice, log probabilities and refusals as the SDK does, reporting the first", () => {
    const turn = openaiStream();
    const logprob = { token: "No", logprob: -0.1, bytes: [78, 111], top_logprobs: [] };
    const deltas = feed(turn, [
      {
        choices: [
          {
            index: 1,
            delta: { role: "assistant", content: "Other" },
            logprobs: { content: [logprob], refusal: null },
          },
        ],
      },
      {
        choices: [
          { index: 0, delta: { refusal: "No" }, logprobs: { content: null, refusal: [logprob] } },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: { refusal: "pe" },
            logprobs: { content: [logprob], refusal: [logprob] },
          },
        ],
      },
      {
        choices: [
          {
            index: 1,
            delta: {
              tool_calls: [{ index: 0, id: "c", function: { name: "reset", arguments: "{}" } }],
            },
            finish_reason: "tool_calls",
            logprobs: { content: [logprob], refusal: null },
          },
        ],
      },
      {
        choices: [{ index: 1, delta: { tool_calls: [{ index: 0, function: { name: "reset" } }] } }],
      },
    ]);
    // The second choice's calls are kept, but only the first choice's are the turn's.
    expect(deltas).toEqual([]);
    expect(turn.ready).toBe(0);
    expect(turn.response().choices).toEqual([
      {
        index: 0,
        finish_reason: "length",
        logprobs: { content: [logprob], refusal: [logprob, logprob] },
        message: { role: "assistant", content: null, refusal: "Nope" },
      },
      {
        index: 1,
        finish_reason: "tool_calls",
        logprobs: { content: [logprob, logprob], refusal: null },
        message: {
          role: "assistant",
          content: "Other",
          refusal: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "reset", arguments: "{}" } }],
        },
      },
    ]);
  });
});
