import { describe, expect, it } from "vitest";
import {
  type AgentSchema,
  type InputValidator,
  ok,
  resolveCall,
  type ToolError,
  type ValidationIssue,
} from "../tools/index.js";
import { counterSchema } from "./fixtures.js";

function schemaOf(input: Record<string, unknown>): AgentSchema {
  return { commands: { run: { input } } };
}

function issuesFor(input: Record<string, unknown>, value: unknown): ValidationIssue[] {
  const result = resolveCall(schemaOf(input), "run", value);
  if (result.ok) return [];
  expect(result.error.kind).toBe("InvalidInput");
  return result.error.kind === "InvalidInput" ? result.error.issues : [];
}

function accepts(input: Record<string, unknown>, value: unknown): boolean {
  return resolveCall(schemaOf(input), "run", value).ok;
}

function errorOf(result: ReturnType<typeof resolveCall>): ToolError {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe("resolveCall: which command", () => {
  it("routes a declared command with its validated input", () => {
    expect(resolveCall(counterSchema, "setLimit", 7)).toEqual(
      ok({ command: "setLimit", input: 7 }),
    );
  });

  it("answers UnknownCommand for a name that is not a command, with a message naming it", () => {
    const error = errorOf(resolveCall(counterSchema, "explode", {}));
    expect(error).toMatchObject({ kind: "UnknownCommand", name: "explode" });
    expect(error.message).toContain('"explode"');
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])(
    "treats the prototype name %s as unknown unless it is really declared",
    (name) => {
      expect(errorOf(resolveCall(counterSchema, name, {})).kind).toBe("UnknownCommand");
      const declared: AgentSchema = { commands: { [name]: {} } };
      Object.defineProperty(declared.commands, name, { value: {}, enumerable: true });
      expect(resolveCall(declared, name, undefined)).toEqual(
        ok({ command: name, input: undefined }),
      );
    },
  );

  it("answers UnknownCommand, never throwing, for a name that is not a string", () => {
    const name = 42 as unknown as string;
    expect(errorOf(resolveCall(counterSchema, name, {})).kind).toBe("UnknownCommand");
  });

  it("answers Unavailable for a gated command canExecute refuses, before checking its input", () => {
    const error = errorOf(resolveCall(counterSchema, "reset", { junk: true }, () => false));
    expect(error).toMatchObject({ kind: "Unavailable", name: "reset" });
    expect(error.message).toMatch(/not available in the current state/);
  });

  it("answers Unavailable when canExecute throws", () => {
    const throwing = () => {
      throw new Error("state unreadable");
    };
    expect(errorOf(resolveCall(counterSchema, "reset", undefined, throwing)).kind).toBe(
      "Unavailable",
    );
  });

  it("never consults canExecute for an ungated command", () => {
    expect(resolveCall(counterSchema, "setLimit", 3, () => false).ok).toBe(true);
  });
});

describe("resolveCall: a command changed in place between calls", () => {
  it("sees a flag, an input schema or a malformed field set on the same command object", () => {
    const run: Record<string, unknown> = { input: { type: "integer" } };
    const schema: AgentSchema = { commands: { run } };
    expect(resolveCall(schema, "run", 1).ok).toBe(true);

    run.gated = true;
    expect(errorOf(resolveCall(schema, "run", 1, () => false)).kind).toBe("Unavailable");

    run.input = { type: "string" };
    expect(errorOf(resolveCall(schema, "run", 1)).kind).toBe("InvalidInput");
    expect(resolveCall(schema, "run", "one").ok).toBe(true);

    run.readOnly = "yes";
    expect(errorOf(resolveCall(schema, "run", "one"))).toMatchObject({
      kind: "ExecuteFailed",
      reason: "schema",
    });
  });

  it("asks a getter in the declaration again at every call, and follows what it says", () => {
    let open = true;
    const run = {
      get gated() {
        return !open;
      },
    };
    const schema: AgentSchema = { commands: { run } };
    const refuse = () => false;
    expect(resolveCall(schema, "run", undefined, refuse).ok).toBe(true);
    open = false;
    expect(errorOf(resolveCall(schema, "run", undefined, refuse)).kind).toBe("Unavailable");
    open = true;
    expect(resolveCall(schema, "run", undefined, refuse).ok).toBe(true);
  });
});

describe("resolveCall: commands without input", () => {
  it.each([undefined, null, {}])("accepts %j and routes input undefined", (input) => {
    expect(resolveCall(counterSchema, "reset", input)).toEqual(
      ok({ command: "reset", input: undefined }),
    );
  });

  it("rejects an argument it does not take, naming the unexpected property", () => {
    const error = errorOf(resolveCall(counterSchema, "reset", { hard: true }));
    expect(error).toMatchObject({
      kind: "InvalidInput",
      issues: [{ path: "/hard", message: "is not allowed", keyword: "additionalProperties" }],
    });
  });

  it("rejects a scalar where no argument is taken", () => {
    expect(errorOf(resolveCall(counterSchema, "reset", 5)).kind).toBe("InvalidInput");
  });
});

describe("resolveCall: validation", () => {
  it("checks types and reports the path in the model's terms", () => {
    const schema = { type: "object", properties: { limit: { type: "number", maximum: 12 } } };
    expect(accepts(schema, { limit: 12 })).toBe(true);
    expect(issuesFor(schema, { limit: "12" })).toEqual([
      { path: "/limit", message: "must be number", keyword: "type" },
    ]);
    const error = errorOf(resolveCall(schemaOf(schema), "run", { limit: 13 }));
    expect(error.message).toBe(
      'Invalid input for "run": /limit must be <= 12. Fix the input and call again.',
    );
  });

  it("checks enum and const, listing the allowed values", () => {
    const schema = {
      type: "object",
      properties: { mode: { enum: ["heat", "cool"] }, unit: { const: "C" } },
    };
    expect(accepts(schema, { mode: "heat", unit: "C" })).toBe(true);
    expect(issuesFor(schema, { mode: "fan", unit: "F" })).toEqual([
      { path: "/mode", message: 'must be one of "heat", "cool"', keyword: "enum" },
      { path: "/unit", message: 'must be "C"', keyword: "const" },
    ]);
  });

  it("checks ranges: minimum, maximum, exclusive bounds", () => {
    const schema = { type: "number", minimum: 0, exclusiveMaximum: 10 };
    expect(accepts(schema, 0)).toBe(true);
    expect(accepts(schema, 9.99)).toBe(true);
    expect(issuesFor(schema, -1)).toEqual([
      { path: "", message: "must be >= 0", keyword: "minimum" },
    ]);
    expect(issuesFor(schema, 10)[0]?.keyword).toBe("exclusiveMaximum");
  });

  it("checks multipleOf without floating-point false alarms", () => {
    const schema = { type: "number", multipleOf: 0.1 };
    expect(accepts(schema, 0.3)).toBe(true);
    expect(accepts(schema, 1.1)).toBe(true);
    expect(accepts(schema, 0.7)).toBe(true);
    expect(accepts(schema, 0.35)).toBe(false);
    expect(accepts({ type: "integer", multipleOf: 5 }, 15)).toBe(true);
    expect(accepts({ type: "integer", multipleOf: 5 }, 16)).toBe(false);
  });

  it("checks string length, pattern and format", () => {
    const schema = {
      type: "object",
      properties: {
        code: { type: "string", minLength: 2, maxLength: 4, pattern: "^[A-Z]+$" },
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date-time" },
      },
    };
    expect(accepts(schema, { code: "AB", email: "a@b.co", when: "2026-12-02T10:00:00Z" })).toBe(
      true,
    );
    const issues = issuesFor(schema, { code: "abcde", email: "nope", when: "yesterday" });
    expect(issues.map((issue) => `${issue.path} ${issue.keyword}`)).toEqual([
      "/code maxLength",
      "/code pattern",
      "/email format",
      "/when format",
    ]);
  });

  it("lists every missing required property at its own path", () => {
    const schema = {
      type: "object",
      properties: { title: { type: "string" }, due: { type: "string" } },
      required: ["title", "due"],
    };
    expect(issuesFor(schema, {})).toEqual([
      { path: "/title", message: "is required", keyword: "required" },
      { path: "/due", message: "is required", keyword: "required" },
    ]);
  });

  it("rejects additional properties when the schema forbids them", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    };
    expect(issuesFor(schema, { a: "x", b: 1 })).toEqual([
      { path: "/b", message: "is not allowed", keyword: "additionalProperties" },
    ]);
  });

  it("names each property that unevaluatedProperties forbids", () => {
    const schema = {
      type: "object",
      allOf: [{ properties: { a: { type: "string" } } }],
      unevaluatedProperties: false,
    };
    expect(accepts(schema, { a: "x" })).toBe(true);
    expect(issuesFor(schema, { a: "x", z: 1 })).toEqual([
      { path: "/z", message: "is not allowed", keyword: "unevaluatedProperties" },
    ]);
  });

  it("checks arrays and their items, with the item index in the path", () => {
    const schema = {
      type: "array",
      items: { type: "integer" },
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
    };
    expect(accepts(schema, [1, 2])).toBe(true);
    expect(issuesFor(schema, [1, "2"])).toEqual([
      { path: "/1", message: "must be integer", keyword: "type" },
    ]);
    expect(issuesFor(schema, [])[0]?.keyword).toBe("minItems");
    expect(issuesFor(schema, [1, 1])[0]?.keyword).toBe("uniqueItems");
  });

  it("reports nested failures with the full JSON Pointer, escaping ~ and /", () => {
    const schema = {
      type: "object",
      properties: {
        rooms: {
          type: "array",
          items: {
            type: "object",
            properties: { "a/b~c": { type: "object", properties: { level: { type: "integer" } } } },
          },
        },
      },
    };
    expect(issuesFor(schema, { rooms: [{}, { "a/b~c": { level: 1.5 } }] })).toEqual([
      { path: "/rooms/1/a~1b~0c/level", message: "must be integer", keyword: "type" },
    ]);
  });

  it("checks oneOf and anyOf", () => {
    const anyOf = { anyOf: [{ type: "string" }, { type: "integer" }] };
    expect(accepts(anyOf, "x")).toBe(true);
    expect(accepts(anyOf, 3)).toBe(true);
    expect(accepts(anyOf, 1.5)).toBe(false);
    const oneOf = { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] };
    expect(accepts(oneOf, 1)).toBe(true);
    expect(accepts(oneOf, 2.5)).toBe(true);
    expect(issuesFor(oneOf, 3).some((issue) => issue.keyword === "oneOf")).toBe(true);
  });

  it("follows $ref within the schema", () => {
    const schema = {
      type: "object",
      properties: { from: { $ref: "#/$defs/point" }, to: { $ref: "#/$defs/point" } },
      $defs: { point: { type: "object", required: ["x"], properties: { x: { type: "number" } } } },
    };
    expect(accepts(schema, { from: { x: 1 }, to: { x: 2 } })).toBe(true);
    expect(issuesFor(schema, { from: { x: 1 }, to: {} })).toEqual([
      { path: "/to/x", message: "is required", keyword: "required" },
    ]);
  });

  it("applies declared defaults to a copy and never mutates the caller's input", () => {
    const input = { nested: {} };
    const schema = {
      type: "object",
      properties: {
        by: { type: "integer", default: 1 },
        nested: { type: "object", properties: { deep: { type: "boolean", default: true } } },
      },
    };
    const result = resolveCall(schemaOf(schema), "run", input);
    expect(result).toEqual(ok({ command: "run", input: { by: 1, nested: { deep: true } } }));
    expect(input).toEqual({ nested: {} });
  });

  it("keeps __proto__ and constructor keys of an input as data and leaves Object.prototype clean", () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
    );
    const result = resolveCall(
      schemaOf({ type: "object", properties: { by: { default: 2 } } }),
      "run",
      input,
    );
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.ok && Object.hasOwn(result.value.input as object, "__proto__")).toBe(true);
  });

  it("answers ExecuteFailed, as the application's bug, when a schema $ref cannot be resolved", () => {
    const error = errorOf(resolveCall(schemaOf({ $ref: "#/$defs/missing" }), "run", {}));
    expect(error.kind).toBe("ExecuteFailed");
    expect(error.message).toMatch(/does not compile.*bug in the application/);
  });

  it("answers ExecuteFailed rather than throwing when the schema itself is malformed", () => {
    const broken = { commands: { run: { input: { type: "strnig" } } } };
    expect(errorOf(resolveCall(broken, "run", {})).message).toMatch(/invalid input schema/);
    expect(errorOf(resolveCall({} as AgentSchema, "run", {}))).toMatchObject({
      kind: "ExecuteFailed",
      reason: "schema",
    });
  });

  it("answers InvalidInput rather than throwing when reading the input throws", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    const schema = { type: "object", additionalProperties: false };
    expect(errorOf(resolveCall(schemaOf(schema), "run", hostile)).kind).toBe("InvalidInput");
  });
});

describe("resolveCall: the validator port", () => {
  it("uses a custom validator, checking and compiling each distinct schema once", () => {
    let compiled = 0;
    let checked = 0;
    const validator: InputValidator = {
      checkSchema: () => {
        checked++;
        return undefined;
      },
      compile: () => {
        compiled++;
        return (input) =>
          input === "ok" ? ok(input) : { ok: false, error: [{ path: "", message: "must be ok" }] };
      },
    };
    const schema = () => schemaOf({ type: "string", description: "fresh object every time" });
    expect(resolveCall(schema(), "run", "ok", undefined, { validator }).ok).toBe(true);
    expect(resolveCall(schema(), "run", "no", undefined, { validator }).ok).toBe(false);
    expect(resolveCall(schema(), "run", "ok", undefined, { validator }).ok).toBe(true);
    expect({ compiled, checked }).toEqual({ compiled: 1, checked: 1 });
  });

  it("treats schemas with the same content in another key order as the same schema", () => {
    let compiled = 0;
    const validator: InputValidator = {
      checkSchema: () => undefined,
      compile: () => {
        compiled++;
        return (input) => ok(input);
      },
    };
    resolveCall(schemaOf({ type: "string", maxLength: 3 }), "run", "a", undefined, { validator });
    resolveCall(schemaOf({ maxLength: 3, type: "string" }), "run", "a", undefined, { validator });
    expect(compiled).toBe(1);
  });
});
