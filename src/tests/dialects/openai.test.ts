import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import {
  type OpenAIChatMessage,
  type OpenAIChatResponse,
  openai,
} from "../../tools/dialects/openai/dialect.js";
import { err, igniteTools, type NeutralToolCall, ok } from "../../tools/index.js";
import { Counter, failingSave, LONG, named, oneErrorOfEachKind } from "../fixtures.js";

type FinishReason = ChatCompletion.Choice["finish_reason"];

/** A Chat Completions response as the SDK types it, with every required field. */
function completion(
  tool_calls: ChatCompletionMessageToolCall[] | undefined,
  finish_reason: FinishReason = "tool_calls",
  extra: Partial<ChatCompletionMessage> = {},
): ChatCompletion {
  return {
    id: "chatcmpl-9x",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "gpt-5",
    choices: [
      {
        index: 0,
        finish_reason,
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          annotations: [],
          ...(tool_calls ? { tool_calls } : {}),
          ...extra,
        },
      },
    ],
    usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
  };
}

function call(id: string, name: string, args: string): ChatCompletionMessageFunctionToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

/** A response outside the SDK's types (compatible servers, malformed JSON), as parsed JSON. */
function loose(value: unknown): OpenAIChatResponse {
  return value as OpenAIChatResponse;
}

describe("openai.toToolDefs", () => {
  it("offers each available command as a function tool, scalars wrapped as { value }", () => {
    expect(igniteTools(new Counter(), openai).toToolDefs()).toEqual([
      {
        type: "function",
        function: {
          name: "increment",
          description: "Add `by` (default 1) to the count.",
          parameters: {
            type: "object",
            properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
            additionalProperties: false,
          },
        },
      },
      {
        type: "function",
        function: {
          name: "setLimit",
          description: "Set the highest count allowed.",
          parameters: {
            type: "object",
            properties: { value: { type: "number", minimum: 0, maximum: 12 } },
            required: ["value"],
            additionalProperties: false,
          },
        },
      },
    ]);
  });

  it("follows availability: a gated command is offered once the state allows it", async () => {
    const tools = igniteTools(new Counter(), openai);
    await tools.invoke({ name: "increment", input: {} });
    expect(tools.toToolDefs().map((tool) => tool.function.name)).toEqual([
      "increment",
      "reset",
      "setLimit",
    ]);
  });

  it("maps names OpenAI rejects to distinct safe names of at most 64 characters", () => {
    const defs = igniteTools(named(), openai).toToolDefs();
    const names = defs.map((tool) => tool.function.name);
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(names).toContain("note");
    expect(names.filter((name) => name.startsWith("todo_add_"))).toHaveLength(2);
    const long = defs.find((tool) => tool.function.name.startsWith("abbb"));
    expect(long?.function).toEqual({
      name: long?.function.name,
      parameters: { type: "object", properties: {}, additionalProperties: false },
    });
  });

  it("sends strict: true where strict mode can express the schema and strict: false elsewhere", () => {
    const defs = igniteTools(named(), openai({ strict: true })).toToolDefs();
    const byName = new Map(defs.map((tool) => [tool.function.name, tool.function]));
    expect(byName.get("note")).toEqual({
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
    // `set limit` leaves additionalProperties open, which strict mode cannot express.
    const open = defs.find((tool) => tool.function.name.startsWith("set_limit_"));
    expect(open?.function).toMatchObject({
      strict: false,
      parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    });
  });

  it("leaves strict out entirely without the option", () => {
    for (const tool of igniteTools(named(), openai).toToolDefs()) {
      expect(tool.function).not.toHaveProperty("strict");
    }
    expect(openai({}).toToolDefs([])).toEqual([]);
  });
});

describe("openai.parseToolCalls", () => {
  it("reads every tool call of the first choice in order, keeping the provider's ids", () => {
    const tools = igniteTools(new Counter(), openai);
    const response = completion([
      call("call_a", "increment", '{"by":2}'),
      call("call_b", "setLimit", '{"value":7}'),
      call("call_c", "increment", "{}"),
    ]);
    expect(tools.parseToolCalls(response)).toEqual([
      { id: "call_a", name: "increment", input: { by: 2 } },
      { id: "call_b", name: "setLimit", input: 7 },
      { id: "call_c", name: "increment", input: {} },
    ]);
  });

  it("unwraps a scalar command's { value } but not an object command's own value property", () => {
    const tools = igniteTools(named(), openai);
    const todo = tools.toToolDefs().find((tool) => tool.function.description === "Add a todo.");
    const calls = tools.parseToolCalls(
      completion([
        call("1", todo?.function.name ?? "", '{"value":"milk"}'),
        call("2", "note", '{"value":"hi","tag":"x"}'),
        call("3", todo?.function.name ?? "", '"milk"'),
      ]),
    );
    expect(calls[0]).toMatchObject({ name: "todo.add", input: "milk" });
    expect(calls[1]).toEqual({ id: "2", name: "note", input: { value: "hi", tag: "x" } });
    expect(calls[2]).toMatchObject({
      name: "todo.add",
      input: undefined,
      inputError: "arguments must be a JSON object, not a string",
    });
  });

  it("maps provider names back to commands and keeps the name the model used", () => {
    const tools = igniteTools(named(), openai);
    const response = completion(
      tools.toToolDefs().map((tool, index) => call(`c${index}`, tool.function.name, "{}")),
    );
    const calls = tools.parseToolCalls(response);
    expect(calls.map((parsed) => parsed.name).sort()).toEqual(
      ["note", "set limit", "todo add", "todo.add", LONG].sort(),
    );
    const mapped = calls.find((parsed) => parsed.name === "todo.add");
    expect(mapped?.toolName).toMatch(/^todo_add_/);
    expect(calls.find((parsed) => parsed.name === "note")).not.toHaveProperty("toolName");
  });

  it("answers a name that was never offered UnknownCommand, never a neighbour", async () => {
    const component = named();
    const tools = igniteTools(component, openai);
    const [unknown, sanitised] = await tools.handleToolCalls(
      completion([call("x1", "explode", "{}"), call("x2", "todo_add", '{"value":"a"}')]),
    );
    expect(unknown).toEqual({
      role: "tool",
      tool_call_id: "x1",
      content:
        'Error (UnknownCommand): Unknown command "explode". Call one of the tools you were offered.',
    });
    expect(sanitised?.content).toMatch(/^Error \(UnknownCommand\): Unknown command "todo_add"/);
    // Nothing ran: the next call is the component's first.
    const probe = await tools.invoke({ name: "note", input: { value: "x" } });
    expect(probe.ok && probe.value.snapshot.ran).toEqual(['note:{"value":"x"}']);
  });

  it("returns no calls for a text answer, a refusal, an empty tool_calls and no choices", () => {
    const tools = igniteTools(new Counter(), openai);
    expect(tools.parseToolCalls(completion(undefined, "stop", { content: "Done." }))).toEqual([]);
    expect(
      tools.parseToolCalls(completion(undefined, "stop", { refusal: "I can't help with that." })),
    ).toEqual([]);
    expect(tools.parseToolCalls(completion([]))).toEqual([]);
    expect(tools.parseToolCalls({ ...completion([]), choices: [] })).toEqual([]);
    expect(tools.parseToolCalls(loose({ choices: [null] }))).toEqual([]);
    expect(tools.parseToolCalls(loose({ choices: [{ message: "hi" }] }))).toEqual([]);
  });

  it("turns arguments it cannot read into an input error, never a throw", () => {
    const tools = igniteTools(new Counter(), openai);
    const calls = tools.parseToolCalls(
      completion([
        call("1", "increment", "null"),
        call("2", "increment", "{bad"),
        call("3", "increment", "[1]"),
        call("4", "setLimit", "7"),
        call("5", "increment", '{"by":'),
      ]),
    );
    expect(calls.map((parsed) => parsed.inputError)).toEqual([
      "arguments must be a JSON object, not null",
      "arguments were not valid JSON (possibly cut off); send a complete JSON object",
      "arguments must be a JSON object, not an array",
      "arguments must be a JSON object, not a number",
      "arguments were not valid JSON (possibly cut off); send a complete JSON object",
    ]);
    expect(calls.every((parsed) => parsed.input === undefined)).toBe(true);
  });

  it("reads empty arguments as {} (sent by compatible servers for no-parameter tools)", () => {
    const tools = igniteTools(new Counter(), openai);
    expect(tools.parseToolCalls(completion([call("1", "increment", "")]))).toEqual([
      { id: "1", name: "increment", input: {} },
    ]);
  });

  it("never runs the call a length-truncated turn cut off, whatever is left of it", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, openai);
    const response = completion(
      [
        call("1", "increment", ""),
        call("2", "setLimit", '{"value":3}'),
        call("3", "increment", ""),
      ],
      "length",
    );
    const calls = tools.parseToolCalls(response);
    expect(calls[0]).toEqual({ id: "1", name: "increment", input: {} });
    expect(calls[2]).toEqual({
      id: "3",
      name: "increment",
      input: undefined,
      inputError: "arguments were cut off by the output limit; send the call again in full",
    });
    const truncated = await tools.handleToolCalls(
      completion([call("t", "increment", '{"by":')], "length"),
    );
    expect(truncated[0]?.content).toMatch(/^Error \(InvalidInput\): Invalid input for "increment"/);
    expect(counter.calls).toEqual([]);
  });

  it("accepts what compatible servers send: decoded arguments, no type, no id", () => {
    const tools = igniteTools(new Counter(), openai);
    const calls = tools.parseToolCalls(
      loose({
        choices: [
          {
            message: {
              role: "assistant",
              tool_calls: [
                { id: "a", function: { name: "increment", arguments: { by: 3 } } },
                { type: "function", function: { name: "setLimit", arguments: '{"value":4}' } },
                { id: "c", type: "function", function: { name: "increment", arguments: [1] } },
              ],
            },
          },
        ],
      }),
    );
    expect(calls).toEqual([
      { id: "a", name: "increment", input: { by: 3 } },
      { name: "setLimit", input: 4 },
      {
        id: "c",
        name: "increment",
        input: undefined,
        inputError: "arguments must be a JSON object, not an array",
      },
    ]);
  });

  it("answers a custom tool call, which is not ours, so every tool call gets its answer", async () => {
    const tools = igniteTools(new Counter(), openai);
    const response = completion([
      { id: "cu_1", type: "custom", custom: { name: "grammar_tool", input: "raw text" } },
      { id: "cu_2", type: "custom", custom: { name: "increment", input: "by 2" } },
      call("fn_1", "increment", "{}"),
    ]);
    const results = await tools.handleToolCalls(response);
    expect(results.map((result) => result.tool_call_id)).toEqual(["cu_1", "cu_2", "fn_1"]);
    expect(results[0]?.content).toBe(
      'Error (UnknownCommand): Unknown command "grammar_tool". Call one of the tools you were offered.',
    );
    // A custom tool sharing a command's name is still never run with free text.
    expect(results[1]?.content).toMatch(/^Error \(InvalidInput\): .*only function tools/);
    expect(results[2]?.content).toMatch(/^\{"snapshot":\{"count":1/);
  });

  it("reads a call without a name or id as an unknown command, answered with an empty id", async () => {
    const tools = igniteTools(new Counter(), openai);
    const response = loose({
      choices: [
        {
          message: {
            tool_calls: [{ type: "function", function: { arguments: "{}" } }, null, { id: 5 }],
          },
        },
      ],
    });
    const results = await tools.handleToolCalls(response);
    expect(results).toHaveLength(3);
    for (const result of results) {
      expect(result.tool_call_id).toBe("");
      expect(result.content).toMatch(/^Error \(UnknownCommand\): Unknown command ""/);
    }
  });

  it("ignores unknown fields on the response, the choice, the message and the call", () => {
    const tools = igniteTools(new Counter(), openai);
    const response = {
      ...completion(
        [
          {
            ...call("1", "increment", '{"by":1}'),
            index: 0,
            extra: { deep: [1] },
          } as ChatCompletionMessageFunctionToolCall,
        ],
        "tool_calls",
        { audio: null, function_call: null },
      ),
      system_fingerprint: "fp_1",
      service_tier: "default" as const,
    };
    expect(tools.parseToolCalls(response)).toEqual([
      { id: "1", name: "increment", input: { by: 1 } },
    ]);
  });

  it("maps strict-mode nulls of optional properties back to absent", () => {
    const tools = igniteTools(named(), openai({ strict: true }));
    expect(
      tools.parseToolCalls(completion([call("1", "note", '{"value":"hi","tag":null}')])),
    ).toEqual([{ id: "1", name: "note", input: { value: "hi" } }]);
    const lax = igniteTools(named(), openai);
    expect(
      lax.parseToolCalls(completion([call("1", "note", '{"value":"hi","tag":null}')])),
    ).toEqual([{ id: "1", name: "note", input: { value: "hi", tag: null } }]);
  });

  it("throws a TypeError saying what to pass when the response is not a Chat Completions response", () => {
    const tools = igniteTools(new Counter(), openai);
    const expected =
      "openai.parseToolCalls expects a Chat Completions response (the parsed JSON with a `choices` array), got";
    expect(() => tools.parseToolCalls(loose(new Response("{}")))).toThrow(
      new TypeError(`${expected} a Response (pass \`await response.json()\`)`),
    );
    expect(() => tools.parseToolCalls(loose("{}"))).toThrow(new TypeError(`${expected} a string`));
    expect(() => tools.parseToolCalls(loose(null))).toThrow(new TypeError(`${expected} null`));
    expect(() => tools.parseToolCalls(loose([]))).toThrow(new TypeError(`${expected} an array`));
    expect(() => tools.parseToolCalls(loose({ output: [] }))).toThrow(
      new TypeError(`${expected} an object of another shape`),
    );
    expect(() => tools.parseToolCalls(loose({ choices: {} }))).toThrow(TypeError);
    expect(() => tools.parseToolCalls(loose(Object.create(null)))).toThrow(TypeError);
  });
});

describe("openai.toToolResult", () => {
  const increment: NeutralToolCall = { id: "call_1", name: "increment", input: { by: 1 } };

  it("answers a success with the observation as compact JSON", () => {
    const result = ok({ snapshot: { count: 1 }, events: [{ type: "incremented" }] });
    expect(openai.toToolResult(increment, result)).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: '{"snapshot":{"count":1},"events":[{"type":"incremented"}]}',
    });
  });

  it("answers each error kind with a text the model can act on", () => {
    const errors = oneErrorOfEachKind;
    expect(errors.map((error) => openai.toToolResult(increment, err(error)).content)).toEqual([
      'Error (UnknownCommand): Unknown command "explode".',
      'Error (Unavailable): Command "reset" is not available.',
      'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
      'Error (ExecuteFailed): Command "save" failed: disk full',
      'Error (Denied): Command "wipe" was denied: not on weekends. It did not run; do not call it again with the same input.',
    ]);
  });

  it("quotes the provider's name in an error for a mapped tool", async () => {
    const tools = igniteTools(named(), openai);
    const name = tools.toToolDefs().find((tool) => tool.function.name.startsWith("set_limit_"))
      ?.function.name;
    const [result] = await tools.handleToolCalls(completion([call("1", name ?? "", "{}")]));
    expect(result?.content).toBe(
      `Error (InvalidInput): Invalid input for "${name}": /n is required. Fix the input and call again.\nIssues: [{"path":"/n","message":"is required","keyword":"required"}]`,
    );
  });

  it("answers with an empty tool_call_id when the call had no id, and never throws", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const block = openai.toToolResult(
      { name: "x", input: {} },
      ok({ snapshot: circular, events: [] }),
    );
    expect(block).toEqual({
      role: "tool",
      tool_call_id: "",
      content: '{"snapshot":{"self":"[Circular]"},"events":[]}',
    });
  });
});

describe("openai through igniteTools", () => {
  it("handles a parallel turn end to end: one tool message per call, same order, same ids", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, openai);
    const results = await tools.handleToolCalls(
      completion([
        call("call_1", "increment", '{"by":2}'),
        call("call_2", "setLimit", '{"value":7}'),
        call("call_3", "reset", "{}"),
        call("call_4", "unlock", "{}"),
        call("call_5", "setLimit", '{"value":50}'),
      ]),
    );
    expect(results).toEqual([
      {
        role: "tool",
        tool_call_id: "call_1",
        content:
          '{"snapshot":{"count":2,"limit":10,"locked":false},"events":[{"type":"incremented","payload":{"by":2}}]}',
      },
      {
        role: "tool",
        tool_call_id: "call_2",
        content:
          '{"snapshot":{"count":2,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
      },
      {
        role: "tool",
        tool_call_id: "call_3",
        content: '{"snapshot":{"count":0,"limit":7,"locked":false},"events":[{"type":"reset"}]}',
      },
      {
        role: "tool",
        tool_call_id: "call_4",
        content:
          'Error (Unavailable): Command "unlock" is not available in the current state. Use one of the tools offered now.',
      },
      {
        role: "tool",
        tool_call_id: "call_5",
        content:
          'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
      },
    ]);
    expect(counter.calls.map((made) => made.command)).toEqual(["increment", "setLimit", "reset"]);
  });

  it("answers ExecuteFailed when execute throws", async () => {
    const failing = failingSave();
    const [result] = await igniteTools(failing, openai).handleToolCalls(
      completion([call("s", "save", "")]),
    );
    expect(result?.content).toBe('Error (ExecuteFailed): Command "save" failed: disk full');
  });

  it("appends the assistant message as a request message, then the tool messages", async () => {
    const tools = igniteTools(new Counter(), openai);
    const response = completion(
      [call("call_1", "increment", '{"by":1}'), call("call_2", "setLimit", '{"value":3}')],
      "tool_calls",
      { content: "On it.", audio: null, annotations: [] },
    );
    const original = structuredClone(response.choices[0]?.message);
    const history: ChatCompletionMessageParam[] = [
      { role: "developer", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Count to one, limit three." }] },
    ];
    const before = structuredClone(history);
    const results = await tools.handleToolCalls(response);
    const next = tools.appendTurn(history, response, results);
    expect(next).toHaveLength(5);
    expect(next.slice(0, 2)).toEqual(before);
    // Only what a request message defines: no `refusal: null`, no `annotations`, no `audio: null`.
    expect(next[2]).toStrictEqual({
      role: "assistant",
      content: "On it.",
      tool_calls: [
        call("call_1", "increment", '{"by":1}'),
        call("call_2", "setLimit", '{"value":3}'),
      ],
    });
    expect(response.choices[0]?.message).toEqual(original);
    expect(next.slice(3)).toEqual(results);
    expect(history).toEqual(before);
  });

  it("re-sends arguments that are not a JSON object as {}, so a compatible server reads every later turn", async () => {
    const tools = igniteTools(new Counter(), openai);
    const response = completion(
      [
        call("call_1", "increment", '{"by":1}'),
        call("call_2", "increment", '{"by":'),
        call("call_3", "increment", "[1]"),
        call("call_4", "increment", ""),
      ],
      "length",
    );
    const results = await tools.handleToolCalls(response);
    expect(results.slice(1).map((result) => result.content)).toEqual([
      expect.stringMatching(/^Error \(InvalidInput\).*not valid JSON/),
      expect.stringMatching(/^Error \(InvalidInput\).*not an array/),
      expect.stringMatching(/^Error \(InvalidInput\).*cut off/),
    ]);
    const [assistant] = tools.appendTurn([], response, results);
    expect(assistant).toMatchObject({
      tool_calls: [
        { function: { arguments: '{"by":1}' } },
        { function: { arguments: "{}" } },
        { function: { arguments: "{}" } },
        { function: { arguments: "{}" } },
      ],
    });
    expect(response.choices[0]?.message.tool_calls?.[1]).toEqual(
      call("call_2", "increment", '{"by":'),
    );
  });

  it("re-sends every field a request message defines, and a custom call as it came", () => {
    const custom = { id: "call_9", type: "custom", custom: { name: "grep", input: "x" } };
    // Some compatible servers send arguments already decoded; a request carries them as text.
    const decoded = {
      id: "call_8",
      type: "function",
      function: { name: "go", arguments: { by: 1 } },
    };
    const missing = { id: "call_7", type: "function", function: { name: "go" } };
    const response = loose({
      choices: [
        {
          message: {
            role: "assistant",
            content: [{ type: "text", text: "Hm." }],
            name: "helper",
            function_call: { name: "legacy", arguments: "{}" },
            tool_calls: [custom, decoded, missing],
            reasoning: "Think.",
            reasoning_details: [{ type: "reasoning.text", text: "Think." }],
            audio: null,
          },
        },
      ],
    });
    expect(openai.appendTurn([], response, [])).toStrictEqual([
      {
        role: "assistant",
        content: [{ type: "text", text: "Hm." }],
        name: "helper",
        function_call: { name: "legacy", arguments: "{}" },
        tool_calls: [
          custom,
          { id: "call_8", type: "function", function: { name: "go", arguments: '{"by":1}' } },
          { id: "call_7", type: "function", function: { name: "go", arguments: "{}" } },
        ],
        reasoning: "Think.",
        reasoning_details: [{ type: "reasoning.text", text: "Think." }],
      },
    ]);
  });

  it("keeps what compatible servers want back: reasoning, and a call's thought signature", () => {
    const signed = {
      ...call("call_1", "increment", '{"by":1}'),
      extra_content: { google: { thought_signature: "CiIBcsjafD4=" } },
    };
    const response = loose({
      choices: [
        {
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            refusal: "no",
            reasoning_content: "Count first.",
            audio: { id: "audio_1", data: "UklGR", expires_at: 1, transcript: "hi" },
            tool_calls: [signed],
            annotations: [],
            provider_specific_field: 1,
          },
        },
      ],
    });
    expect(openai.appendTurn([], response, [])).toStrictEqual([
      {
        role: "assistant",
        content: null,
        refusal: "no",
        audio: { id: "audio_1" },
        tool_calls: [signed],
        reasoning_content: "Count first.",
      },
    ]);
  });

  it("appends only the results when there is no choice, and rejects what is not a response", () => {
    const history: OpenAIChatMessage[] = [{ role: "user", content: "hi" }];
    expect(openai.appendTurn(history, { ...completion([]), choices: [] }, [])).toEqual(history);
    expect(() => openai.appendTurn(history, loose(new Response("{}")), [])).toThrow(
      /^openai\.appendTurn expects a Chat Completions response/,
    );
  });
});
