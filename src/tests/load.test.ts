import { describe, expect, it, vi } from "vitest";
import { type AbortSignalLike, type AgentComponent, igniteTools } from "../tools/index.js";

type Added = { type: "added"; payload: number };

/** A component whose execute yields to the event loop, so concurrent calls could interleave. */
function adder() {
  let total = 0;
  const component: AgentComponent<number, Added> = {
    getSchema: () => ({ commands: { add: { input: { type: "integer" } } } }),
    execute: async (_command, input) => {
      const by = input as number;
      await Promise.resolve();
      total += by;
      return { state: total, events: [{ type: "added", payload: by }] };
    },
  };
  return component;
}

describe("load and leaks", () => {
  it("completes 1 000 concurrent invokes in submission order, each with exactly its own events", async () => {
    const tools = igniteTools(adder());
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, index) => tools.invoke({ name: "add", input: index })),
    );
    let running = 0;
    results.forEach((result, index) => {
      running += index;
      expect(result).toEqual({
        ok: true,
        value: { snapshot: running, events: [{ type: "added", payload: index }] },
      });
    });
  });

  it("leaves no timers and no abort listeners behind after 100 000 sequential invokes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let listeners = 0;
      const signal: AbortSignalLike = {
        aborted: false,
        addEventListener: () => void listeners++,
        removeEventListener: () => void listeners--,
      };
      const tools = igniteTools(adder(), undefined, { timeoutMs: 60_000 });
      for (let index = 0; index < 100_000; index++) {
        const result = await tools.invoke({ name: "add", input: 1 }, { signal });
        if (!result.ok) throw new Error(result.error.message);
      }
      expect(vi.getTimerCount()).toBe(0);
      expect(listeners).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  }, 60_000);
});
