import { describe, expect, it } from "vitest";
import {
  type AgentComponent,
  fakeDialect,
  igniteTools,
  type NeutralManifest,
  type ToolDefsContext,
  type ToolDialect,
  type ToolWarning,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

const execute = () => ({ state: null, events: [] });

describe("igniteTools checks the component when it is called", () => {
  it.each([
    ["null", null, /must be an object with getSchema\(\) and execute\(\)/],
    ["a component without getSchema", { execute }, /component\.getSchema is not a function/],
    [
      "a component without execute",
      { getSchema: () => ({ commands: {} }) },
      /component\.execute is not a function/,
    ],
    [
      "a canExecute that is not a function",
      { getSchema: () => ({ commands: {} }), execute, canExecute: true },
      /component\.canExecute is not a function/,
    ],
    [
      "a schema without commands",
      { getSchema: () => ({ command: {} }), execute },
      /getSchema\(\) must return an object of the form \{ commands/,
    ],
    [
      "a command whose input schema is malformed",
      { getSchema: () => ({ commands: { "todo.add": { input: { type: "strnig" } } } }), execute },
      /Command "todo\.add" has an invalid input schema/,
    ],
    [
      "a getSchema that throws",
      {
        getSchema: () => {
          throw new Error("not connected");
        },
        execute,
      },
      /getSchema\(\) threw: not connected/,
    ],
  ])("throws a TypeError at construction for %s", (_case, component, message) => {
    const make = () => igniteTools(component as unknown as AgentComponent);
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });

  it("accepts anything that has the methods, a function object included", () => {
    const component = Object.assign(() => undefined, {
      getSchema: () => ({ commands: {} }),
      execute,
    });
    expect(igniteTools(component).manifest()).toEqual([]);
  });

  it.each([
    ["project", { project: "summary" }, '"summary" (a string)'],
    ["onWarning", { onWarning: console }, "a Console"],
  ])("throws a TypeError at construction when %s is not a function", (key, options, given) => {
    expect(() => igniteTools(new Counter(), undefined, options as never)).toThrow(
      `igniteTools: ${key} must be a function, not ${given}`,
    );
  });
});

/** A bridge whose warnings are collected. */
function warned(component: AgentComponent) {
  const warnings: ToolWarning[] = [];
  const tools = igniteTools(component, fakeDialect, {
    onWarning: (warning) => warnings.push(warning),
  });
  return { tools, warnings };
}

describe("the application hears what the model never sees", () => {
  it("warns once, at construction, of a gated command without canExecute, which stays offered", () => {
    const { tools, warnings } = warned({
      getSchema: () => ({ commands: { boost: { gated: true }, stop: {} } }),
      execute,
    });
    for (let turn = 0; turn < 3; turn++) {
      expect(tools.toToolDefs().map((tool) => tool.name)).toEqual(["boost", "stop"]);
    }
    expect(warnings).toEqual([
      {
        code: "gated-without-canExecute",
        command: "boost",
        message: expect.stringContaining("there is no canExecute()"),
      },
    ]);
  });

  it("warns once of a canExecute that no gated command ever asks", () => {
    const { tools, warnings } = warned({
      getSchema: () => ({ commands: { stop: {} } }),
      canExecute: () => false,
      execute,
    });
    tools.manifest();
    tools.toToolDefs();
    expect(warnings.map((warning) => warning.code)).toEqual(["canExecute-without-gated"]);
  });

  it("warns once per command of a canExecute that throws, and keeps the command unavailable", async () => {
    let thrown = 0;
    const { tools, warnings } = warned({
      getSchema: () => ({ commands: { boost: { gated: true }, stop: {} } }),
      canExecute: () => {
        throw new Error(`no state yet (${++thrown})`);
      },
      execute,
    });
    for (let turn = 0; turn < 3; turn++) {
      expect(tools.toToolDefs().map((tool) => tool.name)).toEqual(["stop"]);
    }
    const [block] = await tools.handleToolCalls({ toolCalls: [{ name: "boost", input: {} }] });
    expect(block).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(thrown).toBeGreaterThan(3);
    expect(warnings).toEqual([
      {
        code: "canExecute-threw",
        command: "boost",
        message: expect.stringMatching(/^canExecute\("boost"\) threw \(no state yet \(1\)\)/),
      },
    ]);
  });

  it("says nothing about a component that keeps the contract", () => {
    const { tools, warnings } = warned(new Counter());
    tools.toToolDefs();
    expect(warnings).toEqual([]);
  });

  it("ignores a warning sink that throws", () => {
    const tools = igniteTools(
      { getSchema: () => ({ commands: { boost: { gated: true } } }), execute },
      fakeDialect,
      {
        onWarning: () => {
          throw new Error("logger down");
        },
      },
    );
    expect(tools.toToolDefs()).toHaveLength(1);
  });
});

describe("a dialect gets every declared command and the warning sink", () => {
  /** A dialect that records the context of each `toToolDefs` and reports one downgrade. */
  function recording() {
    const contexts: (ToolDefsContext | undefined)[] = [];
    const dialect: ToolDialect<string[], null, null> = {
      toToolDefs: (manifest: NeutralManifest, context?: ToolDefsContext) => {
        contexts.push(context);
        for (const tool of manifest) {
          context?.warn?.({
            code: "strict-fallback",
            command: tool.name,
            message: `${tool.name} is sent without strict mode`,
          });
        }
        return manifest.map((tool) => tool.name);
      },
      parseToolCalls: () => [],
      toToolResult: () => null,
    };
    return { dialect, contexts };
  }

  it("passes { declared, warn }: declared holds the unavailable commands too", () => {
    const { dialect, contexts } = recording();
    const tools = igniteTools(new Counter(), dialect);
    expect(tools.toToolDefs()).toEqual(["increment", "setLimit"]);
    expect(contexts[0]?.declared?.map((tool) => tool.name)).toEqual([
      "increment",
      "reset",
      "setLimit",
      "unlock",
    ]);
    expect(typeof contexts[0]?.warn).toBe("function");
  });

  it("reports each distinct warning a dialect raises once per bridge, not every turn", () => {
    const { dialect } = recording();
    const warnings: ToolWarning[] = [];
    const counter = new Counter();
    const tools = igniteTools(counter, dialect, { onWarning: (warning) => warnings.push(warning) });
    tools.toToolDefs();
    tools.toToolDefs();
    counter.state = { ...counter.state, count: 2 }; // reset becomes available: one new warning
    tools.toToolDefs();
    expect(warnings.map((warning) => warning.command)).toEqual(["increment", "setLimit", "reset"]);
    // Another bridge is another application's log: it hears them again.
    const again: ToolWarning[] = [];
    igniteTools(counter, dialect, { onWarning: (warning) => again.push(warning) }).toToolDefs();
    expect(again).toHaveLength(3);
  });
});
