import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { openai, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import {
  buildManifest,
  err,
  igniteTools,
  type NeutralManifest,
  ok,
  resolveCall,
} from "../../tools/index.js";
import { decodeArguments, objectArguments } from "../../tools/wire/arguments.js";
import { describeValue } from "../../tools/wire/describe-value.js";
import { GEMINI_NAMES, MCP_NAMES, OPENAI_NAMES } from "../../tools/wire/names.js";
import {
  configurable,
  needsWrapping,
  toNeutralCall,
  toWire,
} from "../../tools/wire/provider-tools.js";
import {
  cappedLine,
  errorText,
  MIN_RESULT_CHARS,
  resultText,
  toJsonText,
} from "../../tools/wire/result-text.js";
import { isRecursive } from "../../tools/wire/schema-refs.js";
import { OPENAI_STRICT } from "../../tools/wire/strict.js";

const manifestOf = (
  commands: Record<string, { input?: Record<string, unknown> }>,
): NeutralManifest => buildManifest({ commands });

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("provider-safe names", () => {
  it("keeps names the provider accepts exactly as they are", () => {
    const wire = toWire(manifestOf({ increment: {}, "set-limit": {}, reset_all: {} }), {
      names: OPENAI_NAMES,
    });
    expect(wire.tools.map((tool) => tool.name)).toEqual(["increment", "reset_all", "set-limit"]);
  });

  it("maps names with dots, slashes and spaces to safe names that stay distinct", () => {
    const commands = { "todo.add": {}, "todo add": {}, "todo/add": {}, todo_add: {} };
    const wire = toWire(manifestOf(commands), { names: OPENAI_NAMES });
    const names = wire.tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(4);
    for (const name of names) expect(name).toMatch(OPENAI_NAME);
    expect(wire.tools.find((tool) => tool.tool.name === "todo_add")?.name).toBe("todo_add");
    expect(wire.tools.find((tool) => tool.tool.name === "todo.add")?.name).toMatch(
      /^todo_add_[0-9a-z]+$/,
    );
  });

  it("maps the same command to the same name on every turn, whatever else is offered", () => {
    const alone = toWire(manifestOf({ "todo.add": {} }), { names: OPENAI_NAMES });
    const crowded = toWire(manifestOf({ "todo.add": {}, "todo.remove": {}, zz: {} }), {
      names: OPENAI_NAMES,
    });
    expect(crowded.tools[0]?.name).toBe(alone.tools[0]?.name);
  });

  it("shortens a 90-character name to the provider's limit and keeps two such names apart", () => {
    const long = "a".repeat(90);
    const wire = toWire(manifestOf({ [long]: {}, [`${long}b`]: {} }), { names: OPENAI_NAMES });
    const [first, second] = wire.tools.map((tool) => tool.name);
    expect(first).toMatch(OPENAI_NAME);
    expect(second).toMatch(OPENAI_NAME);
    expect(first).not.toBe(second);
  });

  it("never lets a mapped name take a name that a command really has", () => {
    const mappedForm =
      toWire(manifestOf({ "a.b": {} }), { names: OPENAI_NAMES }).tools[0]?.name ?? "";
    const wire = toWire(manifestOf({ "a.b": {}, [mappedForm]: {} }), { names: OPENAI_NAMES });
    expect(wire.byName.get(mappedForm)?.tool.name).toBe(mappedForm);
    expect(wire.tools.find((tool) => tool.tool.name === "a.b")?.name).not.toBe(mappedForm);
  });

  it("follows each provider's rule: Gemini needs a letter or _ first, MCP keeps dots", () => {
    expect(toWire(manifestOf({ "1st": {} }), { names: GEMINI_NAMES }).tools[0]?.name).toMatch(
      /^_1st_/,
    );
    expect(toWire(manifestOf({ "todo.add": {} }), { names: GEMINI_NAMES }).tools[0]?.name).toBe(
      "todo.add",
    );
    expect(toWire(manifestOf({ "todo.add": {} }), { names: MCP_NAMES }).tools[0]?.name).toBe(
      "todo.add",
    );
    expect(toWire(manifestOf({ "set limit": {} }), { names: MCP_NAMES }).tools[0]?.name).toMatch(
      /^set_limit_/,
    );
  });

  it("maps a provider name back to its command, and leaves a name never offered unmapped", () => {
    const manifest = manifestOf({ "todo.add": {} });
    const wire = toWire(manifest, { names: OPENAI_NAMES });
    const safe = wire.tools[0]?.name ?? "";
    expect(toNeutralCall(wire, { id: "1", name: safe, args: {} })).toEqual({
      id: "1",
      name: "todo.add",
      toolName: safe,
      input: {},
    });
    const stranger = toNeutralCall(wire, { name: "todo_add", args: {} });
    expect(stranger).toEqual({ name: "todo_add", input: {} });
    expect(resolveCall({ commands: { "todo.add": {} } }, stranger.name, stranger.input).ok).toBe(
      false,
    );
  });
});

describe("inputs the provider cannot take as they are", () => {
  it.each([
    [{ type: "number" }, true],
    [{ type: "array", items: { type: "string" } }, true],
    [{ anyOf: [{ type: "string" }, { type: "number" }] }, true],
    [{ type: "object", oneOf: [{ required: ["a"] }, { required: ["b"] }] }, true],
    [{ enum: ["a", "b"] }, true],
    [{}, true],
    [{ type: "object", properties: { value: { type: "number" } } }, false],
  ])("wraps %j: %s", (schema, wrapped) => {
    expect(needsWrapping(schema)).toBe(wrapped);
  });

  it("wraps a scalar as { value } and unwraps it on the way back", () => {
    const wire = toWire(manifestOf({ setLimit: { input: { type: "number", maximum: 12 } } }), {
      names: OPENAI_NAMES,
    });
    expect(wire.tools[0]?.parameters).toEqual({
      type: "object",
      properties: { value: { type: "number", maximum: 12 } },
      required: ["value"],
      additionalProperties: false,
    });
    expect(toNeutralCall(wire, { name: "setLimit", args: { value: 7 } }).input).toBe(7);
  });

  it("keeps $defs at the root so the wrapped schema's references still resolve", () => {
    const input = { $ref: "#/$defs/point", $defs: { point: { type: "object" } } };
    const wire = toWire(manifestOf({ move: { input } }), { names: OPENAI_NAMES });
    expect(wire.tools[0]?.parameters).toMatchObject({
      properties: { value: { $ref: "#/$defs/point" } },
      $defs: { point: { type: "object" } },
    });
  });

  it("keeps $schema and draft-07 definitions at the root of a wrapped schema", () => {
    const input = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "array",
      items: { $ref: "#/definitions/tag" },
      definitions: { tag: { type: "string" } },
    };
    const wire = toWire(manifestOf({ tag: { input } }), { names: OPENAI_NAMES });
    expect(wire.tools[0]?.parameters).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { value: { type: "array", items: { $ref: "#/definitions/tag" } } },
      required: ["value"],
      additionalProperties: false,
      definitions: { tag: { type: "string" } },
    });
  });

  it("never unwraps an object command that has its own value property", () => {
    const input = { type: "object", properties: { value: { type: "number" } } };
    const wire = toWire(manifestOf({ set: { input } }), { names: OPENAI_NAMES });
    expect(toNeutralCall(wire, { name: "set", args: { value: 3 } }).input).toEqual({ value: 3 });
  });

  it("reports a wrapped call whose arguments lack value as unreadable input", () => {
    const wire = toWire(manifestOf({ setLimit: { input: { type: "number" } } }), {
      names: OPENAI_NAMES,
    });
    expect(toNeutralCall(wire, { name: "setLimit", args: { limit: 3 } })).toMatchObject({
      input: undefined,
      inputError: 'arguments must be an object { "value": ... }',
    });
  });
});

describe("strict mode", () => {
  const input = {
    type: "object",
    properties: {
      title: { type: "string" },
      due: { type: "string", format: "date" },
      tags: {
        type: "array",
        items: {
          type: "object",
          properties: { label: { type: "string" } },
          additionalProperties: false,
        },
      },
    },
    required: ["title"],
    additionalProperties: false,
  };

  it("closes every object, requires every property and makes optional ones nullable", () => {
    const [tool] = toWire(manifestOf({ add: { input } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    }).tools;
    expect(tool?.strict).toBe(true);
    expect(tool?.parameters).toEqual({
      type: "object",
      properties: {
        title: { type: "string" },
        due: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
        tags: {
          anyOf: [
            {
              type: "array",
              items: {
                type: "object",
                properties: { label: { anyOf: [{ type: "string" }, { type: "null" }] } },
                required: ["label"],
                additionalProperties: false,
              },
            },
            { type: "null" },
          ],
        },
      },
      required: ["title", "due", "tags"],
      additionalProperties: false,
    });
  });

  it("maps the nulls of optional properties back to absent, at every depth", () => {
    const wire = toWire(manifestOf({ add: { input } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    });
    const call = toNeutralCall(wire, {
      name: "add",
      args: { title: "x", due: null, tags: [{ label: null }] },
    });
    expect(call.input).toEqual({ title: "x", tags: [{}] });
  });

  it("falls back to the plain schema for a tool strict mode cannot express", () => {
    const openMap = { type: "object", additionalProperties: { type: "number" } };
    const [tool] = toWire(manifestOf({ scores: { input: openMap } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    }).tools;
    expect(tool).toMatchObject({ strict: false, parameters: openMap });
    const call = toNeutralCall(
      toWire(manifestOf({ scores: { input: openMap } }), {
        names: OPENAI_NAMES,
        strict: OPENAI_STRICT,
      }),
      {
        name: "scores",
        args: { a: null },
      },
    );
    expect(call.input).toEqual({ a: null });
  });

  it("follows local $refs when mapping nulls back", () => {
    const withRef = {
      type: "object",
      properties: { at: { $ref: "#/$defs/point" } },
      required: ["at"],
      additionalProperties: false,
      $defs: {
        point: {
          type: "object",
          properties: { x: { type: "number" }, label: { type: "string" } },
          required: ["x"],
          additionalProperties: false,
        },
      },
    };
    const wire = toWire(manifestOf({ mark: { input: withRef } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    });
    expect(wire.tools[0]?.strict).toBe(true);
    expect(
      toNeutralCall(wire, { name: "mark", args: { at: { x: 1, label: null } } }).input,
    ).toEqual({ at: { x: 1 } });
  });

  it("converts anyOf branches and $defs, and falls back when any of them cannot be strict", () => {
    const union = {
      type: "object",
      properties: { target: { anyOf: [{ type: "string" }, { $ref: "#/$defs/room" }] } },
      required: ["target"],
      additionalProperties: false,
      $defs: {
        room: {
          type: "object",
          properties: { id: { type: "string" } },
          additionalProperties: false,
        },
      },
    };
    const [strict] = toWire(manifestOf({ go: { input: union } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    }).tools;
    expect(strict?.strict).toBe(true);
    expect(strict?.parameters.$defs).toEqual({
      room: {
        type: "object",
        properties: { id: { anyOf: [{ type: "string" }, { type: "null" }] } },
        required: ["id"],
        additionalProperties: false,
      },
    });
    const openDef = { ...union, $defs: { room: { type: "object" } } };
    const openBranch = { ...union, properties: { target: { anyOf: [{ type: "object" }] } } };
    const openItems = { type: "array", items: { type: "object" } };
    const notStrict = {
      type: "object",
      properties: { a: { not: { type: "null" } } },
      additionalProperties: false,
    };
    for (const input of [openDef, openBranch, openItems, notStrict]) {
      expect(
        toWire(manifestOf({ go: { input } }), { names: OPENAI_NAMES, strict: OPENAI_STRICT })
          .tools[0]?.strict,
      ).toBe(false);
    }
  });

  it("says why a schema has no strict form", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 10_000; level++) {
      deep = {
        type: "object",
        properties: { next: deep },
        required: ["next"],
        additionalProperties: false,
      };
    }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: "array" }, /an array without `items` has no strict form/],
      [
        { type: "object", properties: { a: true }, additionalProperties: false },
        /`true` or `false` schema/,
      ],
      [deep, /nested too deep for strict mode/],
      [{ type: "string", format: "uri-reference" }, /does not accept format "uri-reference"/],
    ];
    for (const [schema, reason] of cases) {
      expect(OPENAI_STRICT.convert(schema)).toEqual({ reason: expect.stringMatching(reason) });
      expect(OPENAI_STRICT.toStrict(schema)).toBeUndefined();
    }
    expect(OPENAI_STRICT.toStrict({ type: "string" })).toEqual({ type: "string" });
  });

  it("counts a schema nested past 64 levels as recursive, and a tree as recursive", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 70; level++) deep = { type: "array", items: deep };
    expect(isRecursive(deep)).toBe(true);
    expect(
      isRecursive({
        type: "array",
        items: { $ref: "#/$defs/a" },
        $defs: { a: { type: "string" } },
      }),
    ).toBe(false);
    expect(
      isRecursive({ $defs: { node: { items: { $ref: "#/$defs/node" } } }, $ref: "#/$defs/node" }),
    ).toBe(true);
  });

  it("wraps and strictifies a scalar, keeping the value itself required", () => {
    const wire = toWire(manifestOf({ setLimit: { input: { type: "number" } } }), {
      names: OPENAI_NAMES,
      strict: OPENAI_STRICT,
    });
    expect(wire.tools[0]).toMatchObject({ strict: true, wrapped: true });
    expect(toNeutralCall(wire, { name: "setLimit", args: { value: 4 } }).input).toBe(4);
  });
});

describe("arguments sent as JSON text", () => {
  it.each([
    ["", { args: {} }],
    ["  ", { args: {} }],
    ['{"by":2}', { args: { by: 2 } }],
  ])("reads %j", (text, expected) => {
    expect(decodeArguments(text)).toEqual(expected);
  });

  it.each([
    ["null", "arguments must be a JSON object, not null"],
    ["[1]", "arguments must be a JSON object, not an array"],
    ["3", "arguments must be a JSON object, not a number"],
    ['{"by": 2', "arguments were not valid JSON (possibly cut off); send a complete JSON object"],
  ])("answers %j with an error the model can act on", (text, argsError) => {
    expect(decodeArguments(text)).toEqual({ args: undefined, argsError });
  });

  it("takes arguments that arrive already decoded", () => {
    expect(decodeArguments({ by: 1 })).toEqual({ args: { by: 1 } });
    expect(decodeArguments(42).argsError).toBe("arguments must be a JSON object, not a number");
    expect(decodeArguments(undefined).argsError).toBe("arguments are missing; send a JSON object");
    expect(objectArguments(undefined, "empty")).toEqual({ args: {} });
    expect(objectArguments(null, "empty").argsError).toBe(
      "arguments must be a JSON object, not null",
    );
    expect(objectArguments("{}").argsError).toBe("arguments must be a JSON object, not a string");
    expect(decodeArguments(" ", { cutOff: true }).argsError).toMatch(/cut off/);
  });

  it("carries an arguments error into the neutral call, for known and unknown tools", () => {
    const wire = toWire(manifestOf({ go: {} }), { names: OPENAI_NAMES });
    expect(toNeutralCall(wire, { name: "go", args: undefined, argsError: "bad" })).toEqual({
      name: "go",
      input: undefined,
      inputError: "bad",
    });
    expect(
      toNeutralCall(wire, { name: "nope", args: undefined, argsError: "bad" }).inputError,
    ).toBe("bad");
  });
});

describe("what the model reads back", () => {
  it("encodes a success as the observation in compact JSON", () => {
    expect(resultText({ name: "go", input: {} }, ok({ snapshot: { n: 1 }, events: [] }))).toBe(
      '{"snapshot":{"n":1},"events":[]}',
    );
  });

  it("starts an error with its kind and lists the issues of invalid input", () => {
    const error = resolveCall(
      { commands: { go: { input: { type: "number", maximum: 2 } } } },
      "go",
      3,
    );
    if (error.ok) throw new Error("expected an error");
    expect(resultText({ name: "go", input: 3 }, error)).toBe(
      'Error (InvalidInput): Invalid input for "go": input must be <= 2. Fix the input and call again.\n' +
        'Issues: [{"path":"","message":"must be <= 2","keyword":"maximum"}]',
    );
  });

  it("names the tool as the provider knows it: the message is made with that name", async () => {
    const tools = igniteTools({
      getSchema: () => ({ commands: { "todo.add": {} } }),
      execute: () => ({ state: null, events: [] }),
    });
    const call = { name: "todo.add", toolName: "todo_add_1x", input: 5 };
    const error = await tools.invoke(call);
    if (error.ok) throw new Error("expected an error");
    expect(errorText(call, error.error)).toContain('Invalid input for "todo_add_1x"');
  });

  it("encodes what JSON cannot by one rule, and never throws", () => {
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    const value = {
      big: 10n ** 20n,
      missing: undefined,
      fn: () => 1,
      nan: Number.NaN,
      when: new Date("2026-12-02T10:00:00Z"),
      map: new Map<unknown, unknown>([
        ["a", 1],
        [2, new Set([1, 2])],
      ]),
      error: Object.assign(new Error("boom"), { stack: "at secret.js:1" }),
      circular,
      list: [undefined, () => 1, Symbol("s")],
      shared: [{ x: 1 }],
    };
    expect(JSON.parse(toJsonText(value))).toEqual({
      big: "100000000000000000000",
      nan: null,
      when: "2026-12-02T10:00:00.000Z",
      map: { a: 1, "2": [1, 2] },
      error: { name: "Error", message: "boom" },
      circular: { name: "loop", self: "[Circular]" },
      list: [null, null, null],
      shared: [{ x: 1 }],
    });
    expect(toJsonText(undefined)).toBe("null");
  });

  it("cuts nesting past 64 levels and marks values that throw when read", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 100; level++) deep = { deep };
    expect(toJsonText(deep)).toContain('"[Too deep]"');
    const hostile = {
      get boom() {
        throw new Error("no");
      },
    };
    expect(toJsonText({ hostile })).toBe('{"hostile":"[Unreadable]"}');
    expect(
      toJsonText({
        ok: 1,
        bad: {
          toJSON: () => {
            throw new Error("x");
          },
        },
      }),
    ).toBe('{"ok":1,"bad":"[Unreadable]"}');
  });

  it("never puts an error's stack in what the model reads", () => {
    const cause = new Error("disk full");
    const text = resultText(
      { name: "save", input: {} },
      err({
        kind: "ExecuteFailed",
        name: "save",
        message: 'Command "save" failed: disk full',
        cause,
      }),
    );
    expect(text).toBe('Error (ExecuteFailed): Command "save" failed: disk full');
  });
});

describe("configurable dialects", () => {
  it("is the default dialect and a factory for configured ones", () => {
    const make = (options?: { loud?: boolean }) => ({ shout: options?.loud === true });
    const dialect = configurable(make);
    expect(dialect.shout).toBe(false);
    expect(dialect({ loud: true }).shout).toBe(true);
  });
});

describe("the size cap on what the model reads", () => {
  const call = { name: "dump", input: {} };

  it("cuts a long result to valid JSON that says it was cut, within the cap", () => {
    const snapshot = { rows: "x".repeat(50_000) };
    const text = resultText(call, ok({ snapshot, events: [] }));
    expect(text.length).toBeLessThanOrEqual(20_000);
    const cut = JSON.parse(text);
    expect(cut).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of 50036 characters$/,
      ),
      partial: expect.stringMatching(/^\{"snapshot":\{"rows":"x+$/),
    });
    expect(cut.truncated).toContain(`first ${cut.partial.length} of`);
  });

  it("keeps every result valid JSON within any cap, and tells a cut one from a whole one", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.oneof(fc.integer({ min: MIN_RESULT_CHARS, max: 400 }), fc.constant(20_000)),
        (snapshot, cap) => {
          const whole = toJsonText({ snapshot, events: [] });
          const text = resultText(call, ok({ snapshot, events: [] }), cap);
          expect(text.length).toBeLessThanOrEqual(cap);
          const read = JSON.parse(text);
          if (whole.length <= cap) expect(text).toBe(whole);
          else {
            expect(Object.keys(read)).toEqual(["truncated", "partial"]);
            expect(whole.startsWith(read.partial)).toBe(true);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("cuts a long error line within the cap, with the marker, never inside a surrogate pair", () => {
    const message = `${"e".repeat(150)}😀${"f".repeat(100)}`;
    const error = err({ kind: "ExecuteFailed" as const, name: "dump", message });
    // At 228 the cut would fall between the two halves of the emoji.
    for (const cap of [128, 200, 218, 219, 220, 228]) {
      const text = resultText(call, error, cap);
      expect(text.length).toBeLessThanOrEqual(cap);
      expect(text).toMatch(
        /^Error \(ExecuteFailed\): e+.*… \[truncated: showing the first \d+ of 275 characters\]$/u,
      );
      expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
    expect(cappedLine("short", 128)).toBe("short");
  });

  it("never cuts a JSON result between the two halves of a surrogate pair", () => {
    const snapshot = `${"a".repeat(60)}${"😀".repeat(200)}`;
    for (let cap = 128; cap < 140; cap++) {
      const { partial } = JSON.parse(resultText(call, ok({ snapshot, events: [] }), cap));
      expect(partial).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });

  it.each([
    ["openai", openai],
    ["openaiResponses", openaiResponses],
    ["anthropic", anthropic],
    ["gemini", gemini],
    ["ollama", ollama],
    ["mcp", mcp],
  ] as const)("refuses a cap %s cannot keep, when the dialect is made", (name, make) => {
    for (const maxResultChars of [0, 10, MIN_RESULT_CHARS - 1, 200.5, Number.NaN, -1]) {
      expect(() => make({ maxResultChars })).toThrow(
        new TypeError(
          `${name}({ maxResultChars }) must be an integer ≥ ${MIN_RESULT_CHARS} or Infinity, not ${maxResultChars}`,
        ),
      );
    }
    expect(() => make({ maxResultChars: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe("describeValue", () => {
  it("names what was passed instead of a provider response", () => {
    expect([null, [], "x", 1, {}, new Map()].map((value) => describeValue(value))).toEqual([
      "null",
      "an array",
      "a string",
      "a number",
      "an object",
      "a Map",
    ]);
  });
});
