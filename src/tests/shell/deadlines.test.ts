import { afterEach, describe, expect, it, vi } from "vitest";
import { type AbortSignalLike, igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A component whose one command finishes after `ms` real milliseconds. */
function takes(ms: number) {
  return {
    getSchema: () => ({ commands: { work: {} } }),
    execute: () =>
      new Promise<{ state: string; events: [] }>((resolve) =>
        setTimeout(() => resolve({ state: "done", events: [] }), ms),
      ),
  };
}

/** A component whose one command never settles. */
const hung = {
  getSchema: () => ({ commands: { work: {} } }),
  execute: () => new Promise<never>(() => {}),
};

describe("timeoutMs means what it says at any length", () => {
  it.each([
    ["2³¹ ms, past the timers' limit", 2 ** 31],
    ["a year", 365 * 24 * 3_600_000],
    ["Infinity", Number.POSITIVE_INFINITY],
  ])("lets a call that takes 20 ms finish under a timeout of %s", async (_case, timeoutMs) => {
    const result = await igniteTools(takes(20), undefined, { timeoutMs }).invoke({
      name: "work",
      input: {},
    });
    expect(result).toMatchObject({ ok: true, value: { snapshot: "done" } });
  });

  it("times out a hung call after a timeout longer than 2³¹−1 ms, and not before", async () => {
    vi.useFakeTimers();
    const timeoutMs = 2 ** 31 + 1_000;
    let settled = false;
    const result = igniteTools(hung, undefined, { timeoutMs })
      .invoke({ name: "work", input: {} })
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await result).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "timeout" },
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds no timer at all for timeoutMs: Infinity", async () => {
    vi.useFakeTimers();
    void igniteTools(hung, undefined, { timeoutMs: Number.POSITIVE_INFINITY }).invoke({
      name: "work",
      input: {},
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([Number.NaN, -1, "5000"])(
    "refuses timeoutMs %s with a TypeError at construction",
    (timeoutMs) => {
      expect(() =>
        igniteTools(new Counter(), undefined, { timeoutMs: timeoutMs as number }),
      ).toThrow(/timeoutMs must be a number of milliseconds from 0 up/);
    },
  );
});

describe("one AbortSignal across many calls", () => {
  /** An AbortSignal-shaped object that counts its listeners, and the most it ever had. */
  function countingSignal() {
    const listeners = new Set<() => void>();
    let most = 0;
    const signal: AbortSignalLike & { abort(): void; most(): number; count(): number } = {
      aborted: false,
      reason: undefined,
      addEventListener: (_type, listener) => {
        listeners.add(listener);
        most = Math.max(most, listeners.size);
      },
      removeEventListener: (_type, listener) => listeners.delete(listener),
      abort() {
        (this as { aborted: boolean }).aborted = true;
        for (const listener of [...listeners]) listener();
      },
      most: () => most,
      count: () => listeners.size,
    };
    return signal;
  }

  it("adds at most one listener to a signal shared by 50 queued calls, and none is left after", async () => {
    const signal = countingSignal();
    const tools = igniteTools(new Counter(), undefined, { timeoutMs: 10_000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => tools.invoke({ name: "increment", input: {} }, { signal })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(signal.most()).toBe(1);
    expect(signal.count()).toBe(0);
  });

  it("emits no MaxListenersExceededWarning for 50 calls sharing one AbortController", async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on("warning", listen);
    try {
      const controller = new AbortController();
      const tools = igniteTools(takes(1));
      await Promise.all(
        Array.from({ length: 50 }, () =>
          tools.invoke({ name: "work", input: {} }, { signal: controller.signal }),
        ),
      );
      // Node emits process warnings on a later tick.
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      process.off("warning", listen);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain("MaxListenersExceededWarning");
  });

  it("still answers each of many calls sharing a signal when it aborts", async () => {
    const signal = countingSignal();
    let executed = 0;
    const tools = igniteTools({
      getSchema: () => ({ commands: { work: {} } }),
      execute: () => {
        executed++;
        return new Promise<never>(() => {});
      },
    });
    const results = Array.from({ length: 20 }, () =>
      tools.invoke({ name: "work", input: {} }, { signal }),
    );
    await vi.waitFor(() => expect(executed).toBe(1));
    signal.abort();
    const reasons = (await Promise.all(results)).map(
      (result) => !result.ok && result.error.kind === "ExecuteFailed" && result.error.reason,
    );
    expect(reasons).toEqual(["aborted", ...Array.from({ length: 19 }, () => "cancelled")]);
    expect(executed).toBe(1);
    expect(signal.count()).toBe(0);
  });
});
