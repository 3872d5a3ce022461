import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { type AgentComponent, err, igniteTools, ok, type RuntimeEvent } from "../tools/index.js";
import { Counter, single } from "./fixtures.js";

describe("igniteTools: manifest and resolveCall", () => {
  it("builds the manifest from the component's availability now", () => {
    const counter = new Counter();
    const tools = igniteTools(counter);
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["increment", "setLimit"]);
    counter.state = { ...counter.state, count: 2 };
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["increment", "reset", "setLimit"]);
  });

  it("offers every command of a component without canExecute", () => {
    const { component } = single(undefined);
    expect(
      igniteTools(component)
        .manifest()
        .map((tool) => tool.name),
    ).toEqual(["run"]);
  });

  it("checks a call against the live schema and availability without executing it", () => {
    const counter = new Counter();
    const tools = igniteTools(counter);
    expect(tools.resolveCall("setLimit", 4)).toEqual(ok({ command: "setLimit", input: 4 }));
    expect(tools.resolveCall("reset", undefined)).toMatchObject({
      ok: false,
      error: { kind: "Unavailable" },
    });
    expect(counter.calls).toEqual([]);
  });
});

describe("igniteTools: invoke", () => {
  it("executes the routed command once, with the validated input, and returns the observation", async () => {
    const counter = new Counter();
    const result = await igniteTools(counter).invoke({
      id: "c1",
      name: "increment",
      input: { by: 2 },
    });
    expect(result).toEqual(
      ok({
        snapshot: { count: 2, limit: 10, locked: false },
        events: [{ type: "incremented", payload: { by: 2 } }],
      }),
    );
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
  });

  it("passes declared defaults to execute", async () => {
    const counter = new Counter();
    await igniteTools(counter).invoke({ name: "increment", input: {} });
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 1 } }]);
  });

  it("passes input undefined to a no-argument command called with {}", async () => {
    const counter = new Counter();
    counter.state.count = 3;
    await igniteTools(counter).invoke({ name: "reset", input: {} });
    expect(counter.calls).toEqual([{ command: "reset", input: undefined }]);
  });

  it("runs a command that takes no input when the call has only its name", async () => {
    const tools = igniteTools({
      getSchema: () => ({ commands: { ping: {} } }),
      execute: (command, input) => ({ state: { command, input }, events: [] }),
    });
    expect(await tools.invoke({ name: "ping" })).toEqual(
      ok({ snapshot: { command: "ping", input: undefined }, events: [] }),
    );
  });

  it.each([
    ["an unknown command", { name: "explode", input: {} }, "UnknownCommand"],
    ["an unavailable gated command", { name: "reset", input: {} }, "Unavailable"],
    ["invalid input", { name: "setLimit", input: 99 }, "InvalidInput"],
    [
      "input the dialect could not read",
      { name: "setLimit", input: undefined, inputError: "arguments are not valid JSON" },
      "InvalidInput",
    ],
  ])("answers %s with an error value and never executes", async (_case, call, kind) => {
    const counter = new Counter();
    const result = await igniteTools(counter).invoke(call);
    expect(result).toMatchObject({ ok: false, error: { kind } });
    expect(counter.calls).toEqual([]);
  });

  it("re-checks availability at invoke: a command that became unavailable since the manifest is refused", async () => {
    const counter = new Counter();
    counter.state.count = 1;
    const tools = igniteTools(counter);
    expect(tools.manifest().some((tool) => tool.name === "reset")).toBe(true);
    counter.state.count = 0;
    const result = await tools.invoke({ name: "reset", input: {} });
    expect(result).toMatchObject({ ok: false, error: { kind: "Unavailable", name: "reset" } });
    expect(counter.calls).toEqual([]);
  });

  it.each([
    ["an Error", new Error("disk full"), /failed: disk full$/],
    ["a string", "nope", /failed: nope$/],
    ["undefined", undefined, /failed: threw undefined$/],
    ["null", null, /failed: threw null$/],
    ["an object", { code: 7 }, /failed: \{"code":7\}$/],
  ])(
    "turns execute throwing %s into ExecuteFailed with the original cause",
    async (_case, thrown, message) => {
      const component: AgentComponent = {
        getSchema: () => ({ commands: { go: {} } }),
        execute: () => {
          throw thrown;
        },
      };
      const result = await igniteTools(component).invoke({ name: "go", input: {} });
      expect(result).toMatchObject({
        ok: false,
        error: { kind: "ExecuteFailed", name: "go", cause: thrown },
      });
      expect(!result.ok && result.error.message).toMatch(message);
    },
  );

  it("turns a rejected execute promise into ExecuteFailed", async () => {
    const cause = new Error("timeout upstream");
    const component: AgentComponent = {
      getSchema: () => ({ commands: { go: {} } }),
      execute: () => Promise.reject(cause),
    };
    expect(await igniteTools(component).invoke({ name: "go", input: undefined })).toEqual(
      err({
        kind: "ExecuteFailed",
        name: "go",
        message: 'Command "go" failed: timeout upstream',
        reason: "threw",
        cause,
      }),
    );
  });

  it("never puts an error's stack in the message", async () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { go: {} } }),
      execute: () => {
        throw new Error("short");
      },
    };
    const result = await igniteTools(component).invoke({ name: "go", input: {} });
    expect(!result.ok && result.error.message).not.toMatch(/\bat /);
  });

  it("answers ExecuteFailed when getSchema throws, and does not execute", async () => {
    const execute = vi.fn();
    let checked = false; // the first read is igniteTools checking the component
    const component: AgentComponent = {
      getSchema: () => {
        if (checked) throw new Error("not ready");
        checked = true;
        return { commands: { go: {} } };
      },
      execute,
    };
    const result = await igniteTools(component).invoke({ name: "go", input: {} });
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "schema",
        message: 'Command "go" failed: getSchema() threw: not ready',
      },
    });
    expect(execute).not.toHaveBeenCalled();
  });

  it("answers a call that is not an object with UnknownCommand", async () => {
    const { component } = single(undefined);
    const result = await igniteTools(component).invoke(null as never);
    expect(result).toMatchObject({ ok: false, error: { kind: "UnknownCommand" } });
  });

  it("normalises a result without events to no events, and refuses a result that is not an object", async () => {
    let value: unknown = { state: { n: 1 } };
    const component = {
      getSchema: () => ({ commands: { go: {} } }),
      execute: () => value as { state: { n: number }; events: RuntimeEvent[] },
    };
    const tools = igniteTools(component);
    expect(await tools.invoke({ name: "go", input: {} })).toEqual(
      ok({ snapshot: { n: 1 }, events: [] }),
    );
    for (value of [undefined, null, 7]) {
      const result = await tools.invoke({ name: "go", input: {} });
      expect(result).toMatchObject({
        ok: false,
        error: { kind: "ExecuteFailed", reason: "malformed-result" },
      });
      expect(!result.ok && result.error.message).toMatch(/instead of \{ state, events \}/);
    }
    value = { state: 1, events: "incremented" };
    expect(await tools.invoke({ name: "go", input: {} })).toMatchObject({
      ok: false,
      error: {
        reason: "malformed-result",
        message: expect.stringMatching(/`events` that is not an array/),
      },
    });
  });

  it("runs concurrent invokes one at a time, in order, each observing exactly its own events", async () => {
    let running = 0;
    let overlap = false;
    let value = 0;
    const component: AgentComponent<{ value: number }, { type: "added"; payload: number }> = {
      getSchema: () => ({ commands: { add: { input: { type: "integer" } } } }),
      execute: async (_command, input) => {
        running++;
        overlap ||= running > 1;
        const by = input as number;
        await new Promise((resolve) => setTimeout(resolve, (5 - by) * 2));
        value += by;
        running--;
        return { state: { value }, events: [{ type: "added", payload: by }] };
      },
    };
    const tools = igniteTools(component);
    const results = await Promise.all(
      [1, 2, 3, 4].map((by) => tools.invoke({ name: "add", input: by })),
    );
    expect(overlap).toBe(false);
    expect(results).toEqual([
      ok({ snapshot: { value: 1 }, events: [{ type: "added", payload: 1 }] }),
      ok({ snapshot: { value: 3 }, events: [{ type: "added", payload: 2 }] }),
      ok({ snapshot: { value: 6 }, events: [{ type: "added", payload: 3 }] }),
      ok({ snapshot: { value: 10 }, events: [{ type: "added", payload: 4 }] }),
    ]);
  });

  it("runs calls one at a time in the order made, whether the component answers at once or later", async () => {
    // Each call: does the component answer synchronously, after how many ticks it answers
    // otherwise, whether it throws, and how many ticks after the previous call it is made.
    const plan = fc.array(
      fc.record({
        sync: fc.boolean(),
        ticks: fc.nat(3),
        fails: fc.boolean(),
        after: fc.nat(2),
      }),
      { minLength: 1, maxLength: 8 },
    );
    const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve));
    await fc.assert(
      fc.asyncProperty(plan, async (calls) => {
        const log: string[] = [];
        let running = false;
        const component: AgentComponent<number> = {
          getSchema: () => ({ commands: { run: { input: { type: "integer" } } } }),
          execute: (_command, input) => {
            const at = input as number;
            const call = calls[at] as (typeof calls)[number];
            expect(running).toBe(false);
            log.push(`start ${at}`);
            const finish = () => {
              log.push(`end ${at}`);
              if (call.fails) throw new Error(`call ${at} failed`);
              return { state: at, events: [] };
            };
            if (call.sync) return finish();
            running = true;
            return (async () => {
              for (let count = 0; count < call.ticks; count++) await tick();
              running = false;
              return finish();
            })();
          },
        };
        const tools = igniteTools(component);
        const answers: Promise<unknown>[] = [];
        for (const [at, call] of calls.entries()) {
          for (let count = 0; count < call.after; count++) await tick();
          answers.push(tools.invoke({ name: "run", input: at }));
        }
        const outcomes = await Promise.all(answers);
        expect(log).toEqual(calls.flatMap((_, at) => [`start ${at}`, `end ${at}`]));
        expect(outcomes).toEqual(
          calls.map((call, at) =>
            call.fails
              ? err(expect.objectContaining({ kind: "ExecuteFailed", reason: "threw" }))
              : ok({ snapshot: at, events: [] }),
          ),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("runs a call to an idle bridge before invoke returns when the component answers synchronously", async () => {
    const ran: string[] = [];
    const component: AgentComponent<number> = {
      getSchema: () => ({ commands: { quick: {}, slow: {} } }),
      execute: (command) => {
        ran.push(command);
        const result = { state: ran.length, events: [] };
        return command === "quick" ? result : Promise.resolve(result);
      },
    };
    const tools = igniteTools(component);
    const first = tools.invoke({ name: "quick", input: {} });
    expect(ran).toEqual(["quick"]);
    // A call made while another is in flight waits for it, however its component answers.
    const slow = tools.invoke({ name: "slow", input: {} });
    const quick = tools.invoke({ name: "quick", input: {} });
    expect(ran).toEqual(["quick", "slow"]);
    expect(await Promise.all([first, slow, quick])).toEqual([
      ok({ snapshot: 1, events: [] }),
      ok({ snapshot: 2, events: [] }),
      ok({ snapshot: 3, events: [] }),
    ]);
  });

  it("keeps the queue moving after a call fails", async () => {
    const component: AgentComponent<number> = {
      getSchema: () => ({ commands: { ok: {}, fail: {} } }),
      execute: async (command) => {
        if (command === "fail") throw new Error("no");
        return { state: 1, events: [] };
      },
    };
    const tools = igniteTools(component);
    const results = await Promise.all([
      tools.invoke({ name: "fail", input: {} }),
      tools.invoke({ name: "ok", input: {} }),
    ]);
    expect(results.map((result) => result.ok)).toEqual([false, true]);
  });

  it("uses the validator from the options", async () => {
    const compile = vi.fn(() => (input: unknown) => ok(input));
    const { component, received } = single({ type: "string" });
    const tools = igniteTools(component, undefined, {
      validator: { checkSchema: () => undefined, compile },
    });
    await tools.invoke({ name: "run", input: 12345 });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(received).toEqual([12345]);
  });
});
