import Anthropic from "@anthropic-ai/sdk";
import type {
  Message,
  MessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnthropicMessage, anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { changeNotes, igniteTools, runToolLoop } from "../../tools/index.js";
import { counterWithTodos } from "../fixtures.js";
import { oven } from "../shell/oven.js";
import { PREHEATED_NOTE, PREHEATED_RESULT } from "./preheated.js";
import { useRecordingServer } from "./recording-server.js";

// Recorded Messages API responses, as the API sends them (the SDK does not reshape them).
const toolTurn: Message = {
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-6",
  container: null,
  diagnostics: null,
  stop_details: null,
  stop_reason: "tool_use",
  stop_sequence: null,
  content: [
    {
      type: "thinking",
      thinking: "Increment by two, set the limit to 7 and note the errand.",
      signature: "EuYBCkQYAiJAgCs1le6/Pol5Z4/JMomVOouGrWdhYNsH3ukzUECbB6iWrSQtsQuRHJID6lWV",
    },
    { type: "text", text: "I'll do all three.", citations: null },
    {
      type: "tool_use",
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "increment",
      input: { by: 2 },
      caller: { type: "direct" },
    },
    {
      type: "tool_use",
      id: "toolu_01B2c3d4e5f6g7h8i9j0k1l2",
      name: "setLimit",
      input: { value: 7 },
      caller: { type: "direct" },
    },
    {
      type: "tool_use",
      id: "toolu_01M3n4o5p6q7r8s9t0u1v2w3",
      name: "todo_add_10sxn00",
      input: { value: "buy milk" },
      caller: { type: "direct" },
    },
  ],
  usage: {
    cache_creation: null,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    inference_geo: null,
    input_tokens: 512,
    output_tokens: 148,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: "standard",
    speed: null,
  },
};

const finalTurn: Message = {
  ...toolTurn,
  id: "msg_02",
  stop_reason: "end_turn",
  content: [{ type: "text", text: "Done: count 2, limit 7, milk noted.", citations: null }],
};

/** What the fake server keeps of a request; the body is as the SDK sent it, unchecked. */
interface Received {
  method: string;
  url: string;
  authorized: boolean;
  body: Partial<MessageCreateParamsNonStreaming>;
}

const server = useRecordingServer({
  record: ({ method, path, headers, body }): Received => ({
    method,
    url: path,
    // SDK 1.16.0 sends the key as a bearer token; older versions used x-api-key.
    authorized: headers.authorization === "Bearer test-key" || headers["x-api-key"] === "test-key",
    body: body as Partial<MessageCreateParamsNonStreaming>,
  }),
});
const received = server.received;
let client: Anthropic;

beforeAll(() => {
  server.reply(toolTurn, finalTurn);
  client = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
});

describe("anthropic with the real @anthropic-ai/sdk client", () => {
  it("runs a tool turn through messages.create and sends the results back", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, anthropic);
    const tools = bridge.toToolDefs();
    expect(tools.map((tool) => tool.name)).toEqual(["increment", "setLimit", "todo_add_10sxn00"]);

    const messages: AnthropicMessage[] = [
      { role: "user", content: "Count to two, cap it at 7, and remember milk." },
    ];
    const request = { model: "claude-sonnet-4-6", max_tokens: 1024, tools };
    const first = await client.messages.create({ ...request, messages });

    expect(received[0]).toMatchObject({ method: "POST", url: "/v1/messages", authorized: true });
    expect(received[0]?.body.tools).toEqual(tools);
    expect(received[0]?.body.messages).toEqual(messages);
    expect(first).toEqual(toolTurn);

    const results = await bridge.handleToolCalls(first);
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "setLimit", input: 7 },
    ]);
    expect(todos).toEqual(["buy milk"]);
    expect(results.map((result) => [result.tool_use_id, result.is_error])).toEqual([
      ["toolu_01A09q90qw90lq917835lq9", undefined],
      ["toolu_01B2c3d4e5f6g7h8i9j0k1l2", undefined],
      ["toolu_01M3n4o5p6q7r8s9t0u1v2w3", undefined],
    ]);

    const next = bridge.appendTurn(messages, first, results);
    const second = await client.messages.create({ ...request, messages: next });
    expect(second.content).toEqual(finalTurn.content);

    const sent = received[1]?.body.messages;
    expect(sent).toHaveLength(3);
    expect(sent?.[0]).toEqual(messages[0]);
    // The assistant turn exactly as received: thinking block and signature included.
    expect(sent?.[1]).toEqual({ role: "assistant", content: toolTurn.content });
    expect(sent?.[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01A09q90qw90lq917835lq9",
          content: '{"snapshot":{"count":2,"limit":10,"locked":false,"todos":[]},"events":[]}',
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_01B2c3d4e5f6g7h8i9j0k1l2",
          content: '{"snapshot":{"count":2,"limit":7,"locked":false,"todos":[]},"events":[]}',
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_01M3n4o5p6q7r8s9t0u1v2w3",
          content:
            '{"snapshot":{"count":2,"limit":7,"locked":false,"todos":["buy milk"]},"events":[]}',
        },
      ],
    });
  });

  it("sends a note of what changed outside the calls as a text block after the tool_result blocks", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, anthropic);
    const preheating: Message = {
      ...toolTurn,
      id: "msg_03",
      content: [
        {
          type: "tool_use",
          id: "toolu_01Preheat7q3Lz8WmN2kX4vB",
          name: "preheat",
          input: { target: 180 },
          caller: { type: "direct" },
        },
      ],
    };
    server.reply(preheating, finalTurn);
    const start = received.length;

    const result = await runToolLoop({
      tools,
      model: ({ tools, messages, signal, turn }) => {
        if (turn === 1) world.preheated();
        return client.messages.create(
          { model: "claude-sonnet-4-6", max_tokens: 1024, tools, messages },
          { signal },
        );
      },
      messages: [{ role: "user", content: "Bake bread." }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told).toBe(PREHEATED_NOTE);
    expect(received[start + 1]?.body.messages?.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01Preheat7q3Lz8WmN2kX4vB",
          content: PREHEATED_RESULT,
        },
        { type: "text", text: PREHEATED_NOTE },
      ],
    });
  });
});
