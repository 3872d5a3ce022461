import { type AgentComponent, igniteTools, observe, until, waitTool } from "ignite-element/tools";
import { fromMobx } from "ignite-element/tools/mobx";
import {
  action,
  isObservable,
  makeAutoObservable,
  makeObservable,
  observable,
  onBecomeUnobserved,
  runInAction,
} from "mobx";
import { describe, expect, expectTypeOf, it, vi } from "vitest";

interface Order {
  dish: string;
  table: number;
}

/** Every run of a kitchen's actions, by whoever: how many times a call ran its action. */
const ran: string[] = [];

/** A kitchen: orders wait until served; a fallen soufflé fails its serving, after counting it. */
class Kitchen {
  orders: Order[] = [];
  served = 0;
  stock = 0;
  constructor() {
    makeAutoObservable(this);
  }
  get waiting() {
    return this.orders.length;
  }
  order(order: Order) {
    ran.push("order");
    this.orders.push(order);
  }
  serve() {
    ran.push("serve");
    const next = this.orders.shift();
    this.served += 1;
    if (next?.dish === "soufflé") throw new Error("the soufflé fell");
  }
  clear() {
    this.orders = [];
  }
  tick() {
    this.stock -= 1;
  }
  *restock(count: number) {
    yield Promise.resolve();
    this.stock += count;
  }
}

const order = {
  type: "object",
  properties: { dish: { type: "string", minLength: 1 }, table: { type: "integer", minimum: 1 } },
  required: ["dish", "table"],
  additionalProperties: false,
};

const kitchenOptions = {
  commands: {
    order: { description: "Take an order.", input: order },
    serve: { description: "Serve the oldest order.", gated: true },
    clear: { description: "Drop every order.", destructive: true, idempotent: true },
    restock: { description: "Buy more.", input: { type: "integer", minimum: 1 } },
  },
  canExecute: (kitchen: Kitchen, command: string) => command !== "serve" || kitchen.waiting > 0,
};

function kitchen() {
  ran.length = 0;
  const store = new Kitchen();
  const component = fromMobx(store, kitchenOptions);
  return { store, component, tools: igniteTools(component) };
}

const offered = (tools: { manifest(): readonly { name: string }[] }) =>
  tools.manifest().map((tool) => tool.name);

describe("fromMobx: commands", () => {
  it("offers the named actions, gated ones by canExecute over the store now, and runs each valid call once", async () => {
    const { store, tools } = kitchen();
    expect(offered(tools)).toEqual(["clear", "order", "restock"]);

    const invalid = await tools.invoke({ name: "order", input: { dish: "", table: 0 } });
    expect(!invalid.ok && invalid.error.kind).toBe("InvalidInput");
    expect(ran).toEqual([]);

    const taken = await tools.invoke({ name: "order", input: { dish: "soup", table: 4 } });
    expect(taken.ok && taken.value).toEqual({
      snapshot: { orders: [{ dish: "soup", table: 4 }], served: 0, stock: 0, waiting: 1 },
      events: [{ type: "order", payload: { dish: "soup", table: 4 } }],
    });
    expect(ran).toEqual(["order"]);
    expect(offered(tools)).toEqual(["clear", "order", "restock", "serve"]);

    const served = await tools.invoke({ name: "serve" });
    expect(served.ok && served.value.events).toEqual([{ type: "serve" }]);
    expect(ran).toEqual(["order", "serve"]);
    expect(store.served).toBe(1);
    const again = await tools.invoke({ name: "serve" });
    expect(!again.ok && again.error.kind).toBe("Unavailable");
    expect(ran).toEqual(["order", "serve"]);
  });

  it("answers ExecuteFailed when the action throws, reports no event for it, and MobX keeps what it changed first", async () => {
    const { store, tools } = kitchen();
    store.order({ dish: "soufflé", table: 2 });
    const heard: string[] = [];
    observe(tools, ({ event }) => heard.push(event?.type ?? "state"));

    const served = await tools.invoke({ name: "serve" });

    expect(!served.ok && served.error).toMatchObject({
      kind: "ExecuteFailed",
      reason: "threw",
      message: 'Command "serve" failed: the soufflé fell',
    });
    // MobX has no rollback: the order was taken off and counted before the action threw.
    expect(store.orders).toEqual([]);
    expect(store.served).toBe(1);
    expect(heard).toEqual(["state"]);
  });

  it("awaits an action that returns a promise (a flow), and answers with the state after it", async () => {
    const { store, tools } = kitchen();

    const restocked = await tools.invoke({ name: "restock", input: 3 });

    expect(restocked.ok && restocked.value).toEqual({
      snapshot: { orders: [], served: 0, stock: 3, waiting: 0 },
      events: [{ type: "restock", payload: 3 }],
    });
    expect(store.stock).toBe(3);
  });

  it("passes descriptions, output schemas and effect flags through, in one frozen schema that declares the events", () => {
    const store = new Kitchen();
    const output = { type: "object", required: ["orders"] };
    const component = fromMobx(store, {
      commands: { clear: { output, readOnly: false }, order: { input: order } },
      events: ["tick"],
    });

    expect(component.getSchema()).toEqual({
      commands: { clear: { output, readOnly: false }, order: { input: order } },
      events: ["clear", "order", "tick"],
    });
    expect(component.getSchema()).toBe(component.getSchema());
    expect(Object.isFrozen(component.getSchema().commands)).toBe(true);
  });

  it("refuses, at construction, a method that is not an action, a gated command without canExecute, and an event that is not an action", () => {
    class Plain {
      count = 0;
      constructor() {
        makeObservable(this, { count: observable, bump: action });
      }
      bump() {
        this.count += 1;
      }
      describe() {
        return `${this.count}`;
      }
    }
    const store = new Plain();
    expect(() => fromMobx(store, { commands: { describe: {} } })).toThrow(
      'Command "describe" is not an action of the store: mark it with `action` or `flow` in makeObservable, or use makeAutoObservable',
    );
    expect(() => fromMobx(store, { commands: { bump: { gated: true } } })).toThrow(
      'Command "bump" is gated, but no canExecute(store, command) was given',
    );
    expect(() => fromMobx(store, { commands: {}, events: ["describe"] })).toThrow(
      'Event "describe" is not an action of the store',
    );
    // @ts-expect-error `explode` is not a method of the store
    expect(() => fromMobx(store, { commands: { explode: {} } })).toThrow(TypeError);
  });

  it("refuses a direct execute of a method that is not a command", () => {
    const { component } = kitchen();
    expect(() => component.execute("tick")).toThrow('the store has no command "tick"');
  });

  it("wraps a plain observable object, its computed values in the snapshot", async () => {
    const counter = observable({
      count: 1,
      get double() {
        return this.count * 2;
      },
      add(by: number) {
        this.count += by;
      },
    });
    const tools = igniteTools(
      fromMobx(counter, { commands: { add: { input: { type: "integer" } } } }),
    );
    const heard: unknown[] = [];
    observe(tools, ({ event, snapshot, call }) =>
      heard.push({ event, snapshot, call: call?.name }),
    );

    const added = await tools.invoke({ name: "add", input: 2 });
    counter.add(1); // outside any call

    expect(added.ok && added.value.snapshot).toEqual({ count: 3, double: 6 });
    expect(heard).toEqual([
      { event: undefined, snapshot: { count: 3, double: 6 }, call: "add" },
      { event: { type: "add", payload: 2 }, snapshot: { count: 3, double: 6 }, call: "add" },
      { event: undefined, snapshot: { count: 4, double: 8 }, call: undefined },
      { event: { type: "add", payload: 1 }, snapshot: { count: 4, double: 8 }, call: undefined },
    ]);
  });

  it("types the snapshot and the events from the store and the named actions", () => {
    const component = fromMobx(new Kitchen(), kitchenOptions);
    expectTypeOf(component).toExtend<
      AgentComponent<
        { orders: Order[]; served: number; stock: number; waiting: number },
        | { type: "order"; payload: Order }
        | { type: "serve" }
        | { type: "clear" }
        | { type: "restock"; payload: number }
      >
    >();
    // @ts-expect-error `order` takes an argument, so its input schema is required
    fromMobx(new Kitchen(), { commands: { order: {} } });
  });
});

describe("fromMobx: live state", () => {
  it("hears a change made outside any call, and the action that made it, after the state it led to", async () => {
    const { store, tools } = kitchen();
    const heard: { type: string; waiting: number; during?: string }[] = [];
    observe(tools, ({ event, snapshot, call }) => {
      heard.push({
        type: event?.type ?? "state",
        waiting: snapshot.waiting,
        ...(call ? { during: call.name } : {}),
      });
    });

    store.order({ dish: "tea", table: 1 }); // a person at the counter, outside any call
    await tools.invoke({ name: "serve" });
    runInAction(() => {
      // Two actions in one batch: each is heard as it ends, with the state it left.
      store.order({ dish: "jam", table: 2 });
      store.order({ dish: "cake", table: 3 });
    });
    store.tick(); // not a command, not a declared event: a change of state only

    expect(heard).toEqual([
      { type: "state", waiting: 1 },
      { type: "order", waiting: 1 },
      { type: "state", waiting: 0, during: "serve" },
      { type: "serve", waiting: 0, during: "serve" },
      { type: "order", waiting: 1 },
      { type: "order", waiting: 2 },
      { type: "state", waiting: 2 },
    ]);
  });

  it("reports an action run inside another reported action as its caller's only", () => {
    const store = observable({
      items: [] as string[],
      add(item: string) {
        this.items.push(item);
      },
      addAll(items: string[]) {
        for (const item of items) this.add(item);
      },
    });
    const component = fromMobx(store, {
      commands: { add: { input: { type: "string" } }, addAll: { input: { type: "array" } } },
    });
    const heard: unknown[] = [];
    component.onEvent?.((event) => heard.push(event));

    store.addAll(["a", "b"]);
    store.add("c");

    expect(heard).toEqual([
      { type: "addAll", payload: ["a", "b"] },
      { type: "add", payload: "c" },
    ]);
  });

  it("gives the same snapshot while nothing in it changed, whether anyone subscribes or not", () => {
    const { store, component } = kitchen();
    const first = component.getSnapshot?.();
    expect(component.getSnapshot?.()).toBe(first);

    store.order({ dish: "tea", table: 1 });
    const second = component.getSnapshot?.();
    expect(second).not.toBe(first);
    expect(second).toEqual({
      orders: [{ dish: "tea", table: 1 }],
      served: 0,
      stock: 0,
      waiting: 1,
    });

    const stop = component.subscribe?.(() => undefined);
    expect(component.getSnapshot?.()).toBe(second);
    store.tick();
    const third = component.getSnapshot?.();
    expect(third).not.toBe(second);
    expect(component.getSnapshot?.()).toBe(third);
    stop?.();

    // Changed and changed back: the same data, so the same snapshot.
    runInAction(() => {
      store.stock += 1;
    });
    runInAction(() => {
      store.stock -= 1;
    });
    expect(component.getSnapshot?.()).toBe(third);
  });

  it("makes a selector's snapshot plain data, observables inside plain objects and arrays included", () => {
    const store = new Kitchen();
    const component = fromMobx(store, {
      commands: {},
      snapshot: (kitchen) => ({ orders: kitchen.orders, tables: [kitchen.orders] }),
    });
    const before = component.getSnapshot?.();
    store.order({ dish: "tea", table: 1 });
    const after = component.getSnapshot?.();

    expect(after).not.toBe(before);
    expect(after).toEqual({
      orders: [{ dish: "tea", table: 1 }],
      tables: [[{ dish: "tea", table: 1 }]],
    });
    expect(isObservable(after?.orders)).toBe(false);
    expect(isObservable(after?.tables[0])).toBe(false);
  });

  it("calls the subscriber for a change made anywhere or a change of availability, until unsubscribed, which releases the reaction", () => {
    const { store, component } = kitchen();
    let released = 0;
    onBecomeUnobserved(store, "orders", () => {
      released += 1;
    });
    let heard = 0;
    const unsubscribe = component.subscribe?.(() => {
      heard += 1;
    });

    store.order({ dish: "tea", table: 1 });
    store.tick();
    expect(heard).toBe(2);

    unsubscribe?.();
    expect(released).toBe(1);
    store.order({ dish: "jam", table: 2 });
    expect(heard).toBe(2);
    unsubscribe?.();
    expect(released).toBe(1);
  });

  it("watches what canExecute reads, beyond the snapshot", () => {
    const store = new Kitchen();
    const component = fromMobx(store, {
      ...kitchenOptions,
      snapshot: (kitchen) => ({ served: kitchen.served }),
    });
    let heard = 0;
    const stop = component.subscribe?.(() => {
      heard += 1;
    });

    store.order({ dish: "tea", table: 1 }); // `serve` becomes available; the snapshot is as it was
    store.order({ dish: "jam", table: 2 }); // nothing the component shows changes

    expect(heard).toBe(1);
    expect(component.getSnapshot?.()).toEqual({ served: 0 });
    stop?.();
  });

  it("stops hearing the store when nobody observes", () => {
    const { store, tools } = kitchen();
    let released = 0;
    onBecomeUnobserved(store, "orders", () => {
      released += 1;
    });
    const heard: string[] = [];
    const stop = observe(tools, ({ event }) => heard.push(event?.type ?? "state"));
    store.order({ dish: "tea", table: 1 });
    stop();
    store.order({ dish: "jam", table: 2 });

    expect(released).toBe(1);
    expect(heard).toEqual(["state", "order"]);
  });

  it("lets the model wait for a command that becomes available when something outside happens", async () => {
    const store = new Kitchen();
    const tools = igniteTools(fromMobx(store, kitchenOptions), undefined, {
      wait: waitTool({ maxMs: 5_000 }),
    });
    const wait = tools.manifest().find((tool) => tool.name === "waitFor");
    expect(wait?.inputSchema.properties).toMatchObject({
      event: { enum: ["order", "serve", "clear", "restock"] },
    });

    const waiting = tools.invoke({ name: "waitFor", input: { available: "serve" } });
    await Promise.resolve();
    store.order({ dish: "tea", table: 1 });

    const waited = await waiting;
    expect(waited.ok && waited.value.snapshot).toMatchObject({ waiting: 1 });
    const next = until(tools, ({ event }) => event?.type === "serve");
    store.serve();
    expect((await next).snapshot).toMatchObject({ waiting: 0, served: 1 });
  });
});

describe("fromMobx: without MobX's spy (its production build)", () => {
  it("reports the calls' own actions, and outside them only changes of state", async () => {
    vi.resetModules();
    vi.doMock("mobx", async (original) => ({
      ...(await original<typeof import("mobx")>()),
      spy: () => () => undefined,
    }));
    try {
      const { fromMobx: fromMobxWithoutSpy } = await import("ignite-element/tools/mobx");
      const store = new Kitchen();
      const tools = igniteTools(fromMobxWithoutSpy(store, kitchenOptions));
      const heard: string[] = [];
      observe(tools, ({ event }) => heard.push(event?.type ?? "state"));

      await tools.invoke({ name: "order", input: { dish: "tea", table: 1 } });
      store.order({ dish: "jam", table: 2 });

      expect(heard).toEqual(["state", "order", "state"]);
    } finally {
      vi.doUnmock("mobx");
      vi.resetModules();
    }
  });
});
