import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import {
  type AgentComponent,
  fakeDialect,
  igniteTools,
  type LiveChange,
  observe,
  type ToolWarning,
  until,
  waitTool,
} from "../../tools/index.js";
import { type OvenEvent, type OvenState, oven } from "./oven.js";

type Change = LiveChange<OvenState, OvenEvent>;

describe("observe", () => {
  it("hears a change from outside with the snapshot it led to, and no call", () => {
    const { component, world } = oven();
    const tools = igniteTools(component);
    const heard: Change[] = [];
    observe(tools, (change) => heard.push(change));

    world.openDoor();

    expect(heard).toEqual([
      {
        snapshot: { temperature: 20, preheated: false, door: "open" },
        event: { type: "doorOpened" },
      },
    ]);
  });

  it("names the call whose command was running when a change happened", async () => {
    const { component } = oven();
    const tools = igniteTools(component);
    const heard: Change[] = [];
    observe(tools, (change) => heard.push(change));

    const call = { id: "call_1", name: "preheat", input: { target: 180 } };
    await tools.invoke(call);

    expect(heard).toHaveLength(1);
    expect(heard[0]?.snapshot.temperature).toBe(180);
    expect(heard[0]?.call).toMatchObject({ id: "call_1", name: "preheat" });
  });

  it("reports a repeated notification whose snapshot did not change as nothing", () => {
    const { component, world } = oven();
    const tools = igniteTools(component);
    const heard: Change[] = [];
    observe(tools, (change) => heard.push(change));

    world.notify();
    world.notify();
    world.preheated();
    world.notify();

    expect(heard.map((change) => change.event?.type ?? "state")).toEqual(["preheated"]);
  });

  it("gives every listener every change once, in the order they happened, even when a listener causes one", () => {
    const { component, world } = oven();
    const tools = igniteTools(component);
    const first: string[] = [];
    const second: string[] = [];
    observe(tools, (change) => {
      first.push(change.event?.type ?? "state");
      // Reacting to a change with another: everyone hears the first before the second.
      if (change.event?.type === "doorOpened") world.closeDoor();
    });
    observe(tools, (change) => second.push(change.event?.type ?? "state"));

    world.openDoor();

    expect(first).toEqual(["doorOpened", "doorClosed"]);
    expect(second).toEqual(["doorOpened", "doorClosed"]);
  });

  it("isolates a listener that throws: it is reported and the others still hear the change", () => {
    const { component, world } = oven();
    const warnings: ToolWarning[] = [];
    const tools = igniteTools(component, undefined, { onWarning: (w) => warnings.push(w) });
    const heard: string[] = [];
    observe(tools, () => {
      throw new Error("listener bug");
    });
    observe(tools, (change) => heard.push(change.event?.type ?? "state"));

    expect(() => world.openDoor()).not.toThrow();

    expect(heard).toEqual(["doorOpened"]);
    expect(warnings).toEqual([
      {
        code: "observer-threw",
        message: "A listener of observe() threw (listener bug); the others heard the change.",
      },
    ]);
  });

  it("holds a subscription to the component only while someone observes", () => {
    const { component, world } = oven();
    const tools = igniteTools(component);
    expect(world.held()).toBe(0);

    const stopOne = observe(tools, () => undefined);
    const stopTwo = observe(tools, () => undefined);
    expect(world.held()).toBe(2); // one subscribe and one onEvent, shared by both listeners
    stopOne();
    stopOne(); // a second stop does nothing
    expect(world.held()).toBe(2);
    stopTwo();
    expect(world.held()).toBe(0);
  });

  it("is a TypeError for a listener that is not a function, and subscribes to nothing", () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    expect(() => observe(tools, "log" as never)).toThrow(
      new TypeError('observe: listener must be a function, not "log" (a string)'),
    );
    expect(world.held()).toBe(0);
  });

  it("throws what the component's onEvent throws, and leaves its subscribe released", () => {
    const { component, world } = oven();
    const tools = igniteTools({
      ...component,
      onEvent: () => {
        throw new Error("no events here");
      },
    });

    expect(() => observe(tools, () => undefined)).toThrow("no events here");
    expect(world.held()).toBe(0);
  });

  it("is a TypeError on a component that cannot report its state", () => {
    const tools = igniteTools({
      getSchema: () => ({ commands: {} }),
      execute: () => ({ state: 0, events: [] }),
      subscribe: () => () => undefined,
    });

    expect(() => observe(tools, () => undefined)).toThrow(
      new TypeError(
        "observe needs a component with subscribe() and getSnapshot(): it cannot see the state without them",
      ),
    );
  });

  it("reports a getSnapshot that throws, and still delivers the event with the last snapshot it read", () => {
    const { component, world } = oven();
    let broken = false;
    const warnings: ToolWarning[] = [];
    const tools = igniteTools(
      {
        ...component,
        getSnapshot: () => {
          if (broken) throw new Error("store gone");
          return component.getSnapshot?.() as OvenState;
        },
      },
      undefined,
      { onWarning: (w) => warnings.push(w) },
    );
    const heard: string[] = [];
    observe(tools, ({ event, snapshot }) => heard.push(`${event?.type} ${snapshot.door}`));

    broken = true;
    world.openDoor();
    broken = false;
    world.closeDoor();

    expect(heard).toEqual(["doorOpened closed", "doorClosed closed"]);
    expect(warnings.map((w) => w.code)).toEqual(["getSnapshot-threw"]);
  });
});

describe("until", () => {
  it("resolves at once with the state now when it already matches, and holds nothing after", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    const change = await until(tools, ({ snapshot }) => snapshot.door === "closed");

    expect(change).toEqual({ snapshot: { temperature: 20, preheated: false, door: "closed" } });
    expect(world.held()).toBe(0);
  });

  it("resolves with the first change that matches", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    const waiting = until(tools, ({ event }) => event?.type === "preheated");
    world.openDoor();
    world.preheated();
    world.closeDoor();

    expect(await waiting).toEqual({
      snapshot: { temperature: 20, preheated: true, door: "open" },
      event: { type: "preheated" },
    });
    expect(world.held()).toBe(0);
  });

  it("rejects with an AbortError when its signal aborts, and releases its subscription", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);
    const controller = new AbortController();

    const waiting = until(tools, ({ snapshot }) => snapshot.preheated, {
      signal: controller.signal,
    });
    expect(world.held()).toBe(2);
    controller.abort(new Error("user left"));

    await expect(waiting).rejects.toMatchObject({
      name: "AbortError",
      message: "until: aborted before anything matched",
      cause: new Error("user left"),
    });
    expect(world.held()).toBe(0);
  });

  it("rejects at once when its signal has already aborted", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    await expect(until(tools, () => true, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(world.held()).toBe(0);
  });

  it("rejects with a TimeoutError after timeoutMs, and releases its subscription", async () => {
    vi.useFakeTimers();
    try {
      const { component, world } = oven();
      const tools = igniteTools(component);
      const waiting = until(tools, ({ snapshot }) => snapshot.preheated, { timeoutMs: 5_000 });
      const settled = expect(waiting).rejects.toMatchObject({
        name: "TimeoutError",
        message: "until: nothing matched within 5000 ms",
      });

      await vi.advanceTimersByTimeAsync(5_000);

      await settled;
      expect(world.held()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with what match throws, and releases its subscription", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    const waiting = until(tools, ({ event }) => {
      if (event) throw new Error("bad match");
      return false;
    });
    world.openDoor();

    await expect(waiting).rejects.toThrow("bad match");
    expect(world.held()).toBe(0);
  });

  it("rejects a match that is not a function and a timeout that is not a duration", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component);

    await expect(until(tools, "open" as never)).rejects.toThrow(
      new TypeError('until: match must be a function, not "open" (a string)'),
    );
    await expect(until(tools, () => false, { timeoutMs: -1 })).rejects.toThrow(
      new TypeError(
        "until: timeoutMs must be a number of milliseconds from 0 up (Infinity for none), not -1",
      ),
    );
    expect(world.held()).toBe(0);
  });

  it("rejects with a TypeError on a component that cannot report its state", async () => {
    const tools = igniteTools({
      getSchema: () => ({ commands: {} }),
      execute: () => ({ state: 0, events: [] }),
    });

    await expect(until(tools, () => true)).rejects.toThrow(TypeError);
  });

  it("leaves nothing behind after 10 000 cycles of observe and until", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const { component, world } = oven();
    const tools = igniteTools(component);
    const cycle = async () => {
      observe(tools, () => undefined)();
      const waiting = until(tools, ({ event }) => event?.type === "doorOpened");
      world.openDoor();
      await waiting;
      await until(tools, () => true, { timeoutMs: 60_000 });
      world.closeDoor();
    };
    for (let index = 0; index < 1_000; index++) await cycle();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 10_000; index++) await cycle();
    gc();
    const grown = process.memoryUsage().heapUsed - before;

    expect(world.held()).toBe(0);
    // Anything kept per cycle would be at least 100 bytes × 10 000.
    expect(grown).toBeLessThan(1_000_000);
  });
});

describe("the wait tool", () => {
  const declared = (component: AgentComponent<OvenState, OvenEvent>) =>
    igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 30_000 }) });

  it("is declared with the events and gated commands it may wait for, and the bound", () => {
    const tools = declared(oven().component);

    const wait = tools.manifest().find((tool) => tool.name === "waitFor");

    expect(wait).toMatchObject({
      title: "Wait",
      readOnly: true,
      idempotent: true,
      inputSchema: {
        type: "object",
        properties: {
          event: { type: "string", enum: ["preheated", "doorOpened", "doorClosed", "baking"] },
          available: { type: "string", enum: ["bake"] },
          seconds: { type: "number", minimum: 0, maximum: 30 },
        },
        additionalProperties: false,
      },
    });
  });

  it("answers with the event, the snapshot and the commands available now", async () => {
    const { component, world } = oven();
    const tools = declared(component);

    const waiting = tools.invoke({ name: "waitFor", input: { event: "preheated" } });
    await Promise.resolve();
    world.preheated();

    expect(await waiting).toEqual({
      ok: true,
      value: {
        waited: 'The event "preheated" happened.',
        snapshot: { temperature: 20, preheated: true, door: "closed" },
        events: [{ type: "preheated" }],
        available: ["bake", "preheat"],
      },
    });
  });

  it("answers at once when the command it waits for is already available", async () => {
    const { component, world } = oven();
    world.preheated();
    const tools = declared(component);

    const answer = await tools.invoke({ name: "waitFor", input: { available: "bake" } });

    expect(answer).toMatchObject({ ok: true, value: { waited: '"bake" is available now.' } });
  });

  it("answers a wait that ran out with what it waited for, and never lasts past its bound", async () => {
    vi.useFakeTimers();
    try {
      const { component } = oven();
      const tools = declared(component);
      let answer: unknown;
      // The model asks for more than the application allows: it waits the application's 30 s.
      void tools
        .invoke({ name: "waitFor", input: { event: "preheated", available: "bake", seconds: 30 } })
        .then((value) => {
          answer = value;
        });

      await vi.advanceTimersByTimeAsync(29_999);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);

      expect(answer).toEqual({
        ok: true,
        value: {
          waited:
            'Nothing you waited for happened within 30 s (you waited for the event "preheated" or "bake" to become available).',
          snapshot: { temperature: 20, preheated: false, door: "closed" },
          events: [],
          available: ["preheat"],
        },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses to wait longer than the bound the application set", async () => {
    const tools = declared(oven().component);

    const answer = await tools.invoke({ name: "waitFor", input: { seconds: 31 } });

    expect(answer).toMatchObject({ ok: false, error: { kind: "InvalidInput" } });
  });

  it("does not hold up the calls made after it", async () => {
    const { component, world } = oven();
    const tools = declared(component);

    const results = tools.handleToolCalls({
      toolCalls: [
        { id: "1", name: "waitFor", input: { event: "preheated" } },
        { id: "2", name: "preheat", input: { target: 200 } },
      ],
    });
    // The preheat ran while the wait waits; the thermostat then reports.
    await vi.waitFor(() => expect(world.held()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(component.getSnapshot?.().temperature).toBe(200);
    world.preheated();

    const blocks = await results;
    expect(blocks.map((block) => [block.id, block.ok])).toEqual([
      ["1", true],
      ["2", true],
    ]);
    expect(world.held()).toBe(0);
  });

  it("is cancelled by the call's signal, answered as a cancelled call that changed nothing", async () => {
    const { component, world } = oven();
    const tools = declared(component);
    const controller = new AbortController();

    const waiting = tools.invoke({ name: "waitFor", input: {} }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();

    expect(await waiting).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "cancelled",
        message: 'Command "waitFor" failed: was cancelled while it waited; waiting changes nothing',
      },
    });
    expect(world.held()).toBe(0);
  });

  it("answers ExecuteFailed when the component's state cannot be read while it waits", async () => {
    const { component, world } = oven();
    let broken = false;
    const tools = igniteTools(
      {
        ...component,
        getSnapshot: () => {
          if (broken) throw new Error("store gone");
          return component.getSnapshot?.() as OvenState;
        },
      },
      fakeDialect,
      { wait: waitTool({ maxMs: 1_000 }) },
    );

    broken = true;
    const before = await tools.invoke({ name: "waitFor", input: {} });
    broken = false;
    const waiting = tools.invoke({ name: "waitFor", input: {} });
    await Promise.resolve();
    broken = true;
    world.openDoor(); // heard with the last snapshot read; the answer's own read then fails

    for (const answer of [before, await waiting]) {
      expect(answer).toMatchObject({
        ok: false,
        error: {
          kind: "ExecuteFailed",
          reason: "threw",
          message: 'Command "waitFor" failed: store gone',
        },
      });
    }
    broken = false;
    expect(world.held()).toBe(0);
  });

  it("waits for any change when it is told of nothing in particular", async () => {
    const { component, world } = oven();
    const tools = declared(component);

    const waiting = tools.invoke({ name: "waitFor", input: {} });
    await Promise.resolve();
    world.openDoor();

    expect(await waiting).toMatchObject({
      ok: true,
      value: { waited: 'The event "doorOpened" happened.', events: [{ type: "doorOpened" }] },
    });
  });

  it("keeps what it says of the wait when the application projects results", async () => {
    const { component, world } = oven();
    world.preheated();
    const tools = igniteTools(component, fakeDialect, {
      wait: waitTool({ maxMs: 1_000 }),
      project: ({ snapshot, events }) => ({ snapshot: { door: snapshot.door }, events }),
    });

    const [block] = await tools.handleToolCalls({
      toolCalls: [{ id: "1", name: "waitFor", input: { available: "bake" } }],
    });

    expect(block).toEqual({
      id: "1",
      name: "waitFor",
      ok: true,
      waited: '"bake" is available now.',
      snapshot: { door: "closed" },
      events: [],
      available: ["bake", "preheat"],
    });
  });

  it("is refused at construction when it cannot work", () => {
    const plain = {
      getSchema: () => ({ commands: { waitFor: {} } }),
      execute: () => ({ state: 0, events: [] }),
    };
    expect(() => igniteTools(plain, undefined, { wait: waitTool({ maxMs: 1_000 }) })).toThrow(
      "igniteTools: wait needs a component with subscribe() and getSnapshot(): without them nothing can be waited for",
    );
    const live = { ...plain, subscribe: () => () => undefined, getSnapshot: () => 0 };
    expect(() => igniteTools(live, undefined, { wait: waitTool({ maxMs: 1_000 }) })).toThrow(
      'igniteTools: getSchema() threw: the wait tool is named "waitFor", as a command is: give waitTool({ name }) a name of its own',
    );
    expect(() => igniteTools(live, undefined, { wait: waitTool({ maxMs: 0 }) })).toThrow(
      "waitTool: maxMs must be a whole number from 1 to 2147483647, not 0",
    );
    expect(() =>
      igniteTools(live, undefined, { wait: waitTool({ maxMs: 1_000, name: "wait for" }) }),
    ).toThrow(
      'waitTool: name must be a tool name (a letter or _, then letters, digits, _ and -, at most 64), not "wait for" (a string)',
    );
    expect(
      igniteTools(live, undefined, { wait: waitTool({ maxMs: 1_000, name: "idle" }) })
        .manifest()
        .map((tool) => tool.name),
    ).toEqual(["idle", "waitFor"]);
  });
});
