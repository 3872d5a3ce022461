import type {
  ContentBlock,
  Message,
  StopReason,
  ToolResultBlockParam,
  ToolUseBlock,
} from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { type AnthropicMessage, anthropic } from "../../tools/dialects/anthropic/dialect.js";
import {
  type AgentComponent,
  buildManifest,
  err,
  igniteTools,
  type JsonSchema,
  type NeutralToolCall,
  ok,
  type ToolError,
  type ToolWarning,
} from "../../tools/index.js";
import { Counter, failingSave, LONG, named } from "../fixtures.js";

/** A Messages API response as the SDK types it, with every required field. */
function message(content: ContentBlock[], stop_reason: StopReason | null = "tool_use"): Message {
  return {
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason,
    stop_sequence: null,
    content,
    usage: {
      cache_creation: null,
      cache_creation_input_tokens: null,
      cache_read_input_tokens: null,
      inference_geo: null,
      input_tokens: 10,
      output_tokens: 20,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: "standard",
      speed: null,
    },
  };
}

function toolUse(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: "tool_use", id, name, input, caller: { type: "direct" } };
}

const text: ContentBlock = { type: "text", text: "Let me do that.", citations: null };
const thinking: ContentBlock = {
  type: "thinking",
  thinking: "The user wants two steps.",
  signature: "EqQBCkYIARgCKkA=",
};

describe("anthropic.toToolDefs", () => {
  it("offers each available command as { name, description, input_schema }", () => {
    const defs = igniteTools(new Counter(), anthropic).toToolDefs();
    expect(defs).toEqual([
      {
        name: "increment",
        description: "Add `by` (default 1) to the count.",
        input_schema: {
          type: "object",
          properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
          additionalProperties: false,
        },
      },
      {
        name: "setLimit",
        description: "Set the highest count allowed.",
        input_schema: {
          type: "object",
          properties: { value: { type: "number", minimum: 0, maximum: 12 } },
          required: ["value"],
          additionalProperties: false,
        },
      },
    ]);
  });

  it("leaves out description and strict when there is none to send", () => {
    const defs = igniteTools(named(), anthropic).toToolDefs();
    const long = defs.find((def) => def.name.startsWith("abbb"));
    expect(long).toEqual({
      name: long?.name,
      input_schema: { type: "object", properties: {}, additionalProperties: false },
    });
    expect(defs.every((def) => !("strict" in def))).toBe(true);
  });

  it("maps names Anthropic rejects to distinct safe names of at most 128 characters", () => {
    const names = igniteTools(named(), anthropic)
      .toToolDefs()
      .map((def) => def.name);
    expect(names).toHaveLength(5);
    expect(new Set(names).size).toBe(5);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,128}$/);
    // Anthropic takes names up to 128 characters: a 90-character one is sent as it is.
    expect(names).toContain(LONG);
    expect(names).toContain("note");
    expect(names.filter((name) => name.startsWith("todo_add_"))).toHaveLength(2);
    expect(names.some((name) => name.startsWith("set_limit_"))).toBe(true);
  });

  it("sends strict: true only on tools whose schema Anthropic's strict mode can express", () => {
    const defs = igniteTools(strictCases(), anthropic({ strict: true })).toToolDefs();
    expect(defs.map((def) => [def.name, def.strict])).toEqual([
      ["count", undefined],
      ["dated", undefined],
      ["defaulted", undefined],
      ["many", undefined],
      ["mode", true],
      ["open", undefined],
      ["pick", true],
      ["tick", true],
    ]);
    // Optional properties stay optional, as the Anthropic SDK's own strict transform leaves them.
    expect(defs.find((def) => def.name === "pick")?.input_schema).toEqual({
      type: "object",
      properties: {
        colour: { enum: ["red", "blue"] },
        when: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
      },
      required: ["colour"],
      additionalProperties: false,
    });
    // A tool sent non-strict is sent exactly as it would be without the option.
    const plain = igniteTools(strictCases(), anthropic).toToolDefs();
    expect(defs.filter((def) => !def.strict)).toEqual(
      plain.filter((def) => !["mode", "pick", "tick"].includes(def.name)),
    );
  });
});

describe("anthropic({ strict: true }) on nested schemas", () => {
  it("checks every level: definitions, references, enums and consts, and the depth", () => {
    const closed = (properties: Record<string, unknown>) => ({
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    });
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 70; level++) deep = closed({ next: deep });
    const component: AgentComponent = {
      getSchema: () => ({
        commands: {
          refs: {
            input: {
              ...closed({ a: { $ref: "#/$defs/item" }, b: { const: "x" } }),
              $defs: { item: closed({ n: { type: "integer" } }) },
            },
          },
          objectEnum: { input: closed({ a: { enum: [{ x: 1 }] } }) },
          objectConst: { input: closed({ a: { const: { x: 1 } } }) },
          deep: { input: deep },
        },
      }),
      execute: () => ({ state: null, events: [] }),
    };
    const defs = igniteTools(component, anthropic({ strict: true })).toToolDefs();
    expect(defs.map((def) => [def.name, def.strict])).toEqual([
      ["deep", undefined],
      ["objectConst", undefined],
      ["objectEnum", undefined],
      ["refs", true],
    ]);
  });
});

/** Commands on both sides of what Anthropic's strict mode can express. */
function strictCases(): AgentComponent {
  const object = (properties: Record<string, unknown>) => ({
    type: "object",
    properties,
    additionalProperties: false,
  });
  return {
    getSchema: () => ({
      commands: {
        pick: {
          input: {
            ...object({
              colour: { enum: ["red", "blue"] },
              when: { type: "string", format: "date" },
              tags: { type: "array", items: { type: "string" }, minItems: 1 },
            }),
            required: ["colour"],
          },
        },
        mode: { input: { enum: ["a", "b"] } },
        tick: {},
        open: { input: { type: "object" } },
        count: { input: { type: "integer", minimum: 0 } },
        dated: { input: object({ at: { type: "string", format: "uri-reference" } }) },
        many: { input: { type: "array", items: { type: "string" }, minItems: 2 } },
        defaulted: { input: object({ n: { type: ["integer", "null"], default: 1 } }) },
      },
    }),
    execute: (_command, input) => ({ state: input, events: [] }),
  };
}

describe("anthropic.parseToolCalls", () => {
  it("reads every tool_use block in order, keeping ids, and ignores every other block", () => {
    const response = message([
      thinking,
      { type: "redacted_thinking", data: "c2VjcmV0" },
      text,
      toolUse("toolu_01", "increment", { by: 2 }),
      {
        type: "server_tool_use",
        id: "srvtoolu_01",
        name: "web_search",
        input: { query: "x" },
        caller: { type: "direct" },
      },
      toolUse("toolu_02", "setLimit", { value: 7 }),
      toolUse("toolu_03", "increment", {}),
    ]);
    const calls = igniteTools(new Counter(), anthropic).parseToolCalls(response);
    expect(calls).toEqual<NeutralToolCall[]>([
      { id: "toolu_01", name: "increment", input: { by: 2 } },
      { id: "toolu_02", name: "setLimit", input: 7 },
      { id: "toolu_03", name: "increment", input: {} },
    ]);
  });

  it("unwraps a scalar command's { value } but not an object command's own value property", () => {
    const tools = igniteTools(named(), anthropic);
    const todo = tools.toToolDefs().find((def) => def.name.startsWith("todo_add_"));
    const response = message([
      toolUse("toolu_01", todo?.name ?? "", { value: "milk" }),
      toolUse("toolu_02", "note", { value: "hello" }),
    ]);
    const calls = tools.parseToolCalls(response);
    expect(calls.map((call) => call.input)).toEqual(["milk", { value: "hello" }]);
  });

  it("maps provider names back to commands and keeps the name the model used", () => {
    const tools = igniteTools(named(), anthropic);
    const defs = tools.toToolDefs();
    const response = message(defs.map((def, index) => toolUse(`toolu_${index}`, def.name, {})));
    const calls = tools.parseToolCalls(response);
    expect(calls.map((call) => call.name).sort()).toEqual(
      ["todo.add", "todo add", "set limit", LONG, "note"].sort(),
    );
    for (const [index, call] of calls.entries()) {
      const sent = defs[index]?.name;
      expect(call.toolName ?? call.name).toBe(sent);
      expect(call.toolName === undefined).toBe(sent === call.name);
    }
  });

  it("answers a name that was never offered UnknownCommand, never a neighbour", async () => {
    const component = named();
    const tools = igniteTools(component, anthropic);
    const [block] = await tools.handleToolCalls(message([toolUse("toolu_01", "todo_add", {})]));
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01",
      content:
        'Error (UnknownCommand): Unknown command "todo_add". Call one of the tools you were offered.',
      is_error: true,
    });
  });

  it("returns no calls for a text-only answer, an empty turn and a refusal", () => {
    const tools = igniteTools(new Counter(), anthropic);
    expect(tools.parseToolCalls(message([text], "end_turn"))).toEqual([]);
    expect(tools.parseToolCalls(message([], "end_turn"))).toEqual([]);
    const refusal: Message = {
      ...message([], "refusal"),
      stop_details: { type: "refusal", category: "cyber", explanation: null },
    };
    expect(tools.parseToolCalls(refusal)).toEqual([]);
  });

  it("turns an input that is not an object into an input error, never a throw", () => {
    const tools = igniteTools(new Counter(), anthropic);
    const inputs: unknown[] = [null, [1], "{bad", '{"by":2}', 3, true, undefined];
    const calls = tools.parseToolCalls(
      message(inputs.map((input, index) => toolUse(`t${index}`, "increment", input))),
    );
    expect(calls.map((call) => call.inputError)).toEqual([
      "arguments must be a JSON object, not null",
      "arguments must be a JSON object, not an array",
      "arguments must be a JSON object, not a string",
      "arguments must be a JSON object, not a string",
      "arguments must be a JSON object, not a number",
      "arguments must be a JSON object, not a boolean",
      "arguments are missing; send a JSON object",
    ]);
    expect(calls.every((call) => call.name === "increment" && call.input === undefined)).toBe(true);
  });

  it.each(["max_tokens", "model_context_window_exceeded", null] as const)(
    "never runs a tool_use block that %s cut off, whatever is left of its input",
    async (stop) => {
      const counter = new Counter();
      const tools = igniteTools(counter, anthropic);
      // The last block's input is what arrived before the cut; here it happens to validate.
      const cut = message(
        [
          text,
          toolUse("toolu_01", "increment", { by: 2 }),
          toolUse("toolu_02", "increment", { by: 1 }),
        ],
        stop,
      );
      const blocks = await tools.handleToolCalls(cut);
      expect(blocks.map((block) => [block.tool_use_id, block.is_error])).toEqual([
        ["toolu_01", undefined],
        ["toolu_02", true],
      ]);
      expect(blocks[1]?.content).toContain("arguments were cut off by the output limit");
      expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    },
  );

  it("reads every block of a cut-off turn that ends in text, the calls before it included", () => {
    const tools = igniteTools(new Counter(), anthropic);
    const cut = message([toolUse("toolu_01", "increment", { by: 2 }), text], "max_tokens");
    expect(tools.parseToolCalls(cut)).toEqual([
      { id: "toolu_01", name: "increment", input: { by: 2 } },
    ]);
  });

  it("reads a block without a name or id as an unknown command, answered with an empty id", async () => {
    const tools = igniteTools(new Counter(), anthropic);
    const response = { content: [{ type: "tool_use", input: {} }] };
    expect(tools.parseToolCalls(response)).toEqual([{ name: "", input: {} }]);
    const [block] = await tools.handleToolCalls({
      content: [{ type: "tool_use", id: 7, name: 42, input: {} }],
    });
    expect(block).toMatchObject({ tool_use_id: "", is_error: true });
    expect(block?.content).toMatch(/^Error \(UnknownCommand\): Unknown command ""/);
  });

  it("ignores unknown fields and unknown block types", () => {
    const tools = igniteTools(new Counter(), anthropic);
    const response = {
      ...message([]),
      future_field: { anything: true },
      content: [
        { type: "mystery_block", id: "m1", name: "increment", input: {} },
        { ...toolUse("toolu_01", "increment", { by: 1 }), toolset_name: null, extra: [1, 2] },
      ],
    };
    expect(tools.parseToolCalls(response)).toEqual([
      { id: "toolu_01", name: "increment", input: { by: 1 } },
    ]);
  });

  it("skips content entries that are not blocks at all", () => {
    const tools = igniteTools(new Counter(), anthropic);
    const content = [null, "text", 3, [], toolUse("toolu_01", "increment", {})];
    expect(tools.parseToolCalls({ content } as never)).toEqual([
      { id: "toolu_01", name: "increment", input: {} },
    ]);
  });

  it("reads strict calls as they come: Anthropic's strict mode never sends null for absent", () => {
    const tools = igniteTools(strictCases(), anthropic({ strict: true }));
    const calls = tools.parseToolCalls(
      message([
        toolUse("toolu_01", "pick", { colour: "red" }),
        toolUse("toolu_02", "pick", { colour: "red", when: null }),
        toolUse("toolu_03", "defaulted", { n: null }),
      ]),
    );
    expect(calls).toEqual([
      { id: "toolu_01", name: "pick", input: { colour: "red" } },
      // Not a value the schema allows, so validation answers it: it is not dropped silently.
      { id: "toolu_02", name: "pick", input: { colour: "red", when: null } },
      { id: "toolu_03", name: "defaulted", input: { n: null } },
    ]);
  });

  it("throws a TypeError saying what to pass when the response is not a Messages API response", () => {
    const tools = igniteTools(new Counter(), anthropic);
    const wrong: unknown[] = [
      new Response("{}"),
      '{"content":[]}',
      null,
      [toolUse("toolu_01", "increment", {})],
      { choices: [] },
      Promise.resolve(message([])),
    ];
    const messages = wrong.map((value) => {
      try {
        tools.parseToolCalls(value as Message);
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        return (error as Error).message;
      }
      return "did not throw";
    });
    const expects =
      "anthropic.parseToolCalls expects a Messages API response (the parsed JSON with a `content` array, as `client.messages.create()` resolves it), got ";
    expect(messages).toEqual([
      `${expects}a Response (pass \`await response.json()\`)`,
      `${expects}a string`,
      `${expects}null`,
      `${expects}an array`,
      `${expects}an object of another shape`,
      `${expects}a Promise (await it first)`,
    ]);
  });
});

describe("anthropic.toToolResult", () => {
  const call: NeutralToolCall = { id: "toolu_01", name: "setLimit", input: 5 };

  it("answers a success with the observation as compact JSON and no is_error", () => {
    const block = anthropic.toToolResult(
      call,
      ok({ snapshot: { count: 0, limit: 5 }, events: [{ type: "limitChanged" }] }),
    );
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01",
      content: '{"snapshot":{"count":0,"limit":5},"events":[{"type":"limitChanged"}]}',
    });
    expect("is_error" in block).toBe(false);
  });

  it("answers each error kind with is_error: true and a text the model can act on", () => {
    const errors: ToolError[] = [
      { kind: "UnknownCommand", name: "setLimit", message: "Unknown command." },
      { kind: "Unavailable", name: "setLimit", message: "Not now." },
      {
        kind: "InvalidInput",
        name: "setLimit",
        message: "Bad input.",
        issues: [{ path: "", message: "must be <= 12", keyword: "maximum" }],
      },
      { kind: "ExecuteFailed", name: "setLimit", message: "Boom.", cause: new Error("boom") },
    ];
    const blocks = errors.map((error) => anthropic.toToolResult(call, err(error)));
    const base = { type: "tool_result", tool_use_id: "toolu_01", is_error: true } as const;
    expect(blocks).toEqual<ToolResultBlockParam[]>([
      { ...base, content: "Error (UnknownCommand): Unknown command." },
      { ...base, content: "Error (Unavailable): Not now." },
      {
        ...base,
        content:
          'Error (InvalidInput): Bad input.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
      },
      { ...base, content: "Error (ExecuteFailed): Boom." },
    ]);
  });

  it("quotes the provider's name in an error for a mapped tool", async () => {
    const tools = igniteTools(named(), anthropic);
    const name = tools.toToolDefs().find((def) => def.name.startsWith("set_limit_"))?.name ?? "";
    const [block] = await tools.handleToolCalls(message([toolUse("toolu_01", name, { n: "x" })]));
    expect(block?.content).toBe(
      `Error (InvalidInput): Invalid input for "${name}": /n must be integer. Fix the input and call again.\nIssues: [{"path":"/n","message":"must be integer","keyword":"type"}]`,
    );
  });

  it("never throws, even for an observation JSON cannot encode", () => {
    const snapshot: Record<string, unknown> = { big: 10n };
    snapshot.self = snapshot;
    const block = anthropic.toToolResult({ name: "x", input: {} }, ok({ snapshot, events: [] }));
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "",
      content: '{"snapshot":{"big":"10","self":"[Circular]"},"events":[]}',
    });
  });
});

describe("anthropic through igniteTools", () => {
  it("handles a parallel turn end to end: one result per call, same order, same ids", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, anthropic);
    const response = message([
      thinking,
      text,
      toolUse("toolu_01", "increment", { by: 2 }),
      toolUse("toolu_02", "setLimit", { value: 7 }),
      toolUse("toolu_03", "setLimit", { value: 50 }),
      toolUse("toolu_04", "unlock", {}),
      toolUse("toolu_05", "reset", {}),
    ]);
    const blocks = await tools.handleToolCalls(response);
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "setLimit", input: 7 },
      { command: "reset", input: undefined },
    ]);
    expect(blocks).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_01",
        content:
          '{"snapshot":{"count":2,"limit":10,"locked":false},"events":[{"type":"incremented","payload":{"by":2}}]}',
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_02",
        content:
          '{"snapshot":{"count":2,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_03",
        content:
          'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
        is_error: true,
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_04",
        content:
          'Error (Unavailable): Command "unlock" is not available in the current state. Use one of the tools offered now.',
        is_error: true,
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_05",
        content: '{"snapshot":{"count":0,"limit":7,"locked":false},"events":[{"type":"reset"}]}',
      },
    ]);
  });

  it("answers ExecuteFailed when the component throws, without rejecting", async () => {
    const component = failingSave();
    const [block] = await igniteTools(component, anthropic).handleToolCalls(
      message([toolUse("toolu_01", "save", {})]),
    );
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01",
      content: 'Error (ExecuteFailed): Command "save" failed: disk full',
      is_error: true,
    });
  });
});

describe("anthropic.appendTurn", () => {
  const history: AnthropicMessage[] = [{ role: "user", content: "Count to two, limit 7." }];

  it("re-sends the assistant turn unchanged and answers every call in one user message", async () => {
    const tools = igniteTools(new Counter(), anthropic);
    const response = message([
      thinking,
      { type: "redacted_thinking", data: "c2VjcmV0" },
      text,
      toolUse("toolu_01", "increment", { by: 2 }),
      toolUse("toolu_02", "setLimit", { value: 7 }),
    ]);
    const original = structuredClone(response.content);
    const results = await tools.handleToolCalls(response);
    const next = tools.appendTurn(history, response, results);
    expect(next).toHaveLength(3);
    expect(next[0]).toBe(history[0]);
    expect(next[1]).toEqual({ role: "assistant", content: original });
    expect(next[1]?.content).not.toBe(response.content);
    expect(next[2]).toEqual({ role: "user", content: results });
    expect(history).toHaveLength(1);
    expect(response.content).toEqual(original);
  });

  it("appends only the assistant turn when there are no results", () => {
    const response = message([text], "end_turn");
    expect(anthropic.appendTurn(history, response, [])).toEqual([
      ...history,
      { role: "assistant", content: [text] },
    ]);
  });

  it("throws the same TypeError as parseToolCalls for a response that is not one", () => {
    expect(() => anthropic.appendTurn(history, new Response("{}") as never, [])).toThrow(
      /^anthropic\.appendTurn expects a Messages API response/,
    );
  });
});

describe("anthropic({ strict: true }) within Anthropic's documented limits", () => {
  const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)) => ({
    type: "object",
    properties,
    required,
    additionalProperties: false,
  });
  /** `count` commands `t00`, `t01`, …, each with the input `make` gives it. */
  const commands = (count: number, make: (index: number) => JsonSchema) =>
    buildManifest({
      commands: Object.fromEntries(
        Array.from({ length: count }, (_, index) => [
          `t${String(index).padStart(2, "0")}`,
          { input: make(index) },
        ]),
      ),
    });
  const offer = (manifest: ReturnType<typeof buildManifest>) => {
    const warnings: ToolWarning[] = [];
    const defs = anthropic({ strict: true }).toToolDefs(manifest, {
      warn: (warning) => warnings.push(warning),
    });
    return { strict: defs.filter((def) => def.strict).map((def) => def.name), warnings };
  };

  it("sends a recursive schema without strict mode, which Anthropic's strict mode refuses", () => {
    const tree = {
      ...closed({ label: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }),
    };
    const { strict, warnings } = offer(buildManifest({ commands: { plant: { input: tree } } }));
    expect(strict).toEqual([]);
    expect(warnings).toEqual([
      {
        code: "strict-fallback",
        command: "plant",
        message: expect.stringMatching(/does not accept recursive schemas/),
      },
    ]);
  });

  it("keeps 17 optional fields optional, as one strict tool, instead of 17 unions", () => {
    const fields = Object.fromEntries(
      Array.from({ length: 17 }, (_, index) => [`f${index}`, { type: "string" }]),
    );
    const manifest = buildManifest({ commands: { form: { input: closed(fields, []) } } });
    const [def] = anthropic({ strict: true }).toToolDefs(manifest);
    expect(def?.strict).toBe(true);
    expect(def?.input_schema).toEqual(closed(fields, []));
  });

  it("sends at most 20 tools strict, the first 20 by name, and reports the others", () => {
    const { strict, warnings } = offer(commands(21, () => closed({ n: { type: "integer" } })));
    expect(strict).toHaveLength(20);
    expect(strict).not.toContain("t20");
    expect(warnings).toEqual([
      {
        code: "strict-fallback",
        command: "t20",
        message: '"t20" is sent non-strict: Anthropic allows at most 20 strict tools per request.',
      },
    ]);
  });

  it("keeps the optional parameters of the strict tools of a request within 24", () => {
    // Five optional parameters each: four tools hold 20; the fifth would make 25.
    const { strict, warnings } = offer(
      commands(6, (index) =>
        closed(
          Object.fromEntries(
            Array.from({ length: index === 5 ? 4 : 5 }, (_, n) => [`p${n}`, { type: "string" }]),
          ),
          [],
        ),
      ),
    );
    expect(strict).toEqual(["t00", "t01", "t02", "t03", "t05"]);
    expect(warnings.map((warning) => [warning.command, warning.message])).toEqual([
      ["t04", expect.stringMatching(/at most 24 optional parameters .* \(this tool has 5\)/)],
    ]);
  });

  it("keeps the parameters with union types of the strict tools of a request within 16", () => {
    const union = { anyOf: [{ type: "string" }, { type: "integer" }] };
    const { strict, warnings } = offer(
      commands(3, () =>
        closed(Object.fromEntries(Array.from({ length: 6 }, (_, n) => [`u${n}`, union]))),
      ),
    );
    expect(strict).toEqual(["t00", "t01"]);
    expect(warnings.map((warning) => warning.command)).toEqual(["t02"]);
    expect(warnings[0]?.message).toMatch(/at most 16 parameters with union types/);
  });
});
