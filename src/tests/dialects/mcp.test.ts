import type {
  CallToolRequest,
  CallToolResult,
  ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { openai } from "../../tools/dialects/openai/dialect.js";
import { buildManifest, igniteTools, type NeutralManifest, ok } from "../../tools/index.js";
import { Counter, componentWith, failingSave, single } from "../fixtures.js";

type Params = CallToolRequest["params"];

const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const manifestOf = (commands: Record<string, { input?: Record<string, unknown> }>) =>
  buildManifest({ commands });

const named = (...names: string[]) => manifestOf(Object.fromEntries(names.map((n) => [n, {}])));

function toolNamed(manifest: NeutralManifest, command: string): string {
  const index = manifest.findIndex((tool) => tool.name === command);
  const name = mcp.toToolDefs(manifest).tools[index]?.name;
  if (name === undefined) throw new Error(`no tool for ${command}`);
  return name;
}

function unlocked() {
  const counter = new Counter();
  counter.state = { count: 3, limit: 10, locked: true };
  return counter;
}

describe("mcp tool definitions", () => {
  it("sends a command's title as the tool's title and annotations.title, which the SDK accepts", () => {
    const list: ListToolsResult = mcp.toToolDefs(
      buildManifest({
        commands: {
          boost: { title: "Boost the heating", description: "Full power.", readOnly: false },
          plain: {},
        },
      }),
    );
    expect(list.tools).toEqual([
      {
        name: "boost",
        title: "Boost the heating",
        description: "Full power.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        annotations: { title: "Boost the heating", readOnlyHint: false },
      },
      {
        name: "plain",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
      },
    ]);
  });

  it("lists one tool per available command, in a tools/list result the SDK accepts", () => {
    const list: ListToolsResult = igniteTools(unlocked(), mcp).toToolDefs();
    expect(list).toEqual({
      tools: [
        {
          name: "increment",
          description: "Add `by` (default 1) to the count.",
          inputSchema: {
            type: "object",
            properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
            additionalProperties: false,
          },
        },
        {
          name: "reset",
          description: "Back to zero.",
          inputSchema: { type: "object", properties: {}, additionalProperties: false },
        },
        {
          name: "setLimit",
          description: "Set the highest count allowed.",
          inputSchema: {
            type: "object",
            properties: { value: { type: "number", minimum: 0, maximum: 12 } },
            required: ["value"],
            additionalProperties: false,
          },
        },
        {
          name: "unlock",
          inputSchema: { type: "object", properties: {}, additionalProperties: false },
        },
      ],
    });
  });

  it("leaves out commands that are not available now", () => {
    const names = igniteTools(new Counter(), mcp)
      .toToolDefs()
      .tools.map((tool) => tool.name);
    expect(names).toEqual(["increment", "setLimit"]);
  });

  it("omits the description key when a command has none", () => {
    const [tool] = mcp.toToolDefs(named("go")).tools;
    expect(tool).toEqual({
      name: "go",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    });
    expect(tool).not.toHaveProperty("description");
  });

  it("wraps a root union as { value } so the inputSchema's root is an object", () => {
    const [tool] = mcp.toToolDefs(manifestOf({ pick: { input: { enum: ["a", "b"] } } })).tools;
    expect(tool?.inputSchema).toEqual({
      type: "object",
      properties: { value: { enum: ["a", "b"] } },
      required: ["value"],
      additionalProperties: false,
    });
  });

  it("lists an object schema whole, with allOf, if/then/else and $ref at its root (SEP-2106), and reads its calls unwrapped", () => {
    const input = {
      type: "object",
      properties: {
        phone: { type: "string" },
        email: { type: "string" },
        by: { $ref: "#/$defs/by" },
      },
      $defs: { by: { $anchor: "by", enum: ["phone", "email"] } },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { by: { const: "phone" } }, required: ["by"] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
      then: { required: ["phone"] },
      else: { required: ["email"] },
    };
    const manifest = manifestOf({ reach: { input } });
    expect(mcp.toToolDefs(manifest).tools[0]?.inputSchema).toEqual(input);
    const [call] = mcp.parseToolCalls({ name: "reach", arguments: { email: "a@b.c" } }, manifest);
    expect(call).toEqual({ name: "reach", input: { email: "a@b.c" } });
    // Model providers refuse such a root: their dialects still wrap it.
    expect(openai.toToolDefs(manifest)[0]?.function.parameters).toMatchObject({
      properties: { value: { allOf: input.allOf, if: input.if } },
      required: ["value"],
    });
  });
});

describe("mcp tool names", () => {
  it("keeps dotted and dashed names as they are, because MCP allows them", () => {
    const names = mcp.toToolDefs(named("todo.add", "todo-remove")).tools.map((tool) => tool.name);
    expect(names).toEqual(["todo-remove", "todo.add"]);
  });

  it("maps a name with a space and keeps two names with the same sanitised form apart", () => {
    const manifest = named("set limit", "set/limit");
    const names = mcp.toToolDefs(manifest).tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(name).toMatch(/^set_limit_[0-9a-z]+$/);
    for (const command of ["set limit", "set/limit"]) {
      const [call] = mcp.parseToolCalls({ name: toolNamed(manifest, command) }, manifest);
      expect(call).toMatchObject({ name: command, toolName: toolNamed(manifest, command) });
    }
  });

  it("keeps a 90-character name (MCP allows 128) and shortens a longer one", () => {
    const ninety = "a".repeat(90);
    const long = "b".repeat(140);
    const manifest = named(ninety, long);
    expect(toolNamed(manifest, ninety)).toBe(ninety);
    const short = toolNamed(manifest, long);
    expect(short).toMatch(MCP_NAME);
    expect(mcp.parseToolCalls({ name: short }, manifest)).toEqual([
      { name: long, toolName: short, input: {} },
    ]);
  });

  it("answers UnknownCommand for a sanitised name that was never offered", async () => {
    const component = componentWith({ "set limit": {} });
    const [result] = await igniteTools(component, mcp).handleToolCalls({ name: "set_limit" });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (UnknownCommand): Unknown command "set_limit". Call one of the tools you were offered.',
        },
      ],
      isError: true,
    });
  });

  it("quotes the tool's own name, not the command's, in an error about a mapped name", async () => {
    const component = componentWith({ "set limit": { input: { type: "integer" } } });
    const bridge = igniteTools(component, mcp);
    const name = bridge.toToolDefs().tools[0]?.name ?? "";
    const [result] = await bridge.handleToolCalls({ name, arguments: { value: "x" } });
    expect(result?.content[0]?.text).toContain(`Invalid input for ${JSON.stringify(name)}`);
  });
});

describe("mcp tools/call parsing", () => {
  const manifest = buildManifest(new Counter().getSchema());

  it("reads one call from the params, without an id", () => {
    const params: Params = { name: "increment", arguments: { by: 2 } };
    expect(mcp.parseToolCalls(params, manifest)).toEqual([{ name: "increment", input: { by: 2 } }]);
  });

  it("reads the whole tools/call request as well", () => {
    const request: CallToolRequest = {
      method: "tools/call",
      params: { name: "increment", arguments: { by: 2 } },
    };
    expect(mcp.parseToolCalls(request, manifest)).toEqual([
      { name: "increment", input: { by: 2 } },
    ]);
  });

  it("reads absent arguments as {}", () => {
    expect(mcp.parseToolCalls({ name: "reset" }, manifest)).toEqual([{ name: "reset", input: {} }]);
  });

  it("unwraps a scalar command's { value }", () => {
    const params: Params = { name: "setLimit", arguments: { value: 7 } };
    expect(mcp.parseToolCalls(params, manifest)).toEqual([{ name: "setLimit", input: 7 }]);
  });

  it("does not unwrap an object command that has its own value property", () => {
    const object = manifestOf({
      run: { input: { type: "object", properties: { value: { type: "string" } } } },
    });
    expect(mcp.parseToolCalls({ name: "run", arguments: { value: "x" } }, object)).toEqual([
      { name: "run", input: { value: "x" } },
    ]);
  });

  it("turns a scalar command's arguments without value into an input error", () => {
    expect(mcp.parseToolCalls({ name: "setLimit", arguments: { limit: 7 } }, manifest)).toEqual([
      {
        name: "setLimit",
        input: undefined,
        inputError: 'arguments must be an object { "value": ... }',
      },
    ]);
  });

  it.each([
    [[1], "an array"],
    ["{}", "a string"],
    [null, "null"],
    [7, "a number"],
  ])("turns arguments %j into an input error, never a throw", (args, kind) => {
    const params = { name: "increment", arguments: args };
    expect(mcp.parseToolCalls(params as unknown as Params, manifest)).toEqual([
      {
        name: "increment",
        input: undefined,
        inputError: `arguments must be a JSON object, not ${kind}`,
      },
    ]);
  });

  it("ignores unknown fields of the request and its params", () => {
    const request: CallToolRequest = {
      method: "tools/call",
      params: {
        name: "increment",
        arguments: { by: 1 },
        _meta: { progressToken: "p1" },
        task: { ttl: 1000 },
      },
    };
    const withExtras = { ...request, jsonrpc: "2.0", id: 9, future: true };
    expect(mcp.parseToolCalls(withExtras, manifest)).toEqual([
      { name: "increment", input: { by: 1 } },
    ]);
  });

  it("keeps a name that was never offered, so it resolves to UnknownCommand", () => {
    expect(mcp.parseToolCalls({ name: "explode", arguments: {} }, manifest)).toEqual([
      { name: "explode", input: {} },
    ]);
  });

  it.each([
    ["an HTTP Response", new Response("{}"), /got a Response \(pass `await response.json\(\)`\)/],
    ["a string", '{"name":"increment"}', /got a string/],
    ["null", null, /got null/],
    ["a Promise", Promise.resolve({}), /got a Promise \(await it first\)/],
    ["a Map", new Map(), /got a Map/],
    ["an array", [{ name: "increment" }], /got an array/],
    ["params without a name", { arguments: {} }, /got an object of another shape/],
    ["params whose name is not a string", { name: 5 }, /got an object of another shape/],
    ["a request for another method", { method: "tools/list", params: {} }, /"tools\/list"/],
    [
      "a tools/call request without params",
      { method: "tools/call" },
      /got an object of another shape/,
    ],
  ])("throws a TypeError that says what to pass for %s", (_label, value, message) => {
    const parse = () => mcp.parseToolCalls(value as never, manifest);
    expect(parse).toThrow(TypeError);
    expect(parse).toThrow(/expects a tools\/call request or its params/);
    expect(parse).toThrow(message);
  });

  it("describes an object without a prototype plainly", () => {
    expect(() => mcp.parseToolCalls(Object.create(null), manifest)).toThrow(
      /got an object of another shape/,
    );
  });
});

describe("mcp results", () => {
  it("answers a success with the observation as text and as structuredContent", async () => {
    const [result] = await igniteTools(new Counter(), mcp).handleToolCalls({
      name: "increment",
      arguments: { by: 2 },
    });
    const observation = {
      snapshot: { count: 2, limit: 10, locked: false },
      events: [{ type: "incremented", payload: { by: 2 } }],
    };
    const expected: CallToolResult = {
      content: [{ type: "text", text: JSON.stringify(observation) }],
      structuredContent: observation,
    };
    expect(result).toEqual(expected);
    expect(result).not.toHaveProperty("isError");
  });

  it("encodes structuredContent by the shared JSON rule, so the SDK can serialise it", () => {
    const circular: Record<string, unknown> = { big: 10n };
    circular.self = circular;
    const result = mcp.toToolResult(
      { name: "x", input: {} },
      ok({ snapshot: circular, events: [] }),
    );
    expect(result.structuredContent).toEqual({
      snapshot: { big: "10", self: "[Circular]" },
      events: [],
    });
    expect(result.content[0]?.text).toBe(
      '{"snapshot":{"big":"10","self":"[Circular]"},"events":[]}',
    );
  });

  it("gives structuredContent that is exactly its text's data, for any plain snapshot", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("__proto__", "constructor", "a"), (data, key) => {
        const snapshot = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(data)},"n":-0}`);
        const result = mcp.toToolResult({ name: "x", input: {} }, ok({ snapshot, events: [] }));
        const text = result.content[0]?.text ?? "";
        const structured = result.structuredContent ?? {};
        expect(structured).toEqual(JSON.parse(text));
        // Own keys, even `__proto__`, and JSON's 0 for -0, as the text reads back.
        expect(Object.entries(structured.snapshot ?? {})).toEqual([
          [key, JSON.parse(JSON.stringify(data))],
          ["n", 0],
        ]);
        expect(Object.is(Reflect.get(Object(structured.snapshot), "n"), 0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("shares nothing with the component's state: a later change does not reach an answer", () => {
    const state = { items: [{ done: false }] };
    const result = mcp.toToolResult({ name: "x", input: {} }, ok({ snapshot: state, events: [] }));
    (state.items[0] as { done: boolean }).done = true;
    state.items.push({ done: true });
    expect(result.structuredContent).toEqual({
      snapshot: { items: [{ done: false }] },
      events: [],
    });
  });

  it("leaves structuredContent out when the observation does not encode to an object", () => {
    const observation = { snapshot: 1, events: [], toJSON: () => "one" };
    const result = mcp.toToolResult({ name: "x", input: {} }, ok(observation));
    expect(result).toEqual({ content: [{ type: "text", text: '"one"' }] });
  });

  it.each([
    [
      "UnknownCommand",
      { name: "explode" },
      'Error (UnknownCommand): Unknown command "explode". Call one of the tools you were offered.',
    ],
    [
      "Unavailable",
      { name: "reset" },
      'Error (Unavailable): Command "reset" is not available in the current state. Use one of the tools offered now.',
    ],
    [
      "InvalidInput",
      { name: "setLimit", arguments: { value: 50 } },
      'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
    ],
  ])(
    "answers %s with isError and the error text, without structuredContent",
    async (_kind, params, text) => {
      const [result] = await igniteTools(new Counter(), mcp).handleToolCalls(params);
      expect(result).toEqual({ content: [{ type: "text", text }], isError: true });
    },
  );

  it("answers ExecuteFailed with isError and the failure, never a stack", async () => {
    const component = failingSave();
    const [result] = await igniteTools(component, mcp).handleToolCalls({ name: "save" });
    expect(result).toEqual({
      content: [{ type: "text", text: 'Error (ExecuteFailed): Command "save" failed: disk full' }],
      isError: true,
    });
  });
});

describe("mcp end to end", () => {
  it("handles a sequence of tools/call requests against the live state", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter, mcp);
    const answer = async (params: Params) => (await bridge.handleToolCalls(params))[0];

    expect(await answer({ name: "setLimit", arguments: { value: 4 } })).toMatchObject({
      structuredContent: { snapshot: { limit: 4 } },
    });
    expect(await answer({ name: "increment", arguments: { by: 5 } })).toMatchObject({
      structuredContent: { snapshot: { count: 4 } },
    });
    expect(bridge.toToolDefs().tools.map((tool) => tool.name)).toContain("reset");
    expect(await answer({ name: "reset" })).toMatchObject({
      structuredContent: { snapshot: { count: 0 }, events: [{ type: "reset" }] },
    });
    expect(await answer({ name: "reset" })).toMatchObject({ isError: true });
    expect(counter.calls).toEqual([
      { command: "setLimit", input: 4 },
      { command: "increment", input: { by: 5 } },
      { command: "reset", input: undefined },
    ]);
  });

  it("answers with exactly one result per request", async () => {
    const { component, received } = single({ type: "string" });
    const results = await igniteTools(component, mcp).handleToolCalls({
      name: "run",
      arguments: { value: "hi" },
    });
    expect(results).toHaveLength(1);
    expect(received).toEqual(["hi"]);
  });

  it("is the same dialect whether used as it is or called", () => {
    const manifest = named("go");
    expect(mcp().toToolDefs(manifest)).toEqual(mcp.toToolDefs(manifest));
  });
});
