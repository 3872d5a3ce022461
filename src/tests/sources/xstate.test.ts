import { type AgentComponent, igniteTools, observe, waitTool } from "ignite-element/tools";
import { type EventCommands, fromActor } from "ignite-element/tools/xstate";
import { describe, expect, expectTypeOf, it } from "vitest";
import { and, assign, createActor, emit, setup } from "xstate";

type AccountEvent =
  | { type: "deposit"; amount: number }
  | { type: "withdraw"; amount: number }
  | { type: "freeze"; reason: string }
  | { type: "close" }
  | { type: "audit" };

/**
 * A bank account: `withdraw` reads its payload (no more than the balance), `freeze` reads only
 * the context (only while there is money), `close` ends the machine, `audit` is internal.
 */
const accountMachine = setup({
  types: {
    context: {} as { balance: number; frozen: boolean },
    events: {} as AccountEvent,
    emitted: {} as { type: "moved"; by: number },
  },
  guards: {
    covered: ({ context, event }) => event.type === "withdraw" && event.amount <= context.balance,
    funded: ({ context }) => context.balance > 0,
  },
}).createMachine({
  initial: "open",
  context: { balance: 0, frozen: false },
  states: {
    open: {
      on: {
        deposit: {
          actions: [
            assign({ balance: ({ context, event }) => context.balance + event.amount }),
            emit(({ event }) => ({ type: "moved" as const, by: event.amount })),
          ],
        },
        withdraw: {
          guard: and(["funded", "covered"]),
          actions: [
            assign({ balance: ({ context, event }) => context.balance - event.amount }),
            emit(({ event }) => ({ type: "moved" as const, by: -event.amount })),
          ],
        },
        freeze: { guard: "funded", actions: assign({ frozen: true }) },
        close: { target: "closed" },
        audit: { actions: assign({ frozen: false }) },
      },
    },
    closed: { type: "final" },
  },
});

const amount = {
  type: "object",
  properties: { amount: { type: "integer", minimum: 1 } },
  required: ["amount"],
  additionalProperties: false,
} as const;

const accountCommands: EventCommands<AccountEvent> = {
  deposit: { description: "Pay money in.", input: amount },
  withdraw: { description: "Take money out; no more than the balance.", input: amount },
  freeze: {
    description: "Freeze the account.",
    input: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  },
  close: { description: "Close the account for good.", destructive: true },
};

function account() {
  const actor = createActor(accountMachine).start();
  return { actor, tools: igniteTools(fromActor(actor, accountCommands)) };
}

const offered = (tools: { manifest(): readonly { name: string }[] }) =>
  tools.manifest().map((tool) => tool.name);

describe("fromActor: what is offered is what the machine takes now", () => {
  it("offers a declared event only while the current state takes it, and never an undeclared one", async () => {
    const { tools } = account();
    expect(offered(tools)).toEqual(["close", "deposit"]);

    await tools.invoke({ name: "deposit", input: { amount: 50 } });

    expect(offered(tools)).toEqual(["close", "deposit", "freeze", "withdraw"]);
    const audit = await tools.invoke({ name: "audit", input: {} });
    expect(!audit.ok && audit.error.kind).toBe("UnknownCommand");
  });

  it("decides before the call a guard that reads only the context, even for an event with a payload", async () => {
    const { tools } = account();
    // `freeze` takes a reason, but its guard reads only the balance: nothing to wait for.
    expect(offered(tools)).not.toContain("freeze");
    const early = await tools.invoke({ name: "freeze", input: { reason: "lost card" } });
    expect(!early.ok && early.error.kind).toBe("Unavailable");

    await tools.invoke({ name: "deposit", input: { amount: 5 } });
    expect(offered(tools)).toContain("freeze");
  });

  it("offers an event whose guard reads the payload, and refuses a payload the machine will not take without sending it", async () => {
    const { actor, tools } = account();
    // `withdraw` needs money first (a context guard, decided now), then an amount it covers.
    expect(offered(tools)).not.toContain("withdraw");
    await tools.invoke({ name: "deposit", input: { amount: 30 } });
    expect(offered(tools)).toContain("withdraw");

    const tooMuch = await tools.invoke({ name: "withdraw", input: { amount: 31 } });
    expect(!tooMuch.ok && tooMuch.error).toMatchObject({
      kind: "ExecuteFailed",
      message:
        'Command "withdraw" failed: the machine does not take "withdraw" with this input in state "open"; nothing was sent. Change the input or use another tool',
    });
    expect(actor.getSnapshot().context.balance).toBe(30);

    const covered = await tools.invoke({ name: "withdraw", input: { amount: 30 } });
    expect(covered.ok && covered.value).toEqual({
      snapshot: { value: "open", context: { balance: 0, frozen: false } },
      events: [{ type: "moved", by: -30 }],
    });
  });

  it("offers nothing once the machine is done, and answers a call Unavailable rather than failing it", async () => {
    const { actor, tools } = account();
    const closed = await tools.invoke({ name: "close", input: {} });

    expect(closed.ok && closed.value.snapshot.value).toBe("closed");
    expect(actor.getSnapshot().status).toBe("done");
    expect(offered(tools)).toEqual([]);
    const late = await tools.invoke({ name: "deposit", input: { amount: 1 } });
    expect(!late.ok && late.error.kind).toBe("Unavailable");
  });

  it("offers nothing once the actor is stopped", async () => {
    const { actor, tools } = account();
    actor.stop();

    expect(offered(tools)).toEqual([]);
    const late = await tools.invoke({ name: "close", input: {} });
    expect(!late.ok && late.error.kind).toBe("Unavailable");
  });

  it("fails closed when a guard throws without reading the payload, and decides with the payload when it read it first", async () => {
    type Event = { type: "pick"; item: { id: number } } | { type: "jam" };
    const machine = setup({ types: { events: {} as Event } }).createMachine({
      on: {
        pick: {
          // Throws on the probe `{ type }`, because `item` is missing: it read the payload.
          guard: ({ event }) => event.type === "pick" && event.item.id > 0,
          actions: () => undefined,
        },
        jam: {
          guard: () => {
            throw new Error("sensor offline");
          },
          actions: () => undefined,
        },
      },
    });
    const actor = createActor(machine).start();
    const tools = igniteTools(
      fromActor(actor, {
        pick: {
          input: {
            type: "object",
            // Deliberately loose, so a payload can reach the guard that makes it throw.
            properties: { item: {} },
            required: ["item"],
          },
        },
        jam: {},
      }),
    );

    expect(offered(tools)).toEqual(["pick"]);
    const zero = await tools.invoke({ name: "pick", input: { item: { id: 0 } } });
    expect(!zero.ok && zero.error.message).toMatch(/does not take "pick" with this input/);
    expect((await tools.invoke({ name: "pick", input: { item: { id: 7 } } })).ok).toBe(true);
    const broken = await tools.invoke({ name: "pick", input: { item: null } });
    expect(!broken.ok && broken.error.message).toMatch(
      /^Command "pick" failed: nothing was sent: a guard of "pick" failed on this input \(Unable to evaluate guard .+ Cannot read properties of null/,
    );
  });

  it("counts a guard that looks for a payload field with `in` or lists the event's keys as reading the payload", async () => {
    type Event = { type: "tag"; label?: string } | { type: "note"; text?: string };
    const machine = setup({ types: { events: {} as Event } }).createMachine({
      on: {
        tag: { guard: ({ event }) => "label" in event, actions: () => undefined },
        note: { guard: ({ event }) => Object.keys(event).length > 1, actions: () => undefined },
      },
    });
    const open = { type: "object" } as const;
    const tools = igniteTools(
      fromActor(createActor(machine).start(), { tag: { input: open }, note: { input: open } }),
    );

    expect(offered(tools)).toEqual(["note", "tag"]);
    expect((await tools.invoke({ name: "tag", input: { label: "x" } })).ok).toBe(true);
    const bare = await tools.invoke({ name: "note", input: {} });
    expect(!bare.ok && bare.error.message).toMatch(/does not take "note" with this input/);
  });

  it("answers ExecuteFailed when an action throws, and the failed actor offers nothing", async () => {
    const jukebox = setup({
      types: { events: {} as { type: "eject" } | { type: "insert" } },
    }).createMachine({
      on: {
        eject: {
          actions: () => {
            throw new Error("the tray is stuck");
          },
        },
        insert: { actions: () => undefined },
      },
    });
    const actor = createActor(jukebox).start();
    const tools = igniteTools(fromActor(actor, { eject: {}, insert: {} }));
    expect(offered(tools)).toEqual(["eject", "insert"]);

    const ejected = await tools.invoke({ name: "eject", input: {} });

    expect(!ejected.ok && ejected.error.message).toBe('Command "eject" failed: the tray is stuck');
    expect(actor.getSnapshot().status).toBe("error");
    expect(offered(tools)).toEqual([]);
    const inserted = await tools.invoke({ name: "insert", input: {} });
    expect(!inserted.ok && inserted.error.kind).toBe("Unavailable");
  });
});

describe("fromActor: what a call observes", () => {
  it("reports only the events emitted while handling the call, not those of sends made elsewhere", async () => {
    const { actor, tools } = account();
    actor.send({ type: "deposit", amount: 80 });

    const paid = await tools.invoke({ name: "deposit", input: { amount: 20 } });

    expect(paid).toEqual({
      ok: true,
      value: {
        snapshot: { value: "open", context: { balance: 100, frozen: false } },
        events: [{ type: "moved", by: 20 }],
      },
    });
  });

  it("refuses a direct execute on an actor that is no longer running, sending nothing", () => {
    const actor = createActor(accountMachine).start();
    const component = fromActor(actor, accountCommands);
    actor.stop();

    expect(() => component.execute("deposit", { amount: 1 })).toThrow(
      'the machine is no longer running (status "stopped"); nothing was sent',
    );
  });
});

describe("fromActor: subscribe", () => {
  it("calls the listener for sends made elsewhere and for the machine finishing, until unsubscribed", () => {
    const actor = createActor(accountMachine).start();
    const component = fromActor(actor, accountCommands);
    let heard = 0;
    const unsubscribe = component.subscribe?.(() => {
      heard += 1;
    });

    actor.send({ type: "deposit", amount: 5 });
    expect(heard).toBe(1);
    actor.send({ type: "close" });
    // The done snapshot, then the completion.
    expect(heard).toBe(3);

    const again = createActor(accountMachine).start();
    const stopListening = fromActor(again, accountCommands).subscribe?.(() => {
      heard += 1;
    });
    stopListening?.();
    again.send({ type: "deposit", amount: 5 });
    expect(heard).toBe(3);
    unsubscribe?.();
  });

  it("calls the listener when the actor fails or is stopped", () => {
    const fragile = setup({ types: { events: {} as { type: "break" } } }).createMachine({
      on: {
        break: {
          actions: () => {
            throw new Error("snapped");
          },
        },
      },
    });
    const broken = createActor(fragile).start();
    const stopped = createActor(accountMachine).start();
    const heard: string[] = [];
    fromActor(broken, { break: {} }).subscribe?.(() => heard.push("broken"));
    fromActor(stopped, accountCommands).subscribe?.(() => heard.push("stopped"));

    broken.send({ type: "break" });
    stopped.stop();

    expect(heard).toEqual(["broken", "stopped"]);
    expect(broken.getSnapshot().status).toBe("error");
  });
});

describe("fromActor: the schema it declares", () => {
  it("passes each command's description, output schema and effect flags through, and gates every one", () => {
    const actor = createActor(accountMachine).start();
    const output = { type: "object", properties: { value: { type: "string" } } };
    const component = fromActor(actor, {
      close: { description: "Close.", output, destructive: true, idempotent: true },
      deposit: { input: amount, readOnly: false },
    });

    expect(component.getSchema()).toEqual({
      commands: {
        close: { description: "Close.", output, destructive: true, idempotent: true, gated: true },
        deposit: { input: amount, readOnly: false, gated: true },
      },
    });
  });

  it("gives one schema object whose commands are frozen, so a turn takes the bridge's flat path", () => {
    const component = fromActor(createActor(accountMachine).start(), {
      deposit: { input: amount },
    });
    expect(component.getSchema()).toBe(component.getSchema());
    expect(Object.isFrozen(component.getSchema().commands)).toBe(true);
  });

  it("refuses, at construction, an input schema that is not an object", () => {
    const actor = createActor(accountMachine).start();
    // @ts-expect-error an event's payload is its fields, so only object schemas are accepted
    const scalar = () => fromActor(actor, { deposit: { input: { type: "integer" } } });
    expect(scalar).toThrow(TypeError);
    expect(scalar).toThrow(/Event "deposit" has an input schema that is not \{ type: "object" \}/);
  });

  it("infers the machine's context, state value and emitted events from the actor", () => {
    const actor = createActor(accountMachine).start();
    const component = fromActor(actor, accountCommands);

    expectTypeOf(component).toExtend<
      AgentComponent<
        { context: { balance: number; frozen: boolean } },
        { type: "moved"; by: number }
      >
    >();
    // @ts-expect-error `explode` is not an event of the machine
    fromActor(actor, { explode: {} });
  });
});

describe("fromActor: live state", () => {
  it("reports what the actor emits and its new state, from a call or from outside, each once and in order", async () => {
    const actor = createActor(accountMachine).start();
    const tools = igniteTools(fromActor(actor, accountCommands, { events: ["moved"] }));
    const heard: { type: string; balance: number; during?: string }[] = [];
    observe(tools, ({ event, snapshot, call }) => {
      heard.push({
        type: event?.type ?? "state",
        balance: snapshot.context.balance,
        ...(call ? { during: call.name } : {}),
      });
    });

    await tools.invoke({ name: "deposit", input: { amount: 20 } });
    actor.send({ type: "withdraw", amount: 5 }); // another part of the app, outside any call
    actor.send({ type: "audit" }); // a transition that emits nothing

    expect(heard).toEqual([
      { type: "moved", balance: 20, during: "deposit" },
      { type: "moved", balance: 15 },
      { type: "state", balance: 15 },
    ]);
  });

  it("gives the same snapshot while the actor has not moved, and declares the emitted events for the wait tool", () => {
    const actor = createActor(accountMachine).start();
    const component = fromActor(actor, accountCommands, { events: ["moved"] });

    expect(component.getSnapshot?.()).toBe(component.getSnapshot?.());
    expect(component.getSchema().events).toEqual(["moved"]);
    const tools = igniteTools(component, undefined, { wait: waitTool({ maxMs: 1_000 }) });
    const wait = tools.manifest().find((tool) => tool.name === "waitFor");
    expect(wait?.inputSchema.properties).toMatchObject({ event: { enum: ["moved"] } });
  });

  it("lets the model wait for a command the machine will take once something outside happens", async () => {
    const actor = createActor(accountMachine).start();
    const tools = igniteTools(fromActor(actor, accountCommands), undefined, {
      wait: waitTool({ maxMs: 5_000 }),
    });

    const waiting = tools.invoke({ name: "waitFor", input: { available: "withdraw" } });
    await Promise.resolve();
    actor.send({ type: "deposit", amount: 10 });

    expect(await waiting).toMatchObject({
      ok: true,
      value: {
        waited: '"withdraw" is available now.',
        snapshot: { value: "open", context: { balance: 10 } },
        available: ["close", "deposit", "freeze", "withdraw"],
      },
    });
  });
});
