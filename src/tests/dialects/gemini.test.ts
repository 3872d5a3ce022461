import {
  BlockedReason,
  type Candidate,
  type Content,
  FinishReason,
  GenerateContentResponse,
  type Part,
} from "@google/genai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GeminiContent, gemini } from "../../tools/dialects/gemini/dialect.js";
import { toGeminiSchema } from "../../tools/dialects/gemini/downgrade.js";
import type { GeminiSchema } from "../../tools/dialects/gemini/schema.js";
import {
  buildManifest,
  err,
  igniteTools,
  type JsonSchema,
  type NeutralToolCall,
  ok,
  type ToolError,
} from "../../tools/index.js";
import { Counter, componentWith, LONG, NAMED_COMMANDS } from "../fixtures.js";

/** A response as the SDK returns it: a real `GenerateContentResponse` instance. */
function response(parts: Part[], candidate: Partial<Candidate> = {}): GenerateContentResponse {
  return Object.assign(new GenerateContentResponse(), {
    candidates: [
      {
        content: { role: "model", parts },
        finishReason: FinishReason.STOP,
        index: 0,
        ...candidate,
      },
    ],
    modelVersion: "gemini-2.5-flash",
    responseId: "r-1",
  });
}

function call(name: string, args?: Record<string, unknown>, id?: string): Part {
  return {
    functionCall: { name, ...(args === undefined ? {} : { args }), ...(id ? { id } : {}) },
  };
}

const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
/**
 * The shared names but `todo add` (Gemini accepts `todo.add`, so it has no twin to keep apart),
 * plus two more Gemini refuses: a slash and a leading digit.
 */
const { "todo add": _twin, ...geminiCommands } = NAMED_COMMANDS;
const named = () => componentWith({ ...geminiCommands, "set/limit": {}, "2fa": {} });

function nameOf(defs: ReturnType<typeof gemini.toToolDefs>, command: string, manifest = named()) {
  const index = buildManifest(manifest.getSchema()).findIndex((tool) => tool.name === command);
  return defs[0]?.functionDeclarations[index]?.name ?? "";
}

describe("gemini tool definitions (JSON Schema, the default)", () => {
  it("declares every available command in one tool, with its schema as parametersJsonSchema", () => {
    const defs = igniteTools(new Counter(), gemini).toToolDefs();
    expect(defs).toEqual([
      {
        functionDeclarations: [
          {
            name: "increment",
            description: "Add `by` (default 1) to the count.",
            parametersJsonSchema: {
              type: "object",
              properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
              additionalProperties: false,
            },
          },
          {
            name: "setLimit",
            description: "Set the highest count allowed.",
            parametersJsonSchema: {
              type: "object",
              properties: { value: { type: "number", minimum: 0, maximum: 12 } },
              required: ["value"],
              additionalProperties: false,
            },
          },
        ],
      },
    ]);
  });

  it("leaves the description out when a command has none", () => {
    const counter = new Counter();
    counter.state = { ...counter.state, count: 1, locked: true };
    const declarations = igniteTools(counter, gemini).toToolDefs()[0]?.functionDeclarations ?? [];
    const unlock = declarations.find((declaration) => declaration.name === "unlock");
    expect(unlock).toEqual({
      name: "unlock",
      parametersJsonSchema: { type: "object", properties: {}, additionalProperties: false },
    });
  });

  it("sends no tool at all when no command is available", () => {
    const none = igniteTools({ getSchema: () => ({ commands: {} }), execute: () => ({}) as never });
    expect(gemini.toToolDefs(none.manifest())).toEqual([]);
  });

  it("keeps names Gemini accepts, dots included, and maps the others to distinct safe names", () => {
    const defs = igniteTools(named(), gemini).toToolDefs();
    const names = defs[0]?.functionDeclarations.map((declaration) => declaration.name) ?? [];
    expect(names).toHaveLength(6);
    expect(new Set(names).size).toBe(6);
    for (const name of names) expect(name).toMatch(GEMINI_NAME);
    expect(nameOf(defs, "todo.add")).toBe("todo.add");
    expect(nameOf(defs, "note")).toBe("note");
    expect(nameOf(defs, "set limit")).toMatch(/^set_limit_[0-9a-z]+$/);
    expect(nameOf(defs, "set/limit")).toMatch(/^set_limit_[0-9a-z]+$/);
    expect(nameOf(defs, "2fa")).toMatch(/^_2fa_[0-9a-z]+$/);
    expect(nameOf(defs, LONG).length).toBeLessThanOrEqual(64);
  });
});

describe("gemini tool definitions in OpenAPI mode", () => {
  const openapi = gemini({ schema: "openapi" });

  it("declares `parameters` downgraded to Gemini's Schema instead of parametersJsonSchema", () => {
    const defs = igniteTools(new Counter(), openapi).toToolDefs();
    expect(defs).toEqual([
      {
        functionDeclarations: [
          {
            name: "increment",
            description: "Add `by` (default 1) to the count.",
            parameters: {
              type: "OBJECT",
              properties: { by: { type: "INTEGER", minimum: 1, maximum: 5, default: 1 } },
            },
          },
          {
            name: "setLimit",
            description: "Set the highest count allowed.",
            parameters: {
              type: "OBJECT",
              properties: { value: { type: "NUMBER", minimum: 0, maximum: 12 } },
              required: ["value"],
            },
          },
        ],
      },
    ]);
  });

  it("leaves parameters unset for a command without input, as Gemini asks", () => {
    const counter = new Counter();
    counter.state = { ...counter.state, count: 1 };
    const declarations = igniteTools(counter, openapi).toToolDefs()[0]?.functionDeclarations;
    expect(declarations?.find((declaration) => declaration.name === "reset")).toEqual({
      name: "reset",
      description: "Back to zero.",
    });
  });

  it("leaves parameters unset for an open object, which Gemini's Schema cannot declare", () => {
    const manifest = buildManifest({ commands: { note: { input: { type: "object" } } } });
    expect(openapi.toToolDefs(manifest)).toEqual([{ functionDeclarations: [{ name: "note" }] }]);
  });

  it("still validates every call against the full original schema", async () => {
    const tools = igniteTools(
      {
        getSchema: () => ({
          commands: { pay: { input: { type: "number", exclusiveMinimum: 0, multipleOf: 0.01 } } },
        }),
        execute: (_command, input) => ({ state: input, events: [] }),
      },
      openapi,
    );
    const parameters = tools.toToolDefs()[0]?.functionDeclarations[0]?.parameters;
    expect(parameters?.properties?.value).toEqual({ type: "NUMBER", minimum: 0 });
    const [zero, cents, fine] = await tools.handleToolCalls(
      response([
        call("pay", { value: 0 }),
        call("pay", { value: 1.001 }),
        call("pay", { value: 3 }),
      ]),
    );
    expect(zero?.functionResponse.response.error).toMatch(/^Error \(InvalidInput\): .*must be > 0/);
    expect(cents?.functionResponse.response.error).toMatch(/multiple of 0\.01/);
    expect(fine?.functionResponse.response).toEqual({ output: { snapshot: 3, events: [] } });
  });

  it("offers an enum of numbers as their texts, and reads the model's text back as the number", async () => {
    const ran: unknown[] = [];
    const component = {
      getSchema: () => ({
        commands: {
          fan: {
            input: {
              type: "object",
              properties: { speed: { enum: [1, 2, 3] }, mode: { enum: ["low", 2] } },
              required: ["speed"],
              additionalProperties: false,
            },
          },
          ratio: { input: { type: "number", enum: [0.5, 1] } },
        },
      }),
      execute: (_command: string, input?: unknown) => {
        ran.push(input);
        return { state: null, events: [] };
      },
    };
    const tools = igniteTools(component, openapi);
    const [fan, ratio] = tools.toToolDefs()[0]?.functionDeclarations ?? [];
    // Gemini's enums are strings, and every node needs a type: `{}` and no enum would tell nothing.
    expect(fan?.parameters?.properties).toEqual({
      speed: { type: "STRING", enum: ["1", "2", "3"] },
      mode: { type: "STRING", enum: ["low", "2"] },
    });
    expect(ratio?.parameters?.properties?.value).toEqual({ type: "STRING", enum: ["0.5", "1"] });
    const blocks = await tools.handleToolCalls(
      response([
        call("fan", { speed: "2", mode: "2" }),
        call("fan", { speed: 3, mode: "low" }),
        call("ratio", { value: "0.5" }),
        call("fan", { speed: "4" }),
      ]),
    );
    expect(ran).toEqual([{ speed: 2, mode: 2 }, { speed: 3, mode: "low" }, 0.5]);
    expect(blocks[3]?.functionResponse.response.error).toMatch(/^Error \(InvalidInput\)/);
    // JSON mode tells the numbers as numbers, so a text there is the model's mistake.
    const [json] = await igniteTools(component, gemini).handleToolCalls(
      response([call("ratio", { value: "0.5" })]),
    );
    expect(json?.functionResponse.response.error).toMatch(/^Error \(InvalidInput\)/);
  });

  it("reads numbers back inside arrays and union branches", () => {
    const input = {
      type: "object",
      properties: {
        levels: { type: "array", items: { enum: [1, 2] } },
        either: { anyOf: [{ type: "boolean" }, { enum: [0.5, 1.5] }] },
        tag: { type: "string" },
      },
      additionalProperties: false,
    };
    const manifest = buildManifest({ commands: { tune: { input } } });
    const [parsed] = openapi.parseToolCalls(
      response([call("tune", { levels: ["2", "1"], either: "1.5", tag: "2" })]),
      manifest,
    );
    expect(parsed?.input).toEqual({ levels: [2, 1], either: 1.5, tag: "2" });
  });

  it("parses and answers calls exactly as JSON mode does", () => {
    const manifest = igniteTools(new Counter()).manifest();
    const reply = response([call("increment", { by: 2 }), call("setLimit", { value: 8 })]);
    expect(openapi.parseToolCalls(reply, manifest)).toEqual(gemini.parseToolCalls(reply, manifest));
    const result = ok({ snapshot: 1, events: [] });
    const parsed: NeutralToolCall = { id: "call_0", name: "increment", input: { by: 2 } };
    expect(openapi.toToolResult(parsed, result)).toEqual(gemini.toToolResult(parsed, result));
  });
});

describe("gemini.parseToolCalls", () => {
  const manifest = buildManifest(new Counter().getSchema());

  it("reads every functionCall part of the first candidate, in order, with ids from positions", () => {
    const reply = response([
      { text: "I'll do both." },
      call("increment", { by: 2 }),
      { text: "", thought: true, thoughtSignature: "c2lnbmF0dXJl" },
      call("setLimit", { value: 8 }),
    ]);
    expect(gemini.parseToolCalls(reply, manifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 2 } },
      { id: "call_1", name: "setLimit", input: 8 },
    ]);
  });

  it("keeps the ids the model sent, and numbers only the calls without one", () => {
    const reply = response([call("increment", { by: 1 }, "fc-7d1"), call("reset", {})]);
    expect(gemini.parseToolCalls(reply, manifest).map((parsed) => parsed.id)).toEqual([
      "fc-7d1",
      "call_1",
    ]);
  });

  it("unwraps a scalar command's { value }, but not an object command's own `value`", () => {
    const manifest = buildManifest(named().getSchema());
    const defs = gemini.toToolDefs(manifest);
    const reply = response([
      call("todo.add", { value: "milk" }),
      call("note", { value: "call mum" }),
      call("todo.add", { text: "milk" }),
    ]);
    expect(gemini.parseToolCalls(reply, manifest)).toEqual([
      { id: "call_0", name: "todo.add", input: "milk" },
      { id: "call_1", name: "note", input: { value: "call mum" } },
      {
        id: "call_2",
        name: "todo.add",
        input: undefined,
        inputError: 'arguments must be an object { "value": ... }',
      },
    ]);
    expect(defs[0]?.functionDeclarations.map((declaration) => declaration.name)).toContain(
      "todo.add",
    );
  });

  it("maps safe names back to their commands, keeping the provider name to answer with", () => {
    const manifest = buildManifest(named().getSchema());
    const defs = gemini.toToolDefs(manifest);
    const limit = nameOf(defs, "set limit");
    const slash = nameOf(defs, "set/limit");
    const reply = response([call(limit, { n: 3 }), call(slash), call(nameOf(defs, LONG))]);
    expect(gemini.parseToolCalls(reply, manifest)).toEqual([
      { id: "call_0", name: "set limit", toolName: limit, input: { n: 3 } },
      { id: "call_1", name: "set/limit", toolName: slash, input: {} },
      { id: "call_2", name: LONG, toolName: nameOf(defs, LONG), input: {} },
    ]);
  });

  it("answers a name that was never offered, or no name at all, as an unknown command", async () => {
    const tools = igniteTools(named(), gemini);
    const results = await tools.handleToolCalls(
      response([call("set_limit", { n: 1 }), { functionCall: { args: {} } }]),
    );
    expect(results.map((result) => result.functionResponse)).toEqual([
      {
        name: "set_limit",
        response: {
          error:
            'Error (UnknownCommand): Unknown command "set_limit". Call one of the tools you were offered.',
        },
      },
      {
        name: "",
        response: {
          error:
            'Error (UnknownCommand): Unknown command "". Call one of the tools you were offered.',
        },
      },
    ]);
  });

  it("reads missing args as {} and args that are not an object as an input error", () => {
    const parts: Part[] = [
      { functionCall: { name: "reset" } },
      { functionCall: { name: "increment", args: JSON.parse('"{\\"by\\":1}"') } },
      { functionCall: { name: "increment", args: JSON.parse("null") } },
      { functionCall: { name: "increment", args: JSON.parse("[1]") } },
    ];
    expect(gemini.parseToolCalls(response(parts), manifest)).toEqual([
      { id: "call_0", name: "reset", input: {} },
      {
        id: "call_1",
        name: "increment",
        input: undefined,
        inputError: "arguments must be a JSON object, not a string",
      },
      {
        id: "call_2",
        name: "increment",
        input: undefined,
        inputError: "arguments must be a JSON object, not null",
      },
      {
        id: "call_3",
        name: "increment",
        input: undefined,
        inputError: "arguments must be a JSON object, not an array",
      },
    ]);
  });

  it("ignores unknown fields, other part types, and parts that are not objects", () => {
    const reply = JSON.parse(
      JSON.stringify({
        candidates: [
          {
            content: {
              role: "model",
              parts: [
                null,
                "text",
                { inlineData: { mimeType: "image/png", data: "iVBO" } },
                { executableCode: { language: "PYTHON", code: "print(1)" } },
                { functionCall: "increment" },
                {
                  functionCall: { name: "increment", args: { by: 3 }, willContinue: false, x: 1 },
                  partMetadata: { a: 1 },
                },
              ],
              extra: true,
            },
            safetyRatings: [],
          },
        ],
        usageMetadata: { totalTokenCount: 3 },
      }),
    );
    expect(gemini.parseToolCalls(reply, manifest)).toEqual([
      { id: "call_0", name: "increment", input: { by: 3 } },
    ]);
  });

  it("reads only the first candidate", () => {
    const reply = response([call("increment", { by: 1 })]);
    const second = { content: { role: "model", parts: [call("reset")] }, index: 1 };
    reply.candidates?.push(second);
    expect(gemini.parseToolCalls(reply, manifest)).toHaveLength(1);
  });

  it("finds no calls in a reply without function calls, a blocked prompt or a cut-off turn", () => {
    const blocked = Object.assign(new GenerateContentResponse(), {
      promptFeedback: { blockReason: BlockedReason.SAFETY },
    });
    const replies: unknown[] = [
      response([{ text: "The count is 2." }]),
      response([], { content: undefined, finishReason: FinishReason.MALFORMED_FUNCTION_CALL }),
      response([], { content: undefined, finishReason: FinishReason.SAFETY }),
      response([], { content: { role: "model" }, finishReason: FinishReason.MAX_TOKENS }),
      blocked,
      new GenerateContentResponse(),
      {},
      Object.create(null),
      { candidates: [] },
      { candidates: [null] },
      { candidates: [{ content: "text" }] },
      { candidates: [{ content: { parts: "text" } }] },
    ];
    for (const reply of replies) {
      expect(gemini.parseToolCalls(reply as GenerateContentResponse, manifest)).toEqual([]);
    }
  });

  it("throws a TypeError that says what to pass when given something that is not a response", () => {
    const wrong: [unknown, RegExp][] = [
      [new Response("{}"), /got a Response \(pass `await response.json\(\)`\)$/],
      ['{"candidates":[]}', /got a string$/],
      [null, /got null$/],
      [[], /got an array$/],
      [Promise.resolve({}), /got a Promise \(await it first\)$/],
      [{ candidates: {} }, /got `candidates` that is not an array$/],
    ];
    for (const [value, message] of wrong) {
      const parse = () => gemini.parseToolCalls(value as GenerateContentResponse, manifest);
      expect(parse).toThrow(TypeError);
      expect(parse).toThrow(/^gemini\.parseToolCalls expects a generateContent response/);
      expect(parse).toThrow(message);
    }
  });
});

describe("gemini.toToolResult", () => {
  const parsed: NeutralToolCall = { id: "call_0", name: "increment", input: { by: 2 } };

  it("answers success as { output } with the observation as JSON data", () => {
    const result = ok({ snapshot: { count: 2n, at: new Date(0) }, events: [{ type: "x" }] });
    expect(gemini.toToolResult(parsed, result)).toEqual({
      functionResponse: {
        name: "increment",
        response: {
          output: {
            snapshot: { count: "2", at: "1970-01-01T00:00:00.000Z" },
            events: [{ type: "x" }],
          },
        },
      },
    });
  });

  it("echoes an id only when the model sent one", () => {
    const result = ok({ snapshot: 1, events: [] });
    expect(gemini.toToolResult({ ...parsed, id: "fc-1" }, result).functionResponse.id).toBe("fc-1");
    expect(gemini.toToolResult(parsed, result).functionResponse).not.toHaveProperty("id");
    expect(
      gemini.toToolResult({ name: "x", input: {} }, result).functionResponse,
    ).not.toHaveProperty("id");
  });

  it("answers with the provider name the model called", () => {
    const mapped: NeutralToolCall = { ...parsed, name: "set limit", toolName: "set_limit_abc" };
    // The bridge makes the message with the name the model called; the dialect keeps it as is.
    const error: ToolError = {
      kind: "ExecuteFailed",
      name: "set limit",
      message: 'Command "set_limit_abc" failed: no',
    };
    expect(gemini.toToolResult(mapped, err(error)).functionResponse).toEqual({
      name: "set_limit_abc",
      response: { error: 'Error (ExecuteFailed): Command "set_limit_abc" failed: no' },
    });
  });

  it("answers each kind of error as { error } with the text the model reads", () => {
    const errors: [ToolError, string][] = [
      [
        {
          kind: "UnknownCommand",
          name: "x",
          message: 'Unknown command "x". Call one of the tools you were offered.',
        },
        'Error (UnknownCommand): Unknown command "x". Call one of the tools you were offered.',
      ],
      [
        {
          kind: "Unavailable",
          name: "x",
          message: 'Command "x" is not available in the current state.',
        },
        'Error (Unavailable): Command "x" is not available in the current state.',
      ],
      [
        {
          kind: "InvalidInput",
          name: "x",
          issues: [{ path: "/by", message: "must be <= 5", keyword: "maximum" }],
          message: 'Invalid input for "x": /by must be <= 5. Fix the input and call again.',
        },
        'Error (InvalidInput): Invalid input for "x": /by must be <= 5. Fix the input and call again.\n' +
          'Issues: [{"path":"/by","message":"must be <= 5","keyword":"maximum"}]',
      ],
      [
        {
          kind: "ExecuteFailed",
          name: "x",
          message: 'Command "x" failed: disk full',
          cause: new Error("disk full"),
        },
        'Error (ExecuteFailed): Command "x" failed: disk full',
      ],
    ];
    for (const [error, text] of errors) {
      expect(gemini.toToolResult(parsed, err(error))).toEqual({
        functionResponse: { name: "increment", response: { error: text } },
      });
    }
  });

  it("never throws, whatever the observation holds, and caps an oversized one", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const answer = gemini.toToolResult(parsed, ok({ snapshot: circular, events: [] }));
    expect(answer.functionResponse.response).toEqual({
      output: { snapshot: { self: "[Circular]" }, events: [] },
    });
    const huge = gemini.toToolResult(parsed, ok({ snapshot: "x".repeat(30_000), events: [] }));
    const { output } = huge.functionResponse.response;
    expect(output).toEqual({
      truncated: expect.stringMatching(/^the result was cut: showing the first \d+ of 30027 /),
      partial: expect.stringMatching(/^\{"snapshot":"x+$/),
    });
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(20_000);
  });

  it("answers a call whose projected observation is undefined", () => {
    const nothing = gemini.toToolResult(parsed, ok(undefined as never));
    expect(nothing.functionResponse.response).toEqual({ output: null });
  });
});

describe("gemini end to end", () => {
  it("runs every call of a turn in order and answers each in the same order", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, gemini);
    const results = await tools.handleToolCalls(
      response([
        call("increment", { by: 2 }),
        call("setLimit", { value: 8 }),
        call("reset"),
        call("unlock"),
        call("setLimit", { value: 40 }),
      ]),
    );
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "setLimit", input: 8 },
      { command: "reset", input: undefined },
    ]);
    expect(results).toEqual([
      {
        functionResponse: {
          name: "increment",
          response: {
            output: {
              snapshot: { count: 2, limit: 10, locked: false },
              events: [{ type: "incremented", payload: { by: 2 } }],
            },
          },
        },
      },
      {
        functionResponse: {
          name: "setLimit",
          response: {
            output: {
              snapshot: { count: 2, limit: 8, locked: false },
              events: [{ type: "limitChanged", payload: { limit: 8 } }],
            },
          },
        },
      },
      {
        functionResponse: {
          name: "reset",
          response: {
            output: {
              snapshot: { count: 0, limit: 8, locked: false },
              events: [{ type: "reset" }],
            },
          },
        },
      },
      {
        functionResponse: {
          name: "unlock",
          response: {
            error:
              'Error (Unavailable): Command "unlock" is not available in the current state. Use one of the tools offered now.',
          },
        },
      },
      {
        functionResponse: {
          name: "setLimit",
          response: {
            error:
              'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\n' +
              'Issues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
          },
        },
      },
    ]);
  });
});

describe("gemini.appendTurn", () => {
  const turn: Content = {
    role: "model",
    parts: [
      { text: "Counting on it.", thought: true, thoughtSignature: "dGhvdWdodA==" },
      { ...call("increment", { by: 2 }), thoughtSignature: "c2lnbmF0dXJl" },
      call("setLimit", { value: 8 }),
    ],
  };
  const history: GeminiContent[] = [{ role: "user", parts: [{ text: "Add two, limit eight." }] }];

  it("re-sends the model's turn unchanged, then one user turn with every result in order", async () => {
    const reply = response([]);
    const first = reply.candidates?.[0];
    if (first) first.content = turn;
    const original = structuredClone(turn);
    const tools = igniteTools(new Counter(), gemini);
    const results = await tools.handleToolCalls(reply);
    const next = tools.appendTurn(history, reply, results);
    expect(next).toHaveLength(3);
    expect(next[0]).toBe(history[0]);
    expect(next[1]).toEqual(original);
    expect(next[2]).toEqual({ role: "user", parts: results });
    expect(next[2]?.parts?.map((part) => part.functionResponse?.name)).toEqual([
      "increment",
      "setLimit",
    ]);
    expect(history).toHaveLength(1);
  });

  it("adds no user turn when the model made no call, and no model turn when it gave none", () => {
    const final = response([{ text: "Done." }]);
    expect(gemini.appendTurn(history, final, [])).toEqual([
      ...history,
      { role: "model", parts: [{ text: "Done." }] },
    ]);
    const blocked = { promptFeedback: { blockReason: "SAFETY" } };
    expect(gemini.appendTurn(history, blocked, [])).toEqual(history);
  });

  it("throws the same TypeError as parseToolCalls for something that is not a response", () => {
    expect(() => gemini.appendTurn(history, "nope" as never, [])).toThrow(
      /^gemini\.appendTurn expects a generateContent response .* got a string$/,
    );
  });
});

/** What a node that allows any value is told: Gemini wants a type on every node. */
const ANY: GeminiSchema = {
  anyOf: [
    { type: "STRING" },
    { type: "NUMBER" },
    { type: "BOOLEAN" },
    { type: "OBJECT" },
    {
      type: "ARRAY",
      items: {
        anyOf: [{ type: "STRING" }, { type: "NUMBER" }, { type: "BOOLEAN" }, { type: "OBJECT" }],
      },
    },
  ],
};

describe("the OpenAPI downgrade", () => {
  const cases: [string, JsonSchema, GeminiSchema][] = [
    ["upper-cases each type", { type: "boolean" }, { type: "BOOLEAN" }],
    [
      "converts nested items and properties",
      { type: "array", items: { type: "object", properties: { n: { type: "integer" } } } },
      { type: "ARRAY", items: { type: "OBJECT", properties: { n: { type: "INTEGER" } } } },
    ],
    [
      "tells [T, null] as nullable T",
      { type: ["string", "null"] },
      { type: "STRING", nullable: true },
    ],
    [
      "tells several types as an anyOf of types",
      { type: ["string", "number", "null"], description: "d" },
      { description: "d", nullable: true, anyOf: [{ type: "STRING" }, { type: "NUMBER" }] },
    ],
    ["tells a null type as any value, nullable", { type: "null" }, { nullable: true, ...ANY }],
    [
      "keeps an OpenAPI nullable",
      { type: "string", nullable: true },
      { type: "STRING", nullable: true },
    ],
    ["tells a string const as a one-value enum", { const: "on" }, { type: "STRING", enum: ["on"] }],
    [
      "tells a number const as a one-value enum of its text",
      { type: "integer", const: 3 },
      { type: "STRING", enum: ["3"] },
    ],
    ["drops a const that is an object", { const: { a: 1 } }, ANY],
    [
      "keeps a string enum and gives it its type",
      { enum: ["heat", "cool", "off", "heat"] },
      { type: "STRING", enum: ["heat", "cool", "off"] },
    ],
    [
      "tells a null in a string enum as nullable",
      { type: "string", enum: ["a", "b", null] },
      { type: "STRING", nullable: true, enum: ["a", "b"] },
    ],
    [
      "tells an enum of numbers as their texts, dropping bounds the enum makes moot",
      { type: "integer", enum: [1, 2, 30], minimum: 1, format: "int32" },
      { type: "STRING", enum: ["1", "2", "30"] },
    ],
    [
      "tells an enum of strings and numbers as texts",
      { enum: ["a", 1] },
      { type: "STRING", enum: ["a", "1"] },
    ],
    ["drops an enum where a number and a string read the same", { enum: ["1", 1] }, ANY],
    ["tells an enum of booleans as a boolean", { enum: [true, false] }, { type: "BOOLEAN" }],
    [
      "drops a string enum on a type that is not a string",
      { type: "number", enum: ["1"] },
      { type: "NUMBER" },
    ],
    [
      "inlines a $ref into $defs, dropping the definitions",
      {
        type: "object",
        properties: { at: { $ref: "#/$defs/Point" } },
        $defs: {
          Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
        },
      },
      {
        type: "OBJECT",
        properties: {
          at: { type: "OBJECT", properties: { x: { type: "NUMBER" } }, required: ["x"] },
        },
      },
    ],
    [
      "inlines a $ref into definitions, its siblings winning",
      {
        properties: { who: { $ref: "#/definitions/Name", description: "Who to greet." } },
        definitions: { Name: { type: "string", description: "A name.", minLength: 1 } },
      },
      {
        type: "OBJECT",
        properties: { who: { type: "STRING", description: "Who to greet.", minLength: "1" } },
      },
    ],
    [
      "cuts a recursive $ref where it repeats, to a node of the type it points to",
      {
        type: "object",
        properties: { tree: { $ref: "#/$defs/Node" } },
        $defs: {
          Node: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
          },
        },
      },
      {
        type: "OBJECT",
        properties: {
          tree: {
            type: "OBJECT",
            properties: { children: { type: "ARRAY", items: { type: "OBJECT" } } },
          },
        },
      },
    ],
    [
      "cuts a reference to the root where it repeats",
      { type: "object", properties: { next: { $ref: "#" } } },
      {
        type: "OBJECT",
        properties: { next: { type: "OBJECT", properties: { next: { type: "OBJECT" } } } },
      },
    ],
    [
      "follows JSON Pointer escapes and array indexes",
      {
        properties: {
          a: { $ref: "#/$defs/a~1b" },
          b: { $ref: "#/$defs/with%20space" },
          c: { $ref: "#/$defs/list/1" },
        },
        $defs: {
          "a/b": { type: "string" },
          "with space": { type: "integer" },
          list: [{}, { type: "boolean" }],
        },
      },
      {
        type: "OBJECT",
        properties: { a: { type: "STRING" }, b: { type: "INTEGER" }, c: { type: "BOOLEAN" } },
      },
    ],
    [
      "drops a $ref it cannot resolve, keeping its siblings",
      {
        properties: {
          a: { $ref: "#/$defs/Missing", description: "a" },
          b: { $ref: "https://example.com/b.json" },
          c: { $ref: "#/$defs/%E0%A4%A" },
        },
      },
      { type: "OBJECT", properties: { a: { description: "a", ...ANY }, b: ANY, c: ANY } },
    ],
    [
      "tells oneOf as anyOf",
      { oneOf: [{ type: "string" }, { type: "integer" }] },
      { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
    ],
    [
      "tells a union with null as a nullable branch",
      {
        description: "d",
        anyOf: [
          { type: "string", minLength: 2 },
          { type: "null", description: "none" },
        ],
      },
      { description: "d", nullable: true, type: "STRING", minLength: "2" },
    ],
    [
      "keeps the other branches of a union with null",
      { anyOf: [{ type: "string" }, { type: "null" }, { type: "integer" }, false] },
      { nullable: true, anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
    ],
    [
      "tells a union with a branch that accepts anything as any value",
      { anyOf: [{ type: "string" }, true] },
      ANY,
    ],
    [
      "drops anyOf beside a type, which the SDK refuses",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        anyOf: [{ required: ["a"] }, { required: ["b"] }],
      },
      { type: "OBJECT", properties: { a: { type: "STRING" }, b: { type: "STRING" } } },
    ],
    [
      "keeps the type's anyOf when a schema also has its own",
      { type: ["string", "integer"], anyOf: [{ minLength: 1 }, { minimum: 0 }] },
      { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
    ],
    [
      "merges allOf: properties and required united, own keywords first",
      {
        description: "own",
        allOf: [
          {
            type: "object",
            description: "first",
            properties: { a: { type: "string" } },
            required: ["a"],
          },
          { properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["b", "a"] },
        ],
      },
      {
        description: "own",
        type: "OBJECT",
        properties: { a: { type: "STRING" }, b: { type: "INTEGER" } },
        required: ["a", "b"],
      },
    ],
    [
      "merges integer and number as integer",
      { allOf: [{ type: "number" }, { type: "integer" }] },
      { type: "INTEGER" },
    ],
    [
      "tells any value where allOf's types contradict",
      { allOf: [{ type: "string" }, { type: "integer" }] },
      ANY,
    ],
    [
      "drops every keyword Gemini's Schema lacks",
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $id: "urn:x",
        $comment: "c",
        type: "object",
        properties: { a: { type: "string", not: { const: "" }, contentEncoding: "base64" } },
        additionalProperties: false,
        patternProperties: { "^x": {} },
        propertyNames: { maxLength: 3 },
        unevaluatedProperties: false,
        dependentRequired: { a: ["b"] },
        if: { required: ["a"] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own if/then/else keyword
        then: {},
        else: {},
        $defs: {},
        definitions: {},
      },
      { type: "OBJECT", properties: { a: { type: "STRING" } } },
    ],
    [
      "drops array keywords Gemini lacks, and tuple items",
      {
        type: "array",
        items: [{ type: "string" }],
        prefixItems: [{}],
        uniqueItems: true,
        contains: {},
      },
      { type: "ARRAY", items: ANY },
    ],
    [
      "tells exclusive bounds as inclusive ones, the tighter bound winning",
      {
        type: "number",
        exclusiveMinimum: 0,
        minimum: -1,
        maximum: 10,
        exclusiveMaximum: 5,
        multipleOf: 2,
      },
      { type: "NUMBER", minimum: 0, maximum: 5 },
    ],
    [
      "ignores draft-04 boolean exclusive bounds",
      { type: "number", minimum: 1, exclusiveMinimum: true },
      { type: "NUMBER", minimum: 1 },
    ],
    [
      "sends counts as int64 strings, dropping any that is not a count",
      {
        type: "object",
        properties: {
          s: { type: "string", minLength: 1, maxLength: 80 },
          a: { type: "array", items: { type: "string" }, minItems: 0, maxItems: 3, maxContains: 1 },
          o: { type: "object", properties: { x: {} }, minProperties: 1, maxProperties: 2.5 },
        },
      },
      {
        type: "OBJECT",
        properties: {
          s: { type: "STRING", minLength: "1", maxLength: "80" },
          a: { type: "ARRAY", items: { type: "STRING" }, minItems: "0", maxItems: "3" },
          o: { type: "OBJECT", properties: { x: ANY }, minProperties: "1" },
        },
      },
    ],
    [
      "keeps title, description, pattern, default and the first example",
      {
        type: "string",
        title: "T",
        description: "D",
        pattern: "^a",
        default: "ab",
        examples: ["ab", "ac"],
      },
      { type: "STRING", title: "T", description: "D", pattern: "^a", default: "ab", example: "ab" },
    ],
    [
      "keeps an OpenAPI example, but no null default",
      { type: "integer", example: 3, default: null },
      { type: "INTEGER", example: 3 },
    ],
    [
      "keeps only the formats Gemini accepts on their own type",
      {
        properties: {
          at: { type: "string", format: "date-time" },
          mail: { type: "string", format: "email" },
          big: { type: "integer", format: "int64" },
          ratio: { type: "number", format: "double" },
          odd: { type: "string", format: "float" },
          untyped: { format: "date-time" },
        },
      },
      {
        type: "OBJECT",
        properties: {
          at: { type: "STRING", format: "date-time" },
          mail: { type: "STRING" },
          big: { type: "INTEGER", format: "int64" },
          ratio: { type: "NUMBER", format: "double" },
          odd: { type: "STRING" },
          untyped: ANY,
        },
      },
    ],
    [
      "keeps required and propertyOrdering to declared properties",
      {
        type: "object",
        properties: { a: {}, b: {}, x: false, y: true },
        required: ["a", "zz", 3, "a"],
        propertyOrdering: ["b", "a", "zz"],
      },
      {
        type: "OBJECT",
        properties: { a: ANY, b: ANY, y: ANY },
        required: ["a"],
        propertyOrdering: ["b", "a"],
      },
    ],
    [
      "drops a count past int64's exact range",
      { type: "string", maxLength: 1e21, minLength: -1 },
      { type: "STRING" },
    ],
    ["drops required without properties", { required: ["a"] }, ANY],
    [
      "ignores keywords whose values have the wrong shape",
      {
        type: 3,
        items: "x",
        properties: "x",
        anyOf: "x",
        allOf: "x",
        $ref: 3,
        title: 1,
        minLength: "1",
      },
      ANY,
    ],
  ];

  it.each(cases)("%s", (_name, input, expected) => {
    expect(toGeminiSchema(input)).toEqual(expected);
  });

  it("keeps a property named __proto__ as a property", () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const properties = toGeminiSchema(input).properties ?? {};
    expect(Object.hasOwn(properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it("stops at a depth limit instead of overflowing the stack", () => {
    let deep: JsonSchema = { type: "string" };
    for (let level = 0; level < 10_000; level++) deep = { type: "array", items: deep };
    let depth = 0;
    for (let node: GeminiSchema | undefined = toGeminiSchema(deep); node; node = node.items)
      depth++;
    expect(depth).toBeGreaterThan(30);
    expect(depth).toBeLessThan(40);
  });

  it("bounds the size a schema of shared $refs can expand to", () => {
    const $defs: Record<string, JsonSchema> = { d30: { type: "string" } };
    for (let level = 29; level >= 0; level--) {
      const next = { $ref: `#/$defs/d${level + 1}` };
      $defs[`d${level}`] = { type: "object", properties: { a: next, b: next } };
    }
    // Unbounded, this would expand to 2^30 nodes.
    const out = toGeminiSchema({
      type: "object",
      properties: { root: { $ref: "#/$defs/d0" } },
      $defs,
    });
    const count = (node: GeminiSchema): number =>
      1 +
      (node.items ? count(node.items) : 0) +
      Object.values(node.properties ?? {}).reduce((sum, child) => sum + count(child), 0) +
      (node.anyOf ?? []).reduce((sum, child) => sum + count(child), 0);
    expect(count(out)).toBeLessThan(30_000);
    expect(JSON.stringify(out).length).toBeLessThan(2_000_000);
  });

  it("gives a well-formed Gemini schema for any JSON Schema, and never throws", () => {
    const leaf = fc.oneof(
      fc.constantFrom("string", "number", "integer", "boolean", "array", "object", "null"),
      fc.array(fc.constantFrom("string", "number", "null", "object"), { maxLength: 3 }),
    );
    const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof(
        { depthSize: "small" },
        fc.boolean(),
        fc.record(
          {
            type: leaf,
            enum: fc.array(value, { maxLength: 3 }),
            const: value,
            minLength: fc.oneof(fc.nat(), fc.double()),
            maximum: fc.double(),
            exclusiveMinimum: fc.oneof(fc.double(), fc.boolean()),
            format: fc.constantFrom("date-time", "email", "int64", "float"),
            items: tie("schema"),
            properties: fc.dictionary(fc.string(), tie("schema"), { maxKeys: 3 }),
            required: fc.array(fc.string(), { maxLength: 3 }),
            anyOf: fc.array(tie("schema"), { maxLength: 3 }),
            oneOf: fc.array(tie("schema"), { maxLength: 3 }),
            allOf: fc.array(tie("schema"), { maxLength: 3 }),
            $ref: fc.constantFrom("#", "#/$defs/a", "#/$defs/b", "#/nope", "%"),
            $defs: fc.record({ a: tie("schema"), b: tie("schema") }),
          },
          { requiredKeys: [] },
        ),
      ),
    }));
    const ALLOWED = new Set([
      "type",
      "format",
      "title",
      "description",
      "nullable",
      "enum",
      "items",
      "properties",
      "propertyOrdering",
      "required",
      "anyOf",
      "minimum",
      "maximum",
      "minLength",
      "maxLength",
      "minItems",
      "maxItems",
      "minProperties",
      "maxProperties",
      "pattern",
      "default",
      "example",
    ]);
    const TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);
    const check = (node: GeminiSchema): void => {
      for (const key of Object.keys(node)) expect(ALLOWED).toContain(key);
      // Every node is typed: a type, or an anyOf of typed nodes — never both, never neither.
      expect(node.type !== undefined).not.toBe(node.anyOf !== undefined);
      if (node.type !== undefined) expect(TYPES).toContain(node.type);
      if (node.type === "ARRAY") expect(node.items).toBeDefined();
      if (node.properties) expect(Object.keys(node.properties).length).toBeGreaterThan(0);
      for (const count of [node.minLength, node.maxItems]) {
        if (count !== undefined) expect(count).toMatch(/^\d+$/);
      }
      for (const item of node.enum ?? []) expect(typeof item).toBe("string");
      for (const name of node.required ?? [])
        expect(Object.hasOwn(node.properties ?? {}, name)).toBe(true);
      if (node.items) check(node.items);
      for (const branch of node.anyOf ?? []) check(branch);
      for (const property of Object.values(node.properties ?? {})) check(property);
    };
    fc.assert(
      fc.property(schema, (input) => {
        check(
          toGeminiSchema({ type: "object", properties: { p: input }, $defs: { a: input, b: {} } }),
        );
      }),
      { numRuns: 300 },
    );
    // The random schemas are pathological on purpose ($refs to the root from every branch):
    // each is converted up to its 10 000-node bound.
  }, 60_000);
});
