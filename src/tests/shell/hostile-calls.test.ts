import { describe, expect, it } from "vitest";
import {
  type AgentComponent,
  type AgentSchema,
  type FakeResponse,
  type FakeResultBlock,
  fakeDialect,
  igniteTools,
  type NeutralToolCall,
  ok,
  type RuntimeEvent,
  resolveCall,
  type ToolBridge,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

/** A component with one command `set` taking `{ n: 1..5 }`, recording what execute received. */
function recorder(execute?: (input: unknown) => unknown) {
  const received: unknown[] = [];
  const component: AgentComponent<number> = {
    getSchema: () => ({
      commands: {
        set: {
          input: {
            type: "object",
            properties: { n: { type: "integer", minimum: 1, maximum: 5 } },
            required: ["n"],
          },
        },
      },
    }),
    execute: async (_command, input) => {
      received.push(input);
      await execute?.(input);
      return { state: received.length, events: [] };
    },
  };
  return { component, received };
}

describe("a hostile call object is answered as a value and never poisons the queue", () => {
  it("answers a call whose name getter throws, and runs the next call as usual", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter);
    const hostile = {
      get name(): string {
        throw new Error("no name for you");
      },
      input: {},
    };
    expect(await tools.invoke(hostile)).toMatchObject({
      ok: false,
      error: { kind: "UnknownCommand" },
    });
    expect(await tools.invoke({ name: "increment", input: { by: 2 } })).toMatchObject({ ok: true });
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
  });

  it("answers a proxy call whose every trap throws, and keeps later calls running", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, fakeDialect);
    const trap = () => {
      throw new Error("trap");
    };
    const proxy = new Proxy({}, { get: trap, has: trap, ownKeys: trap }) as NeutralToolCall;
    const results = await Promise.all([
      tools.invoke(proxy),
      tools.invoke({ name: "increment", input: {} }),
      tools.invoke(proxy, { signal: new AbortController().signal }),
      tools.invoke({ name: "increment", input: {} }),
    ]);
    expect(results.map((result) => result.ok)).toEqual([false, true, false, true]);
    expect(counter.calls).toHaveLength(2);
  });

  it("reads a call's name once, so a name that changes between reads cannot switch commands", async () => {
    const counter = new Counter();
    counter.state.count = 3; // reset is available
    let reads = 0;
    const shifty = {
      get name() {
        return reads++ === 0 ? "increment" : "reset";
      },
      input: {},
    };
    await igniteTools(counter).invoke(shifty);
    expect(reads).toBe(1);
    expect(counter.calls.map((call) => call.command)).toEqual(["increment"]);
  });
});

describe("execute receives exactly the validated value, as a plain JSON snapshot", () => {
  it("passes the value validation saw, not what a getter returns once execute runs", async () => {
    let running = false;
    const seen: unknown[] = [];
    const tools = igniteTools({
      getSchema: () => ({
        commands: { set: { input: { type: "object", properties: { n: { maximum: 5 } } } } },
      }),
      execute: (_command: string, input?: unknown) => {
        running = true;
        seen.push((input as { n: unknown }).n);
        return { state: null, events: [] };
      },
    });
    const input = {
      get n() {
        return running ? 500 : 3; // valid while it is checked, out of range once it runs
      },
    };
    expect((await tools.invoke({ name: "set", input })).ok).toBe(true);
    expect(seen).toEqual([3]);
  });

  it("passes a copy the caller cannot change while execute is still running", async () => {
    let seenLater: unknown;
    const { component, received } = recorder(async (value) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seenLater = structuredClone(value);
    });
    const input = { n: 2 };
    const pending = igniteTools(component).invoke({ name: "set", input });
    await new Promise((resolve) => setTimeout(resolve, 1));
    input.n = 99;
    await pending;
    expect(received[0]).not.toBe(input);
    expect(seenLater).toEqual({ n: 2 });
  });

  it("passes a plain object, not the proxy the caller sent", async () => {
    const { component, received } = recorder();
    const target = { n: 4 };
    let gets = 0;
    const proxy = new Proxy(target, {
      get(object, key, receiver) {
        if (key === "n") gets++;
        return Reflect.get(object, key, receiver);
      },
    });
    await igniteTools(component).invoke({ name: "set", input: proxy });
    expect(received).toEqual([{ n: 4 }]);
    const [value] = received;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    const before = gets;
    JSON.stringify(value);
    expect(gets).toBe(before); // reading what execute got never reaches the caller's proxy
  });

  it("passes input as JSON carries it: toJSON applied, undefined left out, __proto__ a plain key", async () => {
    const received: unknown[] = [];
    const tools = igniteTools({
      getSchema: () => ({ commands: { note: { input: { type: "object" } } } }),
      execute: (_command, input) => {
        received.push(input);
        return { state: null, events: [] };
      },
    });
    const input = JSON.parse('{"__proto__": {"polluted": true}, "list": [1]}');
    Object.assign(input, {
      when: new Date("2026-01-02T03:04:05Z"),
      label: new String("lamp"),
      gone: undefined,
      fn: () => 1,
      holes: [undefined, () => 1, Symbol("no")],
      [Symbol("hidden")]: "not JSON",
    });
    await tools.invoke({ name: "note", input });
    expect(received).toEqual([JSON.parse(JSON.stringify(input))]);
    expect(received).toEqual([
      JSON.parse(
        '{"__proto__": {"polluted": true}, "list": [1], "when": "2026-01-02T03:04:05.000Z", "label": "lamp", "holes": [null, null, null]}',
      ),
    ]);
    expect(Object.hasOwn(received[0] as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("copies no key a polluted Object.prototype makes enumerable", async () => {
    const { component, received } = recorder();
    const prototype = Object.prototype as Record<string, unknown>;
    Object.defineProperty(prototype, "injected", {
      value: { admin: true },
      enumerable: true,
      configurable: true,
    });
    try {
      await igniteTools(component).invoke({ name: "set", input: { n: 1 } });
    } finally {
      delete prototype.injected;
    }
    expect(Object.keys(received[0] as object)).toEqual(["n"]);
  });

  it("answers InvalidInput when reading the input throws, and does not execute", async () => {
    const { component, received } = recorder();
    const input = {
      get n(): number {
        throw new Error("gone");
      },
    };
    expect(await igniteTools(component).invoke({ name: "set", input })).toMatchObject({
      ok: false,
      error: { kind: "InvalidInput" },
    });
    expect(received).toEqual([]);
  });
});

describe("a schema that cannot be read is the application's fault", () => {
  /** A schema whose `commands` getter throws once the component has been checked. */
  function brokenLater() {
    let broken = false;
    const schema = {
      get commands(): AgentSchema["commands"] {
        if (broken) throw new Error("commands unavailable");
        return { go: {} };
      },
    };
    const component: AgentComponent = {
      getSchema: () => schema,
      execute: () => ({ state: null, events: [] }),
    };
    return { component, schema, breakIt: () => (broken = true) };
  }

  it("answers ExecuteFailed (schema), not InvalidInput, when the commands getter throws", async () => {
    const { component, breakIt } = brokenLater();
    const tools = igniteTools(component);
    breakIt();
    expect(await tools.invoke({ name: "go", input: {} })).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "schema",
        message: expect.stringContaining("bug in the application, not in your call"),
      },
    });
  });

  it("says the same from the pure resolveCall", () => {
    const { schema, breakIt } = brokenLater();
    breakIt();
    expect(resolveCall(schema, "go", {})).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "schema" },
    });
  });
});

describe("an invoke from inside execute is answered, never left waiting for itself", () => {
  it("answers an invoke made from inside execute with ExecuteFailed (reentrant)", async () => {
    const inner: unknown[] = [];
    let tools: ToolBridge<number, RuntimeEvent> | undefined;
    const component: AgentComponent<number> = {
      getSchema: () => ({ commands: { outer: {}, inner: {} } }),
      execute: async (command) => {
        if (command === "outer") inner.push(await tools?.invoke({ name: "inner", input: {} }));
        return { state: inner.length, events: [] };
      },
    };
    tools = igniteTools(component);
    // Without the check this never settles: outer waits for inner, queued behind outer.
    expect(await tools.invoke({ name: "outer", input: {} })).toEqual(
      ok({ snapshot: 1, events: [] }),
    );
    expect(inner).toMatchObject([
      {
        ok: false,
        error: {
          kind: "ExecuteFailed",
          reason: "reentrant",
          message: expect.stringContaining("from inside execute()"),
        },
      },
    ]);
  });

  it("answers every call of a handleToolCalls made from inside execute, and the outer call completes", async () => {
    let inner: Promise<FakeResultBlock[]> | undefined;
    let handle: ((response: FakeResponse) => Promise<FakeResultBlock[]>) | undefined;
    const component: AgentComponent<null> = {
      getSchema: () => ({ commands: { outer: {}, inner: {} } }),
      execute: (command) => {
        if (command === "outer")
          inner = handle?.({ toolCalls: [{ id: "i", name: "inner", input: {} }] });
        return { state: null, events: [] };
      },
    };
    const tools = igniteTools(component, fakeDialect);
    handle = tools.handleToolCalls;
    const [outer] = await tools.handleToolCalls({
      toolCalls: [{ id: "o", name: "outer", input: {} }],
    });
    expect(outer).toMatchObject({ ok: true });
    expect(await inner).toMatchObject([{ id: "i", ok: false, error: { reason: "reentrant" } }]);
  });

  it("still queues calls made from outside while an execute is running", async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const tools = igniteTools({
      getSchema: () => ({ commands: { slow: {}, fast: {} } }),
      execute: async (command: string) => {
        order.push(`start ${command}`);
        if (command === "slow") await new Promise<void>((resolve) => (release = resolve));
        order.push(`end ${command}`);
        return { state: null, events: [] };
      },
    });
    const slow = tools.invoke({ name: "slow", input: {} });
    await Promise.resolve();
    await Promise.resolve();
    const fast = tools.invoke({ name: "fast", input: {} });
    release();
    expect((await Promise.all([slow, fast])).map((result) => result.ok)).toEqual([true, true]);
    expect(order).toEqual(["start slow", "end slow", "start fast", "end fast"]);
  });
});
