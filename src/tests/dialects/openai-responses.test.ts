import type {
  Response as OpenAIResponse,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import {
  type OpenAIResponsesItem,
  type OpenAIResponsesResponse,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import { err, igniteTools, type NeutralToolCall, ok } from "../../tools/index.js";
import { Counter, LONG, named, oneErrorOfEachKind } from "../fixtures.js";

/** A Responses API response as the SDK types it, with every required field. */
function response(
  output: ResponseOutputItem[],
  extra: Partial<OpenAIResponse> = {},
): OpenAIResponse {
  return {
    id: "resp_67ccd2bed1ec8190",
    object: "response",
    created_at: 1_741_476_542,
    status: "completed",
    model: "gpt-5",
    output,
    output_text: "",
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: null,
    top_p: null,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 40,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 12,
      output_tokens_details: { reasoning_tokens: 8 },
      total_tokens: 52,
    },
    ...extra,
  };
}

function call(call_id: string, name: string, args: string): ResponseFunctionToolCall {
  return {
    type: "function_call",
    id: `fc_${call_id}`,
    call_id,
    name,
    arguments: args,
    status: "completed",
  };
}

const reasoning: ResponseReasoningItem = {
  type: "reasoning",
  id: "rs_1",
  summary: [{ type: "summary_text", text: "Two steps: count, then limit." }],
  encrypted_content: "gAAAAABo-encrypted",
};

const message: ResponseOutputMessage = {
  type: "message",
  id: "msg_1",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text: "On it.", annotations: [] }],
};

/** A response outside the SDK's types (malformed JSON), as parsed JSON. */
function loose(value: unknown): OpenAIResponsesResponse {
  return value as OpenAIResponsesResponse;
}

describe("openaiResponses.toToolDefs", () => {
  it("offers each available command as a flat function tool with strict: false by default", () => {
    expect(igniteTools(new Counter(), openaiResponses).toToolDefs()).toEqual([
      {
        type: "function",
        name: "increment",
        description: "Add `by` (default 1) to the count.",
        parameters: {
          type: "object",
          properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
          additionalProperties: false,
        },
        strict: false,
      },
      {
        type: "function",
        name: "setLimit",
        description: "Set the highest count allowed.",
        parameters: {
          type: "object",
          properties: { value: { type: "number", minimum: 0, maximum: 12 } },
          required: ["value"],
          additionalProperties: false,
        },
        strict: false,
      },
    ]);
  });

  it("maps names OpenAI rejects to distinct safe names and leaves out a missing description", () => {
    const defs = igniteTools(named(), openaiResponses).toToolDefs();
    const names = defs.map((tool) => tool.name);
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const long = defs.find((tool) => tool.name.startsWith("abbb"));
    expect(long).toEqual({
      type: "function",
      name: long?.name,
      parameters: { type: "object", properties: {}, additionalProperties: false },
      strict: false,
    });
  });

  it("sends strict: true where strict mode can express the schema, and strict: false elsewhere", () => {
    const defs = igniteTools(named(), openaiResponses({ strict: true })).toToolDefs();
    expect(defs.find((tool) => tool.name === "note")).toEqual({
      type: "function",
      name: "note",
      parameters: {
        type: "object",
        properties: {
          value: { type: "string" },
          tag: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        required: ["value", "tag"],
        additionalProperties: false,
      },
      strict: true,
    });
    const open = defs.find((tool) => tool.name.startsWith("set_limit_"));
    expect(open).toMatchObject({ strict: false, parameters: { required: ["n"] } });
    expect(open?.parameters).not.toHaveProperty("additionalProperties");
  });
});

describe("openaiResponses.parseToolCalls", () => {
  it("reads every function_call item in order by call_id, skipping reasoning and messages", () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const calls = tools.parseToolCalls(
      response([
        reasoning,
        call("call_a", "increment", '{"by":2}'),
        message,
        call("call_b", "setLimit", '{"value":7}'),
        { type: "custom_tool_call", call_id: "cu", name: "increment", input: "by 1" },
        {
          type: "web_search_call",
          id: "ws_1",
          status: "completed",
          action: { type: "search", query: "x" },
        },
      ]),
    );
    expect(calls).toEqual([
      { id: "call_a", name: "increment", input: { by: 2 } },
      { id: "call_b", name: "setLimit", input: 7 },
    ]);
  });

  it("unwraps a scalar command's { value } but not an object command's own value property", () => {
    const tools = igniteTools(named(), openaiResponses);
    const todo = tools.toToolDefs().find((tool) => tool.description === "Add a todo.");
    const calls = tools.parseToolCalls(
      response([
        call("1", todo?.name ?? "", '{"value":"milk"}'),
        call("2", "note", '{"value":"hi"}'),
        call("3", todo?.name ?? "", "{}"),
      ]),
    );
    expect(calls[0]).toEqual({ id: "1", name: "todo.add", toolName: todo?.name, input: "milk" });
    expect(calls[1]).toEqual({ id: "2", name: "note", input: { value: "hi" } });
    expect(calls[2]).toMatchObject({ inputError: 'arguments must be an object { "value": ... }' });
  });

  it("maps provider names back to commands and keeps the name the model used", () => {
    const tools = igniteTools(named(), openaiResponses);
    const defs = tools.toToolDefs();
    const calls = tools.parseToolCalls(
      response(defs.map((tool, index) => call(`c${index}`, tool.name, '{"value":"x","n":1}'))),
    );
    expect(calls.map((parsed) => parsed.name).sort()).toEqual(
      ["note", "set limit", "todo add", "todo.add", LONG].sort(),
    );
    for (const parsed of calls) {
      const sent = defs[Number(parsed.id?.slice(1))]?.name;
      expect(parsed.toolName ?? parsed.name).toBe(sent);
    }
  });

  it("answers a name that was never offered UnknownCommand, with its call_id", async () => {
    const tools = igniteTools(named(), openaiResponses);
    const [result] = await tools.handleToolCalls(
      response([call("x1", "todo_add", '{"value":"a"}')]),
    );
    expect(result).toEqual({
      type: "function_call_output",
      call_id: "x1",
      output:
        'Error (UnknownCommand): Unknown command "todo_add". Call one of the tools you were offered.',
    });
  });

  it("returns no calls for a text answer, a refusal and an empty output", () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    expect(tools.parseToolCalls(response([message]))).toEqual([]);
    const refusal: ResponseOutputMessage = {
      ...message,
      content: [{ type: "refusal", refusal: "I can't help with that." }],
    };
    expect(tools.parseToolCalls(response([reasoning, refusal]))).toEqual([]);
    expect(tools.parseToolCalls(response([]))).toEqual([]);
    expect(tools.parseToolCalls(loose({ output: [null, "x", 3] }))).toEqual([]);
  });

  it("turns arguments it cannot read into an input error, never a throw", () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const calls = tools.parseToolCalls(
      response([
        call("1", "increment", "null"),
        call("2", "increment", "{bad"),
        call("3", "increment", "[1]"),
        call("4", "increment", '{"by":'),
        call("5", "increment", ""),
      ]),
    );
    expect(calls.map((parsed) => parsed.inputError)).toEqual([
      "arguments must be a JSON object, not null",
      "arguments were not valid JSON (possibly cut off); send a complete JSON object",
      "arguments must be a JSON object, not an array",
      "arguments were not valid JSON (possibly cut off); send a complete JSON object",
      undefined,
    ]);
    expect(calls[4]).toEqual({ id: "5", name: "increment", input: {} });
  });

  it("never runs a call that max_output_tokens cut off, whatever is left of it", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, openaiResponses);
    const cut = "arguments were cut off by the output limit; send the call again in full";
    const truncated = response(
      [
        reasoning,
        call("a", "increment", ""),
        { ...call("b", "increment", ""), status: "incomplete" },
      ],
      { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
    );
    const calls = tools.parseToolCalls(truncated);
    expect(calls).toEqual([
      { id: "a", name: "increment", input: {} },
      { id: "b", name: "increment", input: undefined, inputError: cut },
    ]);
    const last = response([call("c", "increment", "")], {
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    expect(tools.parseToolCalls(last)[0]?.inputError).toBe(cut);
    const partial = response([{ ...call("d", "increment", '{"by":2'), status: "incomplete" }], {
      status: "incomplete",
    });
    const [result] = await tools.handleToolCalls(partial);
    expect(result?.output).toMatch(/^Error \(InvalidInput\): Invalid input for "increment"/);
    expect(counter.calls).toEqual([]);
  });

  it("reads an item without a name or call_id as an unknown command, answered with an empty call_id", async () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const results = await tools.handleToolCalls(
      loose({
        output: [
          { type: "function_call", arguments: "{}" },
          { type: "function_call", name: 3 },
        ],
      }),
    );
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.call_id).toBe("");
      expect(result.output).toMatch(/^Error \(UnknownCommand\): Unknown command ""/);
    }
  });

  it("ignores unknown fields on the response and on items", () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const item = { ...call("1", "increment", '{"by":1}'), namespace: "ns", future: { x: 1 } };
    const extended = { ...response([item]), service_tier: "default" as const, future_field: true };
    expect(tools.parseToolCalls(extended)).toEqual([
      { id: "1", name: "increment", input: { by: 1 } },
    ]);
  });

  it("maps strict-mode nulls of optional properties back to absent", () => {
    const tools = igniteTools(named(), openaiResponses({ strict: true }));
    expect(
      tools.parseToolCalls(response([call("1", "note", '{"value":"hi","tag":null}')])),
    ).toEqual([{ id: "1", name: "note", input: { value: "hi" } }]);
  });

  it("throws a TypeError saying what to pass when the response is not a Responses API response", () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const expected =
      "openaiResponses.parseToolCalls expects a Responses API response (the parsed JSON with an `output` array), got";
    expect(() => tools.parseToolCalls(loose(new Response("{}")))).toThrow(
      new TypeError(`${expected} a Response (pass \`await response.json()\`)`),
    );
    expect(() => tools.parseToolCalls(loose("{}"))).toThrow(new TypeError(`${expected} a string`));
    expect(() => tools.parseToolCalls(loose(undefined))).toThrow(
      new TypeError(`${expected} undefined`),
    );
    expect(() => tools.parseToolCalls(loose({ choices: [] }))).toThrow(
      new TypeError(`${expected} an object of another shape`),
    );
  });
});

describe("openaiResponses.toToolResult", () => {
  const increment: NeutralToolCall = { id: "call_1", name: "increment", input: {} };

  it("answers a success with the observation as compact JSON", () => {
    expect(openaiResponses.toToolResult(increment, ok({ snapshot: 1, events: [] }))).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: '{"snapshot":1,"events":[]}',
    });
  });

  it("answers each error kind with a text the model can act on, and an empty call_id without an id", () => {
    const errors = oneErrorOfEachKind;
    const anonymous = { name: "x", input: {} };
    expect(errors.map((error) => openaiResponses.toToolResult(anonymous, err(error)))).toEqual([
      {
        type: "function_call_output",
        call_id: "",
        output: 'Error (UnknownCommand): Unknown command "explode".',
      },
      {
        type: "function_call_output",
        call_id: "",
        output: 'Error (Unavailable): Command "reset" is not available.',
      },
      {
        type: "function_call_output",
        call_id: "",
        output:
          'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
      },
      {
        type: "function_call_output",
        call_id: "",
        output: 'Error (ExecuteFailed): Command "save" failed: disk full',
      },
      {
        type: "function_call_output",
        call_id: "",
        output:
          'Error (Denied): Command "wipe" was denied: not on weekends. It did not run; do not call it again with the same input.',
      },
    ]);
  });
});

describe("openaiResponses through igniteTools", () => {
  it("handles a parallel turn end to end: one output per call, same order, same call_ids", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, openaiResponses);
    const results = await tools.handleToolCalls(
      response([
        reasoning,
        call("call_1", "increment", '{"by":2}'),
        call("call_2", "setLimit", '{"value":7}'),
        call("call_3", "reset", "{}"),
        call("call_4", "unlock", "{}"),
      ]),
    );
    expect(results.map((result) => result.call_id)).toEqual([
      "call_1",
      "call_2",
      "call_3",
      "call_4",
    ]);
    expect(results[1]?.output).toBe(
      '{"snapshot":{"count":2,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
    );
    expect(results[3]?.output).toBe(
      'Error (Unavailable): Command "unlock" is not available in the current state. Use one of the tools offered now.',
    );
    expect(counter.calls.map((made) => made.command)).toEqual(["increment", "setLimit", "reset"]);
  });

  it("appends every output item unchanged, reasoning included, then the outputs", async () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const turn = response([
      reasoning,
      call("call_1", "increment", '{"by":1}'),
      call("call_2", "setLimit", '{"value":3}'),
      message,
    ]);
    const original = structuredClone(turn.output);
    const input: OpenAIResponsesItem[] = [
      { role: "developer", content: "Be brief." },
      { role: "user", content: [{ type: "input_text", text: "Count to one, limit three." }] },
    ];
    const before = structuredClone(input);
    const results = await tools.handleToolCalls(turn);
    const next: ResponseInputItem[] = tools.appendTurn(input, turn, results);
    expect(next).toHaveLength(8);
    expect(next.slice(0, 2)).toEqual(before);
    expect(next.slice(2, 6)).toEqual(original);
    for (const [index, item] of turn.output.entries()) expect(next[2 + index]).toBe(item);
    expect(next.slice(6)).toEqual(results);
    expect(input).toEqual(before);
  });

  it("re-sends a cut-off function_call with arguments {}, and every other item as it came", async () => {
    const tools = igniteTools(new Counter(), openaiResponses);
    const cut: ResponseFunctionToolCall = {
      ...call("call_2", "setLimit", '{"value":'),
      status: "incomplete",
    };
    const turn = response([reasoning, call("call_1", "increment", '{"by":1}'), cut], {
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
    });
    const results = await tools.handleToolCalls(turn);
    expect(results[1]?.output).toMatch(/^Error \(InvalidInput\).*send a complete JSON object/);
    const next = tools.appendTurn([], turn, results);
    expect(next[0]).toBe(reasoning);
    expect(next[1]).toBe(turn.output[1]);
    expect(next[2]).toEqual({ ...cut, arguments: "{}" });
    expect(cut.arguments).toBe('{"value":');
  });

  it("rejects in appendTurn what is not a Responses API response", () => {
    expect(() => openaiResponses.appendTurn([], loose({ choices: [] }), [])).toThrow(
      /^openaiResponses\.appendTurn expects a Responses API response/,
    );
  });
});
