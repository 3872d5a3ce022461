import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  allowedTools,
  type OpenAIResponsesItem,
  openai,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import { type AgentComponent, changeNotes, igniteTools, runToolLoop } from "../../tools/index.js";
import { Counter } from "../fixtures.js";
import { oven } from "../shell/oven.js";
import { chatCompletion } from "./chat-completion.js";
import { PREHEATED_NOTE, PREHEATED_RESULT } from "./preheated.js";
import { lastOf, useRecordingServer } from "./recording-server.js";

const server = useRecordingServer();
const requests = server.received;
let client: OpenAI;

beforeAll(() => {
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
});

beforeEach(() => server.clear());

/** A component with a name OpenAI rejects and an optional property, to see strict mode work. */
function todos() {
  const received: unknown[] = [];
  const component: AgentComponent<{ received: unknown[] }> = {
    getSchema: () => ({
      commands: {
        "todo.add": {
          description: "Add a todo.",
          input: {
            type: "object",
            properties: { title: { type: "string" }, due: { type: "string" } },
            required: ["title"],
            additionalProperties: false,
          },
        },
      },
    }),
    execute: (_command, input) => {
      received.push(input);
      return { state: { received }, events: [] };
    },
  };
  return { component, received };
}

const STRICT_PARAMETERS = {
  type: "object",
  properties: {
    title: { type: "string" },
    due: { anyOf: [{ type: "string" }, { type: "null" }] },
  },
  required: ["title", "due"],
  additionalProperties: false,
};

function responsesResponse(output: unknown[]) {
  return {
    id: "resp_67ccd3a9da748190",
    object: "response",
    created_at: 1_741_476_777,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: "o4-mini-2025-04-16",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: "medium", summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: {
      input_tokens: 81,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 140,
      output_tokens_details: { reasoning_tokens: 64 },
      total_tokens: 221,
    },
    user: null,
    metadata: {},
  };
}

describe("openai against the real OpenAI SDK (Chat Completions)", () => {
  it("sends our tools, parses the SDK's response, and sends back the turn and its results", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, openai);
    const assistant = {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_7Ds7bQ",
          type: "function",
          function: { name: "setLimit", arguments: '{"value":7}' },
        },
        { id: "call_pD1pkA", type: "function", function: { name: "increment", arguments: "{}" } },
      ],
      refusal: null,
      annotations: [],
    };
    server.reply(
      chatCompletion(assistant, "tool_calls"),
      chatCompletion(
        { role: "assistant", content: "Done.", refusal: null, annotations: [] },
        "stop",
      ),
    );

    const messages: ChatCompletionMessageParam[] = [
      { role: "user", content: "Set the limit to 7, then count one." },
    ];
    const first = await client.chat.completions.create({
      model: "gpt-4o",
      messages,
      tools: bridge.toToolDefs(),
    });
    expect(requests[0]?.path).toBe("/v1/chat/completions");
    expect(requests[0]?.body.tools).toEqual(bridge.toToolDefs());

    const results = await bridge.handleToolCalls(first);
    expect(counter.calls).toEqual([
      { command: "setLimit", input: 7 },
      { command: "increment", input: { by: 1 } },
    ]);

    const second = await client.chat.completions.create({
      model: "gpt-4o",
      messages: bridge.appendTurn(messages, first, results),
      tools: bridge.toToolDefs(),
    });
    // The turn goes back as a request message: Gemini's OpenAI endpoint and strict relays
    // refuse the response-only `refusal: null` and `annotations: []`.
    const { refusal: _refusal, annotations: _annotations, ...request } = assistant;
    expect(requests[1]?.body.messages).toStrictEqual([
      { role: "user", content: "Set the limit to 7, then count one." },
      request,
      {
        role: "tool",
        tool_call_id: "call_7Ds7bQ",
        content:
          '{"snapshot":{"count":0,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
      },
      {
        role: "tool",
        tool_call_id: "call_pD1pkA",
        content:
          '{"snapshot":{"count":1,"limit":7,"locked":false},"events":[{"type":"incremented","payload":{"by":1}}]}',
      },
    ]);
    expect(bridge.parseToolCalls(second)).toEqual([]);
    expect(second.choices[0]?.message.content).toBe("Done.");
  });

  it("through allowedTools sends every tool each turn and the available ones as tool_choice allowed_tools", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, allowedTools(openai));
    const reset = { id: "call_r", type: "function", function: { name: "reset", arguments: "{}" } };
    const calls = { role: "assistant", content: null, refusal: null, tool_calls: [reset] };
    server.reply(chatCompletion(calls, "tool_calls"), chatCompletion(calls, "tool_calls"));
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "Reset it." }];

    const first = await client.chat.completions.create({
      model: "gpt-4.1",
      messages,
      ...bridge.toToolDefs(),
    });
    const [refused] = await bridge.answerToolCalls(first);
    counter.state = { ...counter.state, count: 2 };
    await client.chat.completions.create({ model: "gpt-4.1", messages, ...bridge.toToolDefs() });

    expect(requests[1]?.body.tools).toStrictEqual(requests[0]?.body.tools);
    expect(requests[0]?.body.tools).toHaveLength(4);
    const allowed = (...names: string[]) => ({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: names.map((name) => ({ type: "function", function: { name } })),
      },
    });
    expect(requests[0]?.body.tool_choice).toStrictEqual(allowed("increment", "setLimit"));
    expect(requests[1]?.body.tool_choice).toStrictEqual(allowed("increment", "reset", "setLimit"));
    expect(refused?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
  });

  it("sends a note of what changed outside the calls as a user message after the tool messages", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, openai);
    server.reply(
      chatCompletion(
        {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: "call_Preheat4kQ",
              type: "function",
              function: { name: "preheat", arguments: '{"target":180}' },
            },
          ],
        },
        "tool_calls",
      ),
      chatCompletion({ role: "assistant", content: "Preheating.", refusal: null }, "stop"),
    );

    const result = await runToolLoop({
      tools,
      model: ({ tools, messages, signal, turn }) => {
        if (turn === 1) world.preheated();
        return client.chat.completions.create({ model: "gpt-4o", tools, messages }, { signal });
      },
      messages: [{ role: "user", content: "Bake bread." }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told).toBe(PREHEATED_NOTE);
    expect(lastOf(requests[1]?.body.messages, 2)).toEqual([
      { role: "tool", tool_call_id: "call_Preheat4kQ", content: PREHEATED_RESULT },
      { role: "user", content: PREHEATED_NOTE },
    ]);
  });

  it("in strict mode sends every property required, optional ones nullable, and drops the model's nulls", async () => {
    const { component, received } = todos();
    const bridge = igniteTools(component, openai({ strict: true }));
    const [tool] = bridge.toToolDefs();
    const name = tool?.function.name ?? "";
    expect(name).toMatch(/^todo_add_/);
    server.reply(
      chatCompletion(
        {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name, arguments: '{"title":"milk","due":null}' },
            },
          ],
        },
        "tool_calls",
      ),
    );
    const response = await client.chat.completions.create({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Remind me to buy milk." }],
      tools: bridge.toToolDefs(),
    });
    expect(requests[0]?.body.tools).toEqual([
      {
        type: "function",
        function: { name, description: "Add a todo.", parameters: STRICT_PARAMETERS, strict: true },
      },
    ]);
    const [result] = await bridge.handleToolCalls(response);
    expect(received).toEqual([{ title: "milk" }]);
    expect(result).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: '{"snapshot":{"received":[{"title":"milk"}]},"events":[]}',
    });
  });
});

describe("openaiResponses against the real OpenAI SDK (Responses API)", () => {
  it("sends our tools, parses the SDK's response, and re-sends reasoning and calls with the outputs", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, openaiResponses);
    const output = [
      {
        id: "rs_67ccd3acc8d48190",
        type: "reasoning",
        summary: [{ type: "summary_text", text: "Set the limit, then count." }],
        encrypted_content: "gAAAAABnzNOs-encrypted-reasoning",
      },
      {
        id: "fc_67ccd3af2a14",
        type: "function_call",
        status: "completed",
        call_id: "call_unLAR8MvFNptuiZK6K6HCy5k",
        name: "setLimit",
        arguments: '{"value":7}',
      },
      {
        id: "fc_67ccd3af9f90",
        type: "function_call",
        status: "completed",
        call_id: "call_H7mZpR9yA2bBpQx4",
        name: "increment",
        arguments: '{"by":2}',
      },
    ];
    server.reply(
      responsesResponse(output),
      responsesResponse([
        {
          id: "msg_67ccd3b4",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Done.", annotations: [] }],
        },
      ]),
    );

    const input: OpenAIResponsesItem[] = [
      { role: "user", content: "Set the limit to 7, count two." },
    ];
    const first = await client.responses.create({
      model: "o4-mini",
      input,
      tools: bridge.toToolDefs(),
      include: ["reasoning.encrypted_content"],
      store: false,
    });
    expect(requests[0]?.path).toBe("/v1/responses");
    expect(requests[0]?.body.tools).toEqual(bridge.toToolDefs());
    expect(requests[0]?.body.tools).toEqual([
      expect.objectContaining({ type: "function", name: "increment", strict: false }),
      expect.objectContaining({ type: "function", name: "setLimit", strict: false }),
    ]);

    const results = await bridge.handleToolCalls(first);
    expect(counter.calls).toEqual([
      { command: "setLimit", input: 7 },
      { command: "increment", input: { by: 2 } },
    ]);

    const next = await client.responses.create({
      model: "o4-mini",
      input: bridge.appendTurn(input, first, results),
      tools: bridge.toToolDefs(),
      store: false,
    });
    expect(requests[1]?.body.input).toEqual([
      { role: "user", content: "Set the limit to 7, count two." },
      ...output,
      {
        type: "function_call_output",
        call_id: "call_unLAR8MvFNptuiZK6K6HCy5k",
        output:
          '{"snapshot":{"count":0,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
      },
      {
        type: "function_call_output",
        call_id: "call_H7mZpR9yA2bBpQx4",
        output:
          '{"snapshot":{"count":2,"limit":7,"locked":false},"events":[{"type":"incremented","payload":{"by":2}}]}',
      },
    ]);
    expect(bridge.parseToolCalls(next)).toEqual([]);
    expect(next.output_text).toBe("Done.");
  });

  it("through allowedTools sends every tool each turn and the available ones as tool_choice allowed_tools", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, allowedTools(openaiResponses));
    server.reply(responsesResponse([]), responsesResponse([]));

    await client.responses.create({ model: "o4-mini", input: "Count.", ...bridge.toToolDefs() });
    counter.state = { ...counter.state, locked: true, count: 1 };
    await client.responses.create({ model: "o4-mini", input: "Count.", ...bridge.toToolDefs() });

    expect(requests[0]?.path).toBe("/v1/responses");
    expect(requests[1]?.body.tools).toStrictEqual(requests[0]?.body.tools);
    expect(requests[0]?.body.tool_choice).toStrictEqual({
      type: "allowed_tools",
      mode: "auto",
      tools: [
        { type: "function", name: "increment" },
        { type: "function", name: "setLimit" },
      ],
    });
    expect(requests[1]?.body.tool_choice).toBe("auto");
  });

  it("sends a note of what changed outside the calls as a user message item after the outputs", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, openaiResponses);
    server.reply(
      responsesResponse([
        {
          id: "fc_67ccd3b1preheat",
          type: "function_call",
          status: "completed",
          call_id: "call_Preheat9mW",
          name: "preheat",
          arguments: '{"target":180}',
        },
      ]),
      responsesResponse([
        {
          id: "msg_67ccd3b9",
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "Preheating.", annotations: [] }],
        },
      ]),
    );

    const result = await runToolLoop({
      tools,
      model: ({ tools, messages, signal, turn }) => {
        if (turn === 1) world.preheated();
        return client.responses.create(
          { model: "o4-mini", input: messages, tools, store: false },
          { signal },
        );
      },
      messages: [{ role: "user", content: "Bake bread." }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told).toBe(PREHEATED_NOTE);
    expect(lastOf(requests[1]?.body.input, 2)).toEqual([
      { type: "function_call_output", call_id: "call_Preheat9mW", output: PREHEATED_RESULT },
      { type: "message", role: "user", content: [{ type: "input_text", text: PREHEATED_NOTE }] },
    ]);
  });

  it("in strict mode sends every property required, optional ones nullable, and drops the model's nulls", async () => {
    const { component, received } = todos();
    const bridge = igniteTools(component, openaiResponses({ strict: true }));
    const name = bridge.toToolDefs()[0]?.name ?? "";
    server.reply(
      responsesResponse([
        {
          id: "fc_1",
          type: "function_call",
          status: "completed",
          call_id: "call_1",
          name,
          arguments: '{"title":"milk","due":null}',
        },
      ]),
    );
    const response = await client.responses.create({
      model: "o4-mini",
      input: "Remind me to buy milk.",
      tools: bridge.toToolDefs(),
    });
    expect(requests[0]?.body.tools).toEqual([
      {
        type: "function",
        name,
        description: "Add a todo.",
        parameters: STRICT_PARAMETERS,
        strict: true,
      },
    ]);
    const [result] = await bridge.handleToolCalls(response);
    expect(received).toEqual([{ title: "milk" }]);
    expect(result).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: '{"snapshot":{"received":[{"title":"milk"}]},"events":[]}',
    });
  });
});
