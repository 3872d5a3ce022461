import { describe, expect, it } from "vitest";
import { type AgentSchema, buildManifest } from "../tools/index.js";
import { counterSchema } from "./fixtures.js";

const NO_ARGUMENTS = { type: "object", properties: {}, additionalProperties: false };

describe("buildManifest", () => {
  it("lists every command sorted by name, with description, input schema and gated flag", () => {
    const manifest = buildManifest({
      commands: {
        zeta: { description: "last", input: { type: "string" } },
        alpha: { description: "first" },
        Mid: {},
      },
    });
    expect(manifest.map((tool) => tool.name)).toEqual(["Mid", "alpha", "zeta"]);
    expect(manifest[2]).toEqual({
      name: "zeta",
      description: "last",
      inputSchema: { type: "string" },
      gated: false,
    });
  });

  it("gives a command without input the explicit no-argument schema", () => {
    const [tool] = buildManifest({ commands: { ping: {} } });
    expect(tool).toEqual({ name: "ping", inputSchema: NO_ARGUMENTS, gated: false });
  });

  it("offers every command, gated or not, when there is no canExecute", () => {
    expect(buildManifest(counterSchema).map((tool) => tool.name)).toEqual([
      "increment",
      "reset",
      "setLimit",
      "unlock",
    ]);
  });

  it("omits gated commands that canExecute does not allow now, and keeps ungated ones", () => {
    const asked: string[] = [];
    const manifest = buildManifest(counterSchema, (name) => {
      asked.push(name);
      return name === "unlock";
    });
    expect(manifest.map((tool) => tool.name)).toEqual(["increment", "setLimit", "unlock"]);
    expect(manifest.find((tool) => tool.name === "unlock")?.gated).toBe(true);
    expect(asked.sort()).toEqual(["reset", "unlock"]);
  });

  it("fails closed: a throwing canExecute or one that returns a non-boolean hides the command", () => {
    const throwing = buildManifest(counterSchema, () => {
      throw new Error("boom");
    });
    expect(throwing.map((tool) => tool.name)).toEqual(["increment", "setLimit"]);
    const truthy = buildManifest(counterSchema, (() => "yes") as unknown as () => boolean);
    expect(truthy.map((tool) => tool.name)).toEqual(["increment", "setLimit"]);
  });

  it("throws a TypeError when the schema has no commands object", () => {
    expect(() => buildManifest({} as AgentSchema)).toThrow(TypeError);
    expect(() => buildManifest({ commands: [] } as unknown as AgentSchema)).toThrow(/commands/);
  });

  it("throws a TypeError naming the command whose input is not a valid JSON Schema", () => {
    const schema = { commands: { "todo.add": { input: { type: "strnig" } } } };
    expect(() => buildManifest(schema)).toThrow(TypeError);
    expect(() => buildManifest(schema)).toThrow(/"todo\.add" has an invalid input schema/);
  });

  it("throws a TypeError naming a command declared with the wrong shape", () => {
    expect(() => buildManifest({ commands: { bad: "nope" } } as unknown as AgentSchema)).toThrow(
      /"bad" must be declared as an object/,
    );
    expect(() =>
      buildManifest({ commands: { bad: { input: [] } } } as unknown as AgentSchema),
    ).toThrow(/"bad" has an input schema that is not a JSON Schema object/);
    expect(() =>
      buildManifest({ commands: { bad: { gated: "yes" } } } as unknown as AgentSchema),
    ).toThrow(/"bad" has a `gated` flag that is not a boolean/);
    expect(() =>
      buildManifest({ commands: { bad: { description: 3 } } } as unknown as AgentSchema),
    ).toThrow(/"bad" has a description that is not a string/);
  });

  it("accepts draft-07 schemas and refuses a $schema it cannot validate", () => {
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };
    expect(buildManifest({ commands: { old: { input: draft7 } } })).toHaveLength(1);
    const unknown = { $schema: "https://example.com/my-meta", type: "object" };
    expect(() => buildManifest({ commands: { odd: { input: unknown } } })).toThrow(
      /unsupported \$schema/,
    );
  });

  it("does not mistake inherited names for commands", () => {
    expect(buildManifest({ commands: {} })).toEqual([]);
  });
});
