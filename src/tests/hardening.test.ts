import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AbortSignalLike,
  type AgentComponent,
  fakeDialect,
  igniteTools,
  ok,
  type RuntimeEvent,
  resolveCall,
} from "../tools/index.js";
import { Counter } from "./fixtures.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A component whose `slow` command never settles unless released. */
function hanging() {
  const pending: Array<() => void> = [];
  let executed = 0;
  const component: AgentComponent<{ executed: number }> = {
    getSchema: () => ({ commands: { slow: {}, fast: {} } }),
    execute: (command) => {
      executed++;
      if (command === "fast") return { state: { executed }, events: [] };
      return new Promise((resolve) =>
        pending.push(() => resolve({ state: { executed }, events: [] })),
      );
    },
  };
  return { component, pending, executed: () => executed };
}

/** An AbortSignal-shaped object that counts its listeners. */
function countingSignal() {
  const listeners = new Set<() => void>();
  const signal: AbortSignalLike & { listeners: Set<() => void>; abort(): void } = {
    aborted: false,
    reason: undefined,
    listeners,
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    abort() {
      (this as { aborted: boolean }).aborted = true;
      for (const listener of [...listeners]) listener();
    },
  };
  return signal;
}

describe("timeouts", () => {
  it("answers a hung execute with ExecuteFailed saying it timed out after N ms", async () => {
    vi.useFakeTimers();
    const { component } = hanging();
    const tools = igniteTools(component, undefined, { timeoutMs: 50 });
    const result = tools.invoke({ name: "slow", input: {} });
    await vi.advanceTimersByTimeAsync(50);
    expect(await result).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "timeout",
        message: expect.stringMatching(/did not finish within 50 ms.*check the state/),
      },
    });
  });

  it("moves the queue on when a call times out, so the next call does not wait forever", async () => {
    vi.useFakeTimers();
    const { component } = hanging();
    const tools = igniteTools(component, undefined, { timeoutMs: 50 });
    const slow = tools.invoke({ name: "slow", input: {} });
    const fast = tools.invoke({ name: "fast", input: {} });
    await vi.advanceTimersByTimeAsync(50);
    expect((await slow).ok).toBe(false);
    expect(await fast).toEqual(ok({ snapshot: { executed: 2 }, events: [] }));
  });

  it("clears its timer when execute finishes in time", async () => {
    vi.useFakeTimers();
    const tools = igniteTools(new Counter(), undefined, { timeoutMs: 1_000 });
    await tools.invoke({ name: "increment", input: {} });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("cancellation", () => {
  it("answers an aborted running call at once, and does not execute a call aborted before it ran", async () => {
    const { component, executed } = hanging();
    const tools = igniteTools(component);
    const controller = new AbortController();
    const running = tools.invoke({ name: "slow", input: {} }, { signal: controller.signal });
    const queued = tools.invoke({ name: "fast", input: {} }, { signal: controller.signal });
    await vi.waitFor(() => expect(executed()).toBe(1));
    controller.abort();
    expect(await running).toMatchObject({
      ok: false,
      error: { reason: "aborted", message: expect.stringMatching(/aborted while running/) },
    });
    expect(await queued).toMatchObject({
      ok: false,
      error: {
        reason: "cancelled",
        message: expect.stringMatching(/aborted before it ran; nothing was executed/),
      },
    });
    expect(executed()).toBe(1);
  });

  it("does not execute a call whose signal is already aborted", async () => {
    const counter = new Counter();
    const result = await igniteTools(counter).invoke(
      { name: "increment", input: {} },
      { signal: AbortSignal.abort() },
    );
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecuteFailed" } });
    expect(counter.calls).toEqual([]);
  });

  it("passes the signal to every call of handleToolCalls", async () => {
    const { component } = hanging();
    const tools = igniteTools(component, fakeDialect);
    const controller = new AbortController();
    const blocks = tools.handleToolCalls(
      {
        toolCalls: [
          { id: "1", name: "slow", input: {} },
          { id: "2", name: "fast", input: {} },
        ],
      },
      { signal: controller.signal },
    );
    await Promise.resolve();
    controller.abort();
    expect((await blocks).map((block) => [block.id, block.ok])).toEqual([
      ["1", false],
      ["2", false],
    ]);
  });

  it("leaves no listener behind on a signal shared by many calls", async () => {
    const signal = countingSignal();
    const tools = igniteTools(new Counter(), undefined, { timeoutMs: 10_000 });
    await Promise.all(
      Array.from({ length: 50 }, () => tools.invoke({ name: "increment", input: {} }, { signal })),
    );
    expect(signal.listeners.size).toBe(0);
  });
});

describe("input limits", () => {
  const schema = {
    commands: { save: { input: { type: "object" } }, note: { input: { type: "string" } } },
  };

  it("refuses input nested deeper than the limit before validating it", () => {
    let deep: unknown = {};
    for (let level = 0; level < 100_000; level++) deep = { deep };
    expect(resolveCall(schema, "save", deep)).toMatchObject({
      ok: false,
      error: {
        kind: "InvalidInput",
        issues: [{ keyword: "maxInputDepth", message: "nests deeper than the limit of 64 levels" }],
      },
    });
  });

  it("refuses input larger than the limit, counting UTF-8 bytes", () => {
    const big = "x".repeat(10 * 1024 * 1024);
    expect(resolveCall(schema, "note", big)).toMatchObject({
      ok: false,
      error: {
        issues: [
          {
            keyword: "maxInputBytes",
            message: "is larger than the limit of 1048576 bytes of JSON",
          },
        ],
      },
    });
    const options = { maxInputBytes: 10 };
    expect(resolveCall(schema, "note", "ééé", undefined, options).ok).toBe(true); // 6 bytes + quotes
    expect(resolveCall(schema, "note", "ééééé", undefined, options).ok).toBe(false); // 10 bytes + quotes
    expect(resolveCall(schema, "note", "😀😀", undefined, options).ok).toBe(true);
  });

  it("takes custom limits from the bridge options", async () => {
    const { component } = hanging();
    const tools = igniteTools({ ...component, getSchema: () => schema }, undefined, {
      maxInputDepth: 2,
    });
    expect(tools.resolveCall("save", { a: { b: {} } }).ok).toBe(false);
    expect(tools.resolveCall("save", { a: {} }).ok).toBe(true);
  });
});

describe("result projection", () => {
  it("shows the model a projection while invoke still returns the full observation", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, fakeDialect, {
      project: ({ snapshot, events }) => ({
        snapshot: { count: snapshot.count },
        events: events.slice(0, 1),
      }),
    });
    const [block] = await tools.handleToolCalls({
      toolCalls: [{ id: "1", name: "increment", input: { by: 2 } }],
    });
    expect(block).toEqual({
      id: "1",
      name: "increment",
      ok: true,
      snapshot: { count: 2 },
      events: [{ type: "incremented", payload: { by: 2 } }],
    });
    const full = await tools.invoke({ name: "increment", input: {} });
    expect(full.ok && full.value.snapshot).toEqual({ count: 3, limit: 10, locked: false });
  });

  it("tells the model the command ran when the projection itself throws", async () => {
    const tools = igniteTools(new Counter(), fakeDialect, {
      project: () => {
        throw new Error("summary failed");
      },
    });
    const [block] = await tools.handleToolCalls({ toolCalls: [{ name: "increment", input: {} }] });
    expect(block).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "projection",
        message: expect.stringMatching(/ran, but .*summary failed.*Do not call it again/),
      },
    });
  });

  it("types the projection's observation from the component", () => {
    igniteTools(new Counter(), fakeDialect, {
      project: (observation) => {
        const count: number = observation.snapshot.count;
        const events: RuntimeEvent[] = observation.events;
        return { snapshot: count, events };
      },
    });
  });
});

describe("exactly one answer per call", () => {
  it("answers every call of a turn in order when the schema changes mid-turn", async () => {
    let withdrawn = false;
    const component: AgentComponent<string> = {
      // The first call withdraws the second command: it is answered, as unknown, all the same.
      getSchema: () => ({ commands: { first: {}, ...(withdrawn ? {} : { second: {} }) } }),
      execute: (command) => {
        withdrawn = true;
        return { state: command, events: [] };
      },
    };
    const blocks = await igniteTools(component, fakeDialect).handleToolCalls({
      toolCalls: [
        { id: "1", name: "first", input: {} },
        { id: "2", name: "second", input: {} },
        { id: "3", name: "first", input: {} },
      ],
    });
    expect(blocks.map((block) => [block.id, block.ok ? "ok" : block.error.kind])).toEqual([
      ["1", "ok"],
      ["2", "UnknownCommand"],
      ["3", "ok"],
    ]);
  });
});
