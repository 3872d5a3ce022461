import type { ChatResponse, Message, Tool, ToolCall } from "ollama";
import { describe, expect, it } from "vitest";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { buildManifest, igniteTools, type NeutralManifest, ok } from "../../tools/index.js";
import { Counter, componentWith, failingSave, single } from "../fixtures.js";

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A non-streaming /api/chat response, every field the SDK's type declares. */
function chat(message: Partial<Message> & { tool_calls?: ToolCall[] }, done_reason = "stop") {
  const response: ChatResponse = {
    model: "llama3.2",
    created_at: new Date("2025-01-01T00:00:00Z"),
    message: { role: "assistant", content: "", ...message },
    done: true,
    done_reason,
    total_duration: 1,
    load_duration: 1,
    prompt_eval_count: 5,
    prompt_eval_duration: 1,
    eval_count: 7,
    eval_duration: 1,
  };
  return response;
}

const calling = (...calls: Array<[name: string, args: Record<string, unknown>]>) =>
  chat({ tool_calls: calls.map(([name, args]) => ({ function: { name, arguments: args } })) });

/** A response exactly as a server's JSON text, for arguments the SDK's type does not allow. */
function wire(toolCalls: unknown): ChatResponse {
  return JSON.parse(
    JSON.stringify({
      ...chat({}),
      message: { role: "assistant", content: "", tool_calls: toolCalls },
    }),
  );
}

const manifestOf = (commands: Record<string, { input?: Record<string, unknown> }>) =>
  buildManifest({ commands });

const named = (...names: string[]) => manifestOf(Object.fromEntries(names.map((n) => [n, {}])));

function toolNamed(manifest: NeutralManifest, command: string): string {
  const index = manifest.findIndex((tool) => tool.name === command);
  const name = ollama.toToolDefs(manifest)[index]?.function.name;
  if (name === undefined) throw new Error(`no tool for ${command}`);
  return name;
}

const counterManifest = buildManifest(new Counter().getSchema());

describe("ollama tool definitions", () => {
  it("offers one function tool per available command, in the SDK's Tool shape", () => {
    const tools: Tool[] = igniteTools(new Counter(), ollama).toToolDefs();
    expect(tools).toEqual([
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

  it("omits the description key when a command has none", () => {
    const [tool] = ollama.toToolDefs(named("go"));
    expect(tool?.function).toEqual({
      name: "go",
      parameters: { type: "object", properties: {}, additionalProperties: false },
    });
    expect(tool?.function).not.toHaveProperty("description");
  });
});

describe("ollama tool names", () => {
  it("maps todo.add and set limit to names the API accepts, and maps calls back", () => {
    const manifest = named("todo.add", "set limit");
    for (const command of ["todo.add", "set limit"]) {
      const name = toolNamed(manifest, command);
      expect(name).toMatch(OPENAI_NAME);
      expect(name).not.toBe(command);
      expect(ollama.parseToolCalls(calling([name, {}]), manifest)).toEqual([
        { id: "call_0", name: command, toolName: name, input: {} },
      ]);
    }
  });

  it("shortens a 90-character name to 64 and keeps two names with one sanitised form apart", () => {
    const long = "x".repeat(90);
    const manifest = named(long, "todo.add", "todo add");
    const names = ollama.toToolDefs(manifest).map((tool) => tool.function.name);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(OPENAI_NAME);
    const [call] = ollama.parseToolCalls(calling([toolNamed(manifest, long), {}]), manifest);
    expect(call?.name).toBe(long);
  });

  it("answers UnknownCommand for a sanitised name that was never offered", async () => {
    const component = componentWith({ "todo.add": {} });
    const [result] = await igniteTools(component, ollama).handleToolCalls(
      calling(["todo_add", {}]),
    );
    expect(result).toEqual({
      role: "tool",
      content:
        'Error (UnknownCommand): Unknown command "todo_add". Call one of the tools you were offered.',
      tool_name: "todo_add",
    });
  });

  it("answers with the tool's own name in tool_name and in the error text", async () => {
    const component = componentWith({ "set limit": { input: { type: "integer" } } });
    const bridge = igniteTools(component, ollama);
    const name = bridge.toToolDefs()[0]?.function.name ?? "";
    const [result] = await bridge.handleToolCalls(calling([name, { value: "x" }]));
    expect(result?.tool_name).toBe(name);
    expect(result?.content).toContain(`Invalid input for ${JSON.stringify(name)}`);
  });
});

describe("ollama tool call parsing", () => {
  it("reads parallel calls in order, with ids from their position", () => {
    const response = calling(["increment", { by: 2 }], ["setLimit", { value: 7 }], ["reset", {}]);
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 2 } },
      { id: "call_1", name: "setLimit", input: 7 },
      { id: "call_2", name: "reset", input: {} },
    ]);
  });

  it("keeps an id when the server sends one", () => {
    const response = wire([
      { id: "call_abc", function: { name: "reset", arguments: {} } },
      { id: "", function: { name: "reset", arguments: {} } },
    ]);
    expect(ollama.parseToolCalls(response, counterManifest).map((call) => call.id)).toEqual([
      "call_abc",
      "call_1",
    ]);
  });

  it("does not unwrap an object command that has its own value property", () => {
    const manifest = manifestOf({
      run: { input: { type: "object", properties: { value: { type: "string" } } } },
    });
    expect(ollama.parseToolCalls(calling(["run", { value: "x" }]), manifest)).toEqual([
      { id: "call_0", name: "run", input: { value: "x" } },
    ]);
  });

  it("returns no calls for a text answer", () => {
    expect(ollama.parseToolCalls(chat({ content: "Done." }), counterManifest)).toEqual([]);
    expect(ollama.parseToolCalls(chat({ tool_calls: [] }), counterManifest)).toEqual([]);
    expect(ollama.parseToolCalls(wire(null), counterManifest)).toEqual([]);
  });

  it("reads the calls that are there when the output was cut off", () => {
    const response = { ...calling(["increment", { by: 1 }]), done_reason: "length" };
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 1 } },
    ]);
  });

  it("reads JSON-string arguments, which some compatible servers send", () => {
    const response = wire([{ function: { name: "increment", arguments: '{"by":3}' } }]);
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 3 } },
    ]);
  });

  it.each([
    ["", { input: {} }],
    ["null", { inputError: "arguments must be a JSON object, not null" }],
    ["[1]", { inputError: "arguments must be a JSON object, not an array" }],
    [
      "{bad",
      {
        inputError: "arguments were not valid JSON (possibly cut off); send a complete JSON object",
      },
    ],
    [
      '{"by": 2',
      {
        inputError: "arguments were not valid JSON (possibly cut off); send a complete JSON object",
      },
    ],
  ])("reads string arguments %j without throwing", (text, expected) => {
    const [call] = ollama.parseToolCalls(
      wire([{ function: { name: "increment", arguments: text } }]),
      counterManifest,
    );
    expect(call).toMatchObject({ id: "call_0", name: "increment", ...expected });
  });

  it.each([
    [[1], "an array"],
    [7, "a number"],
    [true, "a boolean"],
  ])("turns object arguments %j into an input error", (args, kind) => {
    const [call] = ollama.parseToolCalls(
      wire([{ function: { name: "increment", arguments: args } }]),
      counterManifest,
    );
    expect(call).toEqual({
      id: "call_0",
      name: "increment",
      input: undefined,
      inputError: `arguments must be a JSON object, not ${kind}`,
    });
  });

  it("reads absent or null arguments (a Go nil map) as {}", () => {
    const response = wire([
      { function: { name: "reset" } },
      { function: { name: "reset", arguments: null } },
    ]);
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_0", name: "reset", input: {} },
      { id: "call_1", name: "reset", input: {} },
    ]);
  });

  it("uses an empty name for a call without a string name, so it is UnknownCommand", async () => {
    const response = wire([{ function: { arguments: {} } }, { function: { name: 5 } }]);
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_0", name: "", input: {} },
      { id: "call_1", name: "", input: {} },
    ]);
    const results = await igniteTools(new Counter(), ollama).handleToolCalls(response);
    expect(results.map((result) => result.content)).toEqual([
      'Error (UnknownCommand): Unknown command "". Call one of the tools you were offered.',
      'Error (UnknownCommand): Unknown command "". Call one of the tools you were offered.',
    ]);
  });

  it("skips entries that are not function calls, keeping the others' positions", () => {
    const response = wire([null, "x", { type: "custom" }, { function: { name: "reset" } }]);
    expect(ollama.parseToolCalls(response, counterManifest)).toEqual([
      { id: "call_3", name: "reset", input: {} },
    ]);
  });

  it("ignores unknown fields of the response, the message and each call", () => {
    const response = wire([
      { function: { name: "increment", arguments: { by: 1 }, index: 0 }, future: 1 },
    ]);
    const extended = {
      ...response,
      logprobs: [],
      message: { ...response.message, thinking: "Let me add one.", images: [], later: true },
    };
    expect(ollama.parseToolCalls(extended, counterManifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 1 } },
    ]);
  });

  it.each([
    ["an HTTP Response", new Response("{}"), /got a Response \(pass `await response.json\(\)`\)/],
    ["a string", '{"message":{}}', /got a string/],
    ["null", null, /got null/],
    ["a Promise", Promise.resolve({}), /got a Promise \(await it first\)/],
    ["a Map", new Map(), /got a Map/],
    ["an array of responses", [chat({})], /got an array/],
    ["an object without message", { done: true }, /got an object of another shape/],
    ["a message that is not an object", { message: "hi" }, /got an object of another shape/],
  ])("throws a TypeError that says what to pass for %s", (_label, value, message) => {
    const parse = () => ollama.parseToolCalls(value as never, counterManifest);
    expect(parse).toThrow(TypeError);
    expect(parse).toThrow(/ollama\.parseToolCalls expects an \/api\/chat response/);
    expect(parse).toThrow(message);
  });

  it("throws a TypeError when tool_calls is not an array", () => {
    const response = { ...chat({}), message: { role: "assistant", content: "", tool_calls: {} } };
    expect(() => ollama.parseToolCalls(response as never, counterManifest)).toThrow(
      /expects an \/api\/chat response \(parsed JSON with a `message` object\), got an object of another shape/,
    );
  });
});

describe("ollama results", () => {
  it("answers a success with the observation as compact JSON and the tool's name", async () => {
    const [result] = await igniteTools(new Counter(), ollama).handleToolCalls(
      calling(["increment", { by: 2 }]),
    );
    const message: Message | undefined = result;
    expect(message).toEqual({
      role: "tool",
      content:
        '{"snapshot":{"count":2,"limit":10,"locked":false},"events":[{"type":"incremented","payload":{"by":2}}]}',
      tool_name: "increment",
    });
  });

  it("never throws while encoding an observation", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const result = ollama.toToolResult(
      { name: "x", input: {} },
      ok({ snapshot: circular, events: [] }),
    );
    expect(result.content).toBe('{"snapshot":{"self":"[Circular]"},"events":[]}');
  });

  it.each([
    [
      "UnknownCommand",
      ["explode", {}],
      'Error (UnknownCommand): Unknown command "explode". Call one of the tools you were offered.',
    ],
    [
      "Unavailable",
      ["reset", {}],
      'Error (Unavailable): Command "reset" is not available in the current state. Use one of the tools offered now.',
    ],
    [
      "InvalidInput",
      ["setLimit", { value: 50 }],
      'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
    ],
  ] as const)("answers %s with its error text", async (_kind, [name, args], content) => {
    const [result] = await igniteTools(new Counter(), ollama).handleToolCalls(
      calling([name, args]),
    );
    expect(result).toEqual({ role: "tool", content, tool_name: name });
  });

  it("answers ExecuteFailed with the failure, never a stack", async () => {
    const component = failingSave();
    const [result] = await igniteTools(component, ollama).handleToolCalls(calling(["save", {}]));
    expect(result).toEqual({
      role: "tool",
      content: 'Error (ExecuteFailed): Command "save" failed: disk full',
      tool_name: "save",
    });
  });
});

describe("ollama end to end", () => {
  it("invokes every call in order and answers each, errors included", async () => {
    const counter = new Counter();
    const results = await igniteTools(counter, ollama).handleToolCalls(
      calling(["setLimit", { value: 4 }], ["increment", { by: 5 }], ["setLimit", { value: 99 }]),
    );
    expect(results.map((result) => [result.tool_name, result.content.slice(0, 14)])).toEqual([
      ["setLimit", '{"snapshot":{"'],
      ["increment", '{"snapshot":{"'],
      ["setLimit", "Error (Invalid"],
    ]);
    expect(counter.state.count).toBe(4);
    expect(counter.calls).toEqual([
      { command: "setLimit", input: 4 },
      { command: "increment", input: { by: 5 } },
    ]);
  });

  it("passes a scalar command's unwrapped value to the component", async () => {
    const { component, received } = single({ type: "string" });
    await igniteTools(component, ollama).handleToolCalls(calling(["run", { value: "hi" }]));
    expect(received).toEqual(["hi"]);
  });

  it("appends the assistant message unchanged, thinking included, then the results", async () => {
    const bridge = igniteTools(new Counter(), ollama);
    const response = chat({
      content: "",
      thinking: "The user wants two more.",
      tool_calls: [
        { function: { name: "increment", arguments: { by: 2 } } },
        { function: { name: "setLimit", arguments: { value: 7 } } },
      ],
    });
    const original = structuredClone(response.message);
    const history: Message[] = [{ role: "user", content: "Add two, then cap at 7." }];
    const results = await bridge.handleToolCalls(response);
    const next: Message[] = bridge.appendTurn(history, response, results);

    expect(next).toHaveLength(4);
    expect(next[0]).toBe(history[0]);
    expect(next[1]).toEqual(original);
    expect(next[1]).toBe(response.message);
    expect(next.slice(2)).toEqual(results);
    expect(history).toHaveLength(1);
  });

  it("refuses to append something that is not an /api/chat response", () => {
    expect(() => ollama.appendTurn([], "hi" as never, [])).toThrow(
      /ollama\.appendTurn expects an \/api\/chat response/,
    );
  });

  it("is the same dialect whether used as it is or called", () => {
    expect(ollama().toToolDefs(counterManifest)).toEqual(ollama.toToolDefs(counterManifest));
  });
});
