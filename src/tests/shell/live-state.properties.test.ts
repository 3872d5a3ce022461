import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentComponent, igniteTools, observe, waitTool } from "../../tools/index.js";
import { oven } from "./oven.js";

interface Counter {
  readonly n: number;
}
type Ping = { type: "ping"; n: number };

/**
 * A store whose every change is written to `log` as it is made — the truth `observe` is checked
 * against. `bump` changes the state, `ping` emits an event (and changes the state), `repeat`
 * notifies with nothing changed; a call does one of them, at once or after a few ticks.
 */
function store() {
  let state: Counter = { n: 0 };
  const log: string[] = [];
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: Ping) => void>();
  const bump = () => {
    state = { n: state.n + 1 };
    log.push(`state ${state.n}`);
    for (const listener of [...listeners]) listener();
  };
  const ping = () => {
    state = { n: state.n + 1 };
    const event: Ping = { type: "ping", n: state.n };
    log.push(`ping ${state.n}`);
    for (const listener of [...eventListeners]) listener(event);
    for (const listener of [...listeners]) listener();
  };
  const repeat = () => {
    for (const listener of [...listeners]) listener();
  };
  const component: AgentComponent<Counter, Ping> = {
    getSchema: () => ({
      commands: {
        act: {
          input: {
            type: "object",
            properties: { what: { enum: ["bump", "ping"] }, ticks: { type: "integer" } },
            required: ["what", "ticks"],
          },
        },
      },
    }),
    async execute(_command, input) {
      const { what, ticks } = input as { what: "bump" | "ping"; ticks: number };
      for (let tick = 0; tick < ticks; tick++) await Promise.resolve();
      if (what === "bump") bump();
      else ping();
      return { state, events: [] };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
  return {
    component,
    log,
    bump,
    ping,
    repeat,
    held: () => listeners.size + eventListeners.size,
  };
}

type Step =
  | { kind: "bump" | "ping" | "repeat" | "join" | "leave" }
  | { kind: "call"; what: "bump" | "ping"; ticks: number; awaited: boolean };

const steps = fc.array(
  fc.oneof(
    fc.constantFrom<Step>(
      { kind: "bump" },
      { kind: "ping" },
      { kind: "repeat" },
      { kind: "join" },
      { kind: "leave" },
    ),
    fc.record({
      kind: fc.constant("call" as const),
      what: fc.constantFrom("bump" as const, "ping" as const),
      ticks: fc.integer({ min: 0, max: 3 }),
      awaited: fc.boolean(),
    }),
  ),
  { maxLength: 40 },
);

describe("live state, whatever the interleaving", () => {
  it("observes every change exactly once and in order, each listener from the moment it joined, and leaves nothing held", async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const { component, log, bump, ping, repeat, held } = store();
        const tools = igniteTools(component);
        const whole: string[] = [];
        const stopWhole = observe(tools, ({ event, snapshot }) => {
          whole.push(`${event ? "ping" : "state"} ${snapshot.n}`);
        });
        // Listeners that join and leave along the way: each hears exactly the changes between.
        const joined: { from: number; to?: number; heard: string[]; stop: () => void }[] = [];
        const running: Promise<unknown>[] = [];
        for (const step of plan) {
          if (step.kind === "bump") bump();
          else if (step.kind === "ping") ping();
          else if (step.kind === "repeat") repeat();
          else if (step.kind === "join") {
            const heard: string[] = [];
            const stop = observe(tools, ({ event, snapshot }) => {
              heard.push(`${event ? "ping" : "state"} ${snapshot.n}`);
            });
            joined.push({ from: log.length, heard, stop });
          } else if (step.kind === "leave") {
            const open = joined.find((listener) => listener.to === undefined);
            if (open) {
              open.stop();
              open.to = log.length;
            }
          } else if (step.kind === "call") {
            const call = tools.invoke({
              name: "act",
              input: { what: step.what, ticks: step.ticks },
            });
            if (step.awaited) await call;
            else running.push(call);
          }
        }
        await Promise.all(running);

        expect(whole).toEqual(log);
        for (const listener of joined) {
          expect(listener.heard).toEqual(log.slice(listener.from, listener.to));
          listener.stop();
        }
        stopWhole();
        expect(held()).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the wait tool, whatever the timing", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("never outlives its bound, and answers with the event when it comes first", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }), // the application's bound, in seconds
        fc.option(fc.integer({ min: 0, max: 120 }), { nil: undefined }), // what the model asks
        fc.integer({ min: 1, max: 130_000 }), // when the event comes, in ms
        async (maxSeconds, asked, eventAt) => {
          vi.useFakeTimers();
          const { component, world } = oven();
          const tools = igniteTools(component, undefined, {
            wait: waitTool({ maxMs: maxSeconds * 1000 }),
          });
          const seconds = asked === undefined ? undefined : Math.min(asked, maxSeconds);
          const bound = (seconds ?? maxSeconds) * 1000;
          let answeredAt: number | undefined;
          let answer: unknown;
          const started = Date.now();
          const input =
            seconds === undefined ? { event: "preheated" } : { event: "preheated", seconds };
          void tools.invoke({ name: "waitFor", input }).then((value) => {
            answeredAt = Date.now() - started;
            answer = value;
          });
          await vi.advanceTimersByTimeAsync(0);
          if (eventAt < bound) {
            await vi.advanceTimersByTimeAsync(eventAt);
            world.preheated();
          }
          await vi.advanceTimersByTimeAsync(bound);

          expect(answeredAt).toBeDefined();
          expect(answeredAt).toBeLessThanOrEqual(bound);
          expect(answer).toMatchObject({
            ok: true,
            value: { events: eventAt < bound ? [{ type: "preheated" }] : [] },
          });
          expect(world.held()).toBe(0);
          vi.useRealTimers();
        },
      ),
      { numRuns: 100 },
    );
  });
});
