import { describe, expect, it } from "vitest";
import { buildManifest, igniteTools, type NeutralManifest } from "../../tools/index.js";
import { type NameRule, PORTABLE_NAMES, toolMapping } from "../../tools/wire/mapping.js";
import { Counter, NAMED_COMMANDS, named } from "../fixtures.js";

const manifestOf = (commands: Parameters<typeof buildManifest>[0]["commands"]): NeutralManifest =>
  buildManifest({ commands });

const todos = manifestOf({
  "todo.add": { description: "Add a todo.", input: { type: "string" } },
  "todo add": { input: { type: "string" } },
  "1st": {},
  list: {},
});

describe("toolMapping: names", () => {
  it("follows each provider's name rules: dots mapped for OpenAI and Anthropic, kept for Gemini and MCP", () => {
    const names = (rules: "openai" | "anthropic" | "gemini" | "mcp") =>
      toolMapping(todos, { names: rules }).tools.map((tool) => tool.name);
    expect(names("openai")[2]).toMatch(/^todo_add_[0-9a-z]+$/);
    expect(names("anthropic")).toEqual(names("openai"));
    expect(names("gemini")).toContain("todo.add");
    expect(names("mcp")).toContain("todo.add");
    // Gemini wants a letter or `_` first; OpenAI takes a digit.
    expect(names("openai")).toContain("1st");
    expect(names("gemini")[0]).toMatch(/^_1st_[0-9a-z]+$/);
  });

  it("uses names every provider accepts by default", () => {
    const names = toolMapping(todos).tools.map((tool) => tool.name);
    expect(names).toHaveLength(4);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
    expect(names).toContain("list");
    expect(PORTABLE_NAMES.maxLength).toBe(64);
  });

  it("takes a name rule of your own", () => {
    const lowercase: NameRule = { invalid: /[^a-z]/g, maxLength: 20 };
    const mapping = toolMapping(todos, { names: lowercase });
    expect(mapping.nameOf("list")).toBe("list");
    expect(mapping.nameOf("todo.add")).toMatch(/^todo_add_/);
  });

  it("computes names over the declared commands, so a name means one command whatever is available", () => {
    // A gated command literally named like the safe name `a.b` would get on its own.
    const taken = toolMapping(manifestOf({ "a.b": {} }), { names: "openai" }).nameOf("a.b") ?? "";
    const declared = manifestOf({ "a.b": {}, [taken]: { gated: true } });
    const offeredNow = declared.filter((tool) => tool.name === "a.b");

    const mapping = toolMapping(offeredNow, { names: "openai", declared });

    expect(mapping.tools.map((tool) => tool.command)).toEqual(["a.b"]);
    expect(mapping.nameOf("a.b")).not.toBe(taken);
    expect(mapping.nameOf(taken)).toBe(taken);
    // A call to that name is for the literal command (answered Unavailable), never for `a.b`.
    expect(mapping.toCall({ name: taken, arguments: {} }).name).toBe(taken);
    expect(mapping.toCall({ name: mapping.nameOf("a.b") ?? "", arguments: {} }).name).toBe("a.b");
  });

  it("offers only the manifest's tools, each with its command and own description", () => {
    const [first, , third] = todos;
    const mapping = toolMapping(first && third ? [first, third] : [], { declared: todos });
    expect(mapping.tools.map((tool) => tool.command)).toEqual(["1st", "todo add"]);
    expect(mapping.tools[0]).not.toHaveProperty("description");
    expect(toolMapping(todos).tools.find((tool) => tool.command === "todo.add")?.description).toBe(
      "Add a todo.",
    );
  });

  it("still names a command offered that the declared list lacks", () => {
    const mapping = toolMapping(todos, { declared: [] });
    expect(mapping.tools.map((tool) => tool.command)).toEqual(todos.map((tool) => tool.name));
  });

  it("throws a TypeError for a provider it does not know, naming the ones it does", () => {
    // A JavaScript caller (or a widened string) can pass any name.
    const names = "claude" as "openai";
    expect(() => toolMapping(todos, { names })).toThrow(
      /toolMapping: names "claude" is not one of "openai", "anthropic", "gemini", "mcp", "portable"/,
    );
    const strict = "gemini" as "openai";
    expect(() => toolMapping(todos, { strict })).toThrow(/strict "gemini" is not one of/);
  });
});

describe("toolMapping: schemas", () => {
  it("wraps a non-object root as { value } and leaves an object root as it is", () => {
    const mapping = toolMapping(manifestOf(NAMED_COMMANDS), { names: "openai" });
    const byCommand = (command: string) => mapping.tools.find((tool) => tool.command === command);
    expect(byCommand("todo.add")).toMatchObject({
      wrapped: true,
      strict: false,
      parameters: {
        type: "object",
        properties: { value: { type: "string" } },
        required: ["value"],
        additionalProperties: false,
      },
    });
    expect(byCommand("note")?.wrapped).toBe(false);
    expect(byCommand("note")?.parameters).toBe(NAMED_COMMANDS.note?.input);
  });

  it("writes strict schemas by the provider's rule when asked, and removes the nulls sent for optional properties", () => {
    const mapping = toolMapping(manifestOf(NAMED_COMMANDS), { names: "openai", strict: "openai" });
    const note = mapping.tools.find((tool) => tool.command === "note");
    expect(note?.strict).toBe(true);
    expect(note?.parameters).toMatchObject({
      required: ["value", "tag"],
      properties: { tag: { anyOf: [{ type: "string" }, { type: "null" }] } },
    });
    expect(mapping.toCall({ name: "note", arguments: '{"value":"x","tag":null}' }).input).toEqual({
      value: "x",
    });
    // Open objects have no strict form: sent as they are.
    const open = mapping.tools.find((tool) => tool.command === "set limit");
    expect(open?.strict).toBe(false);
  });
});

describe("toolMapping: calls back", () => {
  const mapping = toolMapping(manifestOf(NAMED_COMMANDS), { names: "openai" });
  const dotted = mapping.nameOf("todo.add") ?? "";

  it("maps the provider name back to the command, unwraps a wrapped input and keeps the id", () => {
    expect(mapping.toCall({ name: dotted, arguments: { value: "milk" }, id: "c1" })).toEqual({
      id: "c1",
      name: "todo.add",
      toolName: dotted,
      input: "milk",
    });
  });

  it("reads arguments as JSON text or as an object, and absent or blank arguments as none", () => {
    expect(mapping.toCall({ name: "note", arguments: '{"value":"a"}' }).input).toEqual({
      value: "a",
    });
    expect(mapping.toCall({ name: "note", arguments: { value: "a" } }).input).toEqual({
      value: "a",
    });
    expect(mapping.toCall({ name: "note" }).input).toEqual({});
    expect(mapping.toCall({ name: "note", arguments: "" }).input).toEqual({});
  });

  it("sets inputError, never throws, for arguments that are not JSON or not an object", () => {
    expect(mapping.toCall({ name: "note", arguments: '{"value":' }).inputError).toMatch(
      /not valid JSON/,
    );
    expect(mapping.toCall({ name: "note", arguments: [1] }).inputError).toBe(
      "arguments must be a JSON object, not an array",
    );
    expect(mapping.toCall({ name: dotted, arguments: { text: "milk" } }).inputError).toBe(
      'arguments must be an object { "value": ... }',
    );
  });

  it("keeps a name that was never offered as it is, so the bridge answers UnknownCommand", async () => {
    const call = mapping.toCall({ name: "todo_add", arguments: {} });
    expect(call).toEqual({ name: "todo_add", input: {} });
    const outcome = await igniteTools(named()).invoke(call);
    expect(!outcome.ok && outcome.error.kind).toBe("UnknownCommand");
  });

  it("maps a call to a declared command that is unavailable now back to it, so the bridge answers Unavailable", async () => {
    const counter = new Counter();
    const bridge = igniteTools(counter);
    const declared = buildManifest(counter.getSchema());
    const mapping = toolMapping(bridge.manifest(), { names: "openai", declared });
    expect(mapping.tools.map((tool) => tool.name)).not.toContain("reset");

    const outcome = await bridge.invoke(mapping.toCall({ name: "reset", arguments: "{}" }));

    expect(!outcome.ok && outcome.error.kind).toBe("Unavailable");
    expect(counter.calls).toEqual([]);
  });
});

describe("toolMapping: another framework in ten lines", () => {
  it("runs a turn of a framework that names tools its own way, through the bridge", async () => {
    // A made-up framework: tools are { id, params }, calls come as { tool, json, ref }.
    const counter = new Counter();
    const bridge = igniteTools(counter);
    const declared = buildManifest(counter.getSchema());

    const mapping = toolMapping(bridge.manifest(), { names: "openai", declared });
    const offeredTools = mapping.tools.map((tool) => ({ id: tool.name, params: tool.parameters }));
    const modelCalls = [
      { tool: "setLimit", json: '{"value":4}', ref: "r1" },
      { tool: "increment", json: '{"by":9}', ref: "r2" },
    ];
    const answers = await Promise.all(
      modelCalls.map((call) =>
        bridge.invoke(mapping.toCall({ name: call.tool, arguments: call.json, id: call.ref })),
      ),
    );

    expect(offeredTools.map((tool) => tool.id)).toEqual(["increment", "setLimit"]);
    expect(answers.map((answer) => answer.ok)).toEqual([true, false]);
    expect(counter.calls).toEqual([{ command: "setLimit", input: 4 }]);
  });
});
