import { describe, expect, it } from "vitest";
import { openai } from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type AgentSchema,
  ajvValidator,
  igniteTools,
  type JsonSchema,
} from "../../tools/index.js";
import { contentEntries, MAX_CONTENT_ENTRIES } from "../../tools/validation/cache.js";

const number = (maximum: number): JsonSchema => ({
  type: "object",
  properties: { by: { type: "number", maximum } },
  required: ["by"],
  additionalProperties: false,
});

/** A component whose schema object the test changes in place between turns. */
function mutable(commands: AgentSchema["commands"], canExecute?: (name: string) => boolean) {
  const schema: AgentSchema = { commands };
  const ran: [string, unknown][] = [];
  const component: AgentComponent = {
    getSchema: () => schema,
    execute: (command, input) => {
      ran.push([command, input]);
      return { state: command, events: [] };
    },
    ...(canExecute ? { canExecute } : {}),
  };
  return { schema, component, ran };
}

function response(name: string, args: unknown) {
  return {
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant" as const,
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function" as const,
              function: { name, arguments: JSON.stringify(args) },
            },
          ],
        },
      },
    ],
  };
}

const names = (defs: { function: { name: string } }[]) => defs.map((tool) => tool.function.name);

describe("tool definitions kept between turns are never stale", () => {
  it("returns the same definitions while neither the schema nor availability changed", () => {
    const { component } = mutable({ add: { input: number(5) }, reset: {} });
    const tools = igniteTools(component, openai);
    const first = tools.toToolDefs();
    expect(tools.toToolDefs()).toBe(first);
    expect(tools.manifest()).toBe(tools.manifest());
  });

  it("sees a command added to or deleted from the same commands object in place", async () => {
    const { schema, component, ran } = mutable({ add: { input: number(5) } });
    const tools = igniteTools(component, openai);
    expect(names(tools.toToolDefs())).toEqual(["add"]);
    schema.commands.reset = { description: "Starts again." };
    expect(names(tools.toToolDefs())).toEqual(["add", "reset"]);
    await tools.handleToolCalls(response("reset", {}));
    expect(ran).toEqual([["reset", undefined]]);
    delete schema.commands.add;
    expect(names(tools.toToolDefs())).toEqual(["reset"]);
    const [answer] = await tools.answerToolCalls(response("add", { by: 1 }));
    expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "UnknownCommand" } });
  });

  it("sees a command's input schema replaced in place, in the definitions and in validation", async () => {
    const { schema, component, ran } = mutable({ add: { input: number(5) } });
    const tools = igniteTools(component, openai);
    tools.toToolDefs();
    expect((await tools.invoke({ name: "add", input: { by: 9 } })).ok).toBe(false);
    (schema.commands.add as { input: JsonSchema }).input = number(10);
    const [tool] = tools.toToolDefs();
    expect(tool?.function.parameters).toEqual(number(10));
    await tools.handleToolCalls(response("add", { by: 9 }));
    expect(ran).toEqual([["add", { by: 9 }]]);
  });

  it("sees a flag or description set in place on a command of a frozen commands object", () => {
    const add = { description: "Adds.", input: number(5) } as Record<string, unknown>;
    const { component } = mutable(Object.freeze({ add }) as AgentSchema["commands"]);
    const tools = igniteTools(component, openai);
    const first = tools.toToolDefs();
    add.description = "Adds a number.";
    const second = tools.toToolDefs();
    expect(second).not.toBe(first);
    expect(second[0]?.function.description).toBe("Adds a number.");
    add.gated = true; // gated without canExecute: still offered, as before
    expect(tools.manifest()[0]?.gated).toBe(true);
  });

  it("sees a new schema object returned by getSchema", () => {
    let schema: AgentSchema = { commands: { add: { input: number(5) } } };
    const tools = igniteTools(
      { getSchema: () => schema, execute: () => ({ state: null, events: [] }) },
      openai,
    );
    expect(names(tools.toToolDefs())).toEqual(["add"]);
    schema = { commands: { subtract: { input: number(5) } } };
    expect(names(tools.toToolDefs())).toEqual(["subtract"]);
  });

  it("asks availability every turn, and offers exactly what is available", () => {
    let open = false;
    const { component } = mutable({ add: { input: number(5) }, lock: { gated: true } }, () => open);
    const tools = igniteTools(component, openai);
    const closed = tools.toToolDefs();
    expect(names(closed)).toEqual(["add"]);
    open = true;
    expect(names(tools.toToolDefs())).toEqual(["add", "lock"]);
    open = false;
    expect(names(tools.toToolDefs())).toEqual(["add"]);
  });

  it("answers a command that became unavailable Unavailable, through the same name", async () => {
    let open = true;
    const { component, ran } = mutable({ lock: { gated: true } }, () => open);
    const tools = igniteTools(component, openai);
    tools.toToolDefs();
    open = false;
    const [answer] = await tools.answerToolCalls(response("lock", {}));
    expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
    expect(ran).toEqual([]);
  });

  it("never lets a literal command added in place receive the calls of a mapped name", async () => {
    const { schema, component, ran } = mutable({ "set limit": { input: number(5) } });
    const tools = igniteTools(component, openai);
    const [mapped] = names(tools.toToolDefs());
    expect(mapped).toMatch(/^set_limit_/);
    // The literal command takes its own name; "set limit" moves aside to another safe name.
    schema.commands[mapped as string] = { description: "A literal name." };
    const now = names(tools.toToolDefs());
    expect(now).toContain(mapped);
    const moved = now.find((name) => name !== mapped) as string;
    await tools.handleToolCalls(response(mapped as string, {}));
    await tools.handleToolCalls(response(moved, { by: 1 }));
    expect(ran).toEqual([
      [mapped, undefined],
      ["set limit", { by: 1 }],
    ]);
  });

  it("answers a call made after the schema became malformed with the schema's error, not the old tools", async () => {
    let schema: unknown = { commands: { add: { input: number(5) } } };
    const ran: string[] = [];
    const tools = igniteTools(
      {
        getSchema: () => schema as AgentSchema,
        execute: (command) => {
          ran.push(command);
          return { state: null, events: [] };
        },
      },
      openai,
    );
    tools.toToolDefs();
    schema = { commands: null };
    const [answer] = await tools.answerToolCalls(response("add", { by: 1 }));
    expect(answer?.outcome).toMatchObject({ ok: false, error: { reason: "schema" } });
    expect(ran).toEqual([]);
  });

  it("gives exact answers to a subscribing component that changes and notifies", async () => {
    const listeners = new Set<() => void>();
    const { schema, component, ran } = mutable({ add: { input: number(5) } });
    component.subscribe = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const tools = igniteTools(component, openai);
    tools.toToolDefs();
    schema.commands.reset = {};
    (schema.commands.add as { input: JsonSchema }).input = number(50);
    for (const listener of listeners) listener();
    expect(names(tools.toToolDefs())).toEqual(["add", "reset"]);
    await tools.handleToolCalls(response("add", { by: 40 }));
    expect(ran).toEqual([["add", { by: 40 }]]);
  });
});

/** Commands that count how often their keys are enumerated (the cost `getSnapshot` saves). */
function counted(commands: AgentSchema["commands"]) {
  const count = { keys: 0 };
  const proxy = new Proxy(commands, {
    ownKeys(target) {
      count.keys++;
      return Reflect.ownKeys(target);
    },
  });
  return { commands: proxy, count };
}

describe("a component with getSnapshot is read again when its state changes", () => {
  function snapshotted(commands: AgentSchema["commands"]) {
    const { component, schema } = mutable(commands);
    const state = { version: 0 };
    component.getSnapshot = () => state.version;
    return { component, schema, state };
  }

  it("keeps the definitions without enumerating the commands while the snapshot is the same", () => {
    const { commands, count } = counted({ add: { input: number(5) }, reset: {} });
    const { component } = snapshotted(commands);
    const tools = igniteTools(component, openai);
    const first = tools.toToolDefs();
    tools.toToolDefs(); // the first turn with a snapshot enumerates; the ones after it do not
    const before = count.keys;
    expect(tools.toToolDefs()).toBe(first);
    expect(tools.toToolDefs()).toBe(first);
    expect(count.keys).toBe(before);
  });

  it("sees a command added or deleted in place once getSnapshot returns a new state", () => {
    const { component, schema, state } = snapshotted({ add: { input: number(5) } });
    const tools = igniteTools(component, openai);
    expect(names(tools.toToolDefs())).toEqual(["add"]);
    schema.commands.reset = {};
    state.version++;
    expect(names(tools.toToolDefs())).toEqual(["add", "reset"]);
    delete schema.commands.add;
    state.version++;
    expect(names(tools.toToolDefs())).toEqual(["reset"]);
  });

  it("sees a description or input set in place even while the snapshot is the same", () => {
    const { component, schema } = snapshotted({ add: { input: number(5) } });
    const tools = igniteTools(component, openai);
    tools.toToolDefs();
    tools.toToolDefs();
    const add = schema.commands.add as { description?: string; input: JsonSchema };
    add.description = "Adds.";
    add.input = number(10);
    const [tool] = tools.toToolDefs();
    expect(tool?.function.description).toBe("Adds.");
    expect(tool?.function.parameters).toEqual(number(10));
  });

  it("enumerates the commands every turn when getSnapshot throws, so a command added is seen", () => {
    const { commands, count } = counted({ add: { input: number(5) } });
    const { component, schema } = mutable(commands);
    component.getSnapshot = () => {
      throw new Error("no state yet");
    };
    const tools = igniteTools(component, openai);
    tools.toToolDefs();
    const before = count.keys;
    schema.commands.reset = {};
    expect(names(tools.toToolDefs())).toEqual(["add", "reset"]);
    expect(count.keys).toBeGreaterThan(before);
  });
});

describe("the schema cache stays bounded", () => {
  it("keeps at most MAX_CONTENT_ENTRIES schemas by content for a schema that changes every turn", async () => {
    const validator = ajvValidator();
    let turn = 0;
    const tools = igniteTools(
      {
        // A new schema, new by content too, every time it is read.
        getSchema: () => ({ commands: { add: { input: number(turn) } } }),
        execute: () => ({ state: null, events: [] }),
      },
      undefined,
      { validator },
    );
    for (turn = 1; turn <= MAX_CONTENT_ENTRIES + 200; turn++) {
      const result = await tools.invoke({ name: "add", input: { by: 0 } });
      expect(result.ok).toBe(true);
    }
    expect(contentEntries(validator)).toBeLessThanOrEqual(MAX_CONTENT_ENTRIES);
    expect(contentEntries(validator)).toBeGreaterThan(MAX_CONTENT_ENTRIES / 2);
  }, 60_000);
});
