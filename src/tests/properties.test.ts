import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentSchema, err, fakeDialect, ok, resolveCall } from "../tools/index.js";
import { resultText } from "../tools/wire/result-text.js";
import { counterSchema } from "./fixtures.js";

// fast-check prints the seed and the shrunk counterexample of any failure, so it can be replayed
// with `{ seed, path }`.
const RUNS = { numRuns: 3_000 };

const schemas: AgentSchema[] = [
  counterSchema,
  {
    commands: {
      add: {
        input: {
          type: "object",
          properties: {
            title: { type: "string", maxLength: 20, pattern: "^[a-z ]*$" },
            tags: { type: "array", items: { enum: ["a", "b"] }, uniqueItems: true },
            due: { type: "string", format: "date" },
            at: { $ref: "#/$defs/point" },
          },
          required: ["title"],
          additionalProperties: false,
          $defs: {
            point: { type: "object", properties: { x: { type: "number", multipleOf: 0.5 } } },
          },
        },
      },
      pick: { input: { oneOf: [{ type: "integer" }, { type: "string", minLength: 2 }] } },
    },
  },
];

describe("properties", () => {
  it("resolveCall never throws and always returns a Result, for any name and any JSON input", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...schemas),
        fc.oneof(
          fc.constantFrom("increment", "setLimit", "reset", "add", "pick", "__proto__"),
          fc.string(),
        ),
        fc.jsonValue(),
        (schema, name, input) => {
          const result = resolveCall(schema, name, input);
          expect(typeof result.ok).toBe("boolean");
          if (!result.ok) expect(typeof result.error.message).toBe("string");
        },
      ),
      RUNS,
    );
  });

  it("resolveCall never throws for any JavaScript value as input, name or availability", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...schemas),
        fc.anything(),
        fc.anything(),
        fc.anything(),
        (schema, name, input, available) => {
          const result = resolveCall(schema, name as string, input, () => available as boolean);
          expect(typeof result.ok).toBe("boolean");
        },
      ),
      RUNS,
    );
  });

  it("what the model reads back is always valid JSON text or an error line, for any snapshot", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withTypedArray: true,
        }),
        (snapshot) => {
          const text = resultText({ name: "go", input: {} }, ok({ snapshot, events: [] }));
          expect(() => JSON.parse(text)).not.toThrow();
          const block = fakeDialect.toToolResult(
            { name: "go", input: {} },
            err({ kind: "ExecuteFailed", name: "go", message: "m", cause: snapshot }),
          );
          expect(block.ok).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it("fakeDialect.parseToolCalls returns calls or throws only the documented TypeError", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (response) => {
        try {
          expect(Array.isArray(fakeDialect.parseToolCalls(response as never, []))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }),
      RUNS,
    );
  });
});
