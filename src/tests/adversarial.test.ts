import { describe, expect, it, vi } from "vitest";
import {
  type AgentComponent,
  ajvValidator,
  buildManifest,
  fakeDialect,
  igniteTools,
  type NeutralToolCall,
  resolveCall,
} from "../tools/index.js";
import { resultText } from "../tools/wire/result-text.js";
import { Counter } from "./fixtures.js";

// One named test per hostile case: what a model, a provider or a component may do to the bridge.
const objectInput = { commands: { save: { input: { type: "object" } } } };

function component(execute: AgentComponent["execute"]): AgentComponent {
  return { getSchema: () => ({ commands: { go: {} } }), execute };
}

describe("adversarial catalogue", () => {
  it("prototype-named commands are unknown unless declared", async () => {
    const tools = igniteTools(new Counter());
    for (const name of ["__proto__", "constructor", "toString", "__defineGetter__"]) {
      expect(await tools.invoke({ name, input: {} })).toMatchObject({
        ok: false,
        error: { kind: "UnknownCommand" },
      });
    }
  });

  it("__proto__ and constructor keys in input stay data and Object.prototype stays clean", async () => {
    const received: unknown[] = [];
    const tools = igniteTools({
      getSchema: () => ({
        commands: { save: { input: { type: "object", properties: { x: { default: 1 } } } } },
      }),
      execute: (_command, input) => {
        received.push(input);
        return { state: null, events: [] };
      },
    });
    const input = JSON.parse(
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}',
    );
    expect((await tools.invoke({ name: "save", input })).ok).toBe(true);
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(Object.keys(received[0] as object).sort()).toEqual(["__proto__", "constructor", "x"]);
  });

  it("100 000-deep nesting is refused before validation", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level++) deep = [deep];
    const result = resolveCall(objectInput, "save", { deep });
    expect(result).toMatchObject({ ok: false, error: { issues: [{ keyword: "maxInputDepth" }] } });
  });

  it("a 10 MB string is refused before validation", () => {
    const result = resolveCall(objectInput, "save", { text: "a".repeat(10_000_000) });
    expect(result).toMatchObject({ ok: false, error: { issues: [{ keyword: "maxInputBytes" }] } });
  });

  it("NaN and Infinity, which JSON cannot carry, are refused with their path", () => {
    const schema = {
      commands: { set: { input: { type: "object", properties: { level: { type: "number" } } } } },
    };
    for (const level of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(resolveCall(schema, "set", { level })).toMatchObject({
        ok: false,
        error: { issues: [{ path: "/level", keyword: "finite" }] },
      });
    }
  });

  it("a catastrophic pattern is the application's exposure; a linear-time engine plugs into the validator port", () => {
    // `^(a+)+$` on "aaaa…!" backtracks exponentially in JavaScript's engine. The bridge cannot
    // interrupt synchronous validation, so the mitigation is the engine: pass a linear-time one.
    const engine = vi.fn((pattern: string, flags: string) => {
      const compiled = new RegExp(pattern, flags);
      return { test: (text: string) => text.length <= 64 && compiled.test(text) };
    });
    const schema = { commands: { name: { input: { type: "string", pattern: "^(a+)+$" } } } };
    const validator = ajvValidator({ regExp: engine });
    const hostile = `${"a".repeat(5_000)}!`;
    expect(resolveCall(schema, "name", hostile, undefined, { validator })).toMatchObject({
      ok: false,
      error: { issues: [{ keyword: "pattern" }] },
    });
    expect(engine).toHaveBeenCalledWith("^(a+)+$", "u");
  });

  it("canExecute throwing or returning a non-boolean makes a gated command unavailable", async () => {
    for (const canExecute of [
      () => {
        throw new Error("no state");
      },
      () => 1 as unknown as boolean,
      () => "true" as unknown as boolean,
    ]) {
      const counter = Object.assign(new Counter(), { canExecute });
      const tools = igniteTools(counter);
      expect(tools.manifest().map((tool) => tool.name)).toEqual(["increment", "setLimit"]);
      expect(await tools.invoke({ name: "reset", input: {} })).toMatchObject({
        ok: false,
        error: { kind: "Unavailable" },
      });
    }
  });

  it("getSchema throwing answers ExecuteFailed and executes nothing", async () => {
    const execute = vi.fn();
    let checked = false; // the first read is igniteTools checking the component
    const tools = igniteTools(
      {
        getSchema: () => {
          if (checked) throw new TypeError("boom");
          checked = true;
          return { commands: { go: {} } };
        },
        execute,
      },
      fakeDialect,
    );
    const blocks = await tools.handleToolCalls({ toolCalls: [{ id: "1", name: "go", input: {} }] });
    expect(blocks[0]).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "schema" },
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it.each([
    ["null", null],
    ["a string", "nope"],
    ["an object", { code: 3 }],
  ])("execute throwing %s answers ExecuteFailed with the value as cause", async (_case, thrown) => {
    const result = await igniteTools(
      component(() => {
        throw thrown;
      }),
    ).invoke({ name: "go", input: {} });
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecuteFailed", cause: thrown } });
  });

  it("execute never settling is answered by the timeout", async () => {
    vi.useFakeTimers();
    try {
      const tools = igniteTools(
        component(() => new Promise(() => {})),
        undefined,
        { timeoutMs: 5 },
      );
      const result = tools.invoke({ name: "go", input: {} });
      await vi.advanceTimersByTimeAsync(5);
      expect(await result).toMatchObject({ ok: false, error: { kind: "ExecuteFailed" } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a circular snapshot encodes to text the model can read", async () => {
    const state: Record<string, unknown> = { name: "loop" };
    state.self = state;
    const tools = igniteTools(
      component(() => ({ state, events: [{ type: "looped", payload: state }] })),
    );
    const call: NeutralToolCall = { name: "go", input: {} };
    const text = resultText(call, await tools.invoke(call));
    expect(JSON.parse(text)).toEqual({
      snapshot: { name: "loop", self: "[Circular]" },
      events: [{ type: "looped", payload: { name: "loop", self: "[Circular]" } }],
    });
  });

  it("10 000 tool calls in one response are each answered once, in order", async () => {
    let executed = 0;
    const tools = igniteTools(
      component(() => ({ state: ++executed, events: [] })),
      fakeDialect,
    );
    const toolCalls = Array.from({ length: 10_000 }, (_, index) => ({
      id: String(index),
      name: index % 100 === 99 ? "nope" : "go",
      input: {},
    }));
    const blocks = await tools.handleToolCalls({ toolCalls });
    expect(blocks.map((block) => block.id)).toEqual(toolCalls.map((call) => call.id));
    expect(executed).toBe(9_900);
    expect(blocks.filter((block) => !block.ok)).toHaveLength(100);
  });

  it("a schema that is not a JSON Schema is the application's bug, found at construction", () => {
    expect(() => buildManifest({ commands: { bad: { input: { type: 7 } } } })).toThrow(TypeError);
  });
});
