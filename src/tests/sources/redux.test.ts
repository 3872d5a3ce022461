import { configureStore, createSlice, type PayloadAction } from "@reduxjs/toolkit";
import { type AgentComponent, igniteTools, observe } from "ignite-element/tools";
import { actionFeed, fromSlice, type SliceOptions } from "ignite-element/tools/redux";
import { describe, expect, expectTypeOf, it } from "vitest";

interface Cart {
  lines: { sku: string; quantity: number }[];
  paid: boolean;
}

const cartSlice = createSlice({
  name: "cart",
  initialState: { lines: [], paid: false } as Cart,
  reducers: {
    add(state, action: PayloadAction<{ sku: string; quantity: number }>) {
      state.lines.push(action.payload);
    },
    empty(state) {
      state.lines = [];
    },
    pay(state) {
      if (state.lines.length === 0) throw new Error("the cart is empty");
      state.paid = true;
    },
  },
});

const line = {
  type: "object",
  properties: { sku: { type: "string", minLength: 1 }, quantity: { type: "integer", minimum: 1 } },
  required: ["sku", "quantity"],
  additionalProperties: false,
};

const cartCommands: SliceOptions<Cart, typeof cartSlice.actions> = {
  commands: {
    add: { description: "Add a line.", input: line },
    empty: { description: "Remove every line.", gated: true, destructive: true, idempotent: true },
    pay: { description: "Pay for the cart.", gated: true },
  },
  canExecute: (cart, command) => cart.lines.length > 0 && (command !== "pay" || !cart.paid),
};

const offered = (tools: { manifest(): readonly { name: string }[] }) =>
  tools.manifest().map((tool) => tool.name);

describe("fromSlice", () => {
  it("offers every action as a command, gated ones by canExecute over the store's state now", async () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const tools = igniteTools(fromSlice(store, cartSlice, cartCommands));
    expect(offered(tools)).toEqual(["add"]);

    const added = await tools.invoke({ name: "add", input: { sku: "tea", quantity: 2 } });

    expect(added.ok && added.value).toEqual({
      snapshot: { lines: [{ sku: "tea", quantity: 2 }], paid: false },
      events: [{ type: "cart/add", payload: { sku: "tea", quantity: 2 } }],
    });
    expect(offered(tools)).toEqual(["add", "empty", "pay"]);
  });

  it("passes descriptions, output schemas and effect flags through", () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const output = { type: "object", required: ["lines", "paid"] };
    const component = fromSlice(store, cartSlice, {
      ...cartCommands,
      commands: { ...cartCommands.commands, pay: { gated: true, output, readOnly: false } },
    });

    expect(component.getSchema().commands).toEqual({
      add: { description: "Add a line.", input: line },
      empty: {
        description: "Remove every line.",
        gated: true,
        destructive: true,
        idempotent: true,
      },
      pay: { gated: true, output, readOnly: false },
    });
  });

  it("gives one schema object whose commands are frozen, so a turn takes the bridge's flat path", () => {
    const component = fromSlice(
      configureStore({ reducer: cartSlice.reducer }),
      cartSlice,
      cartCommands,
    );
    expect(component.getSchema()).toBe(component.getSchema());
    expect(Object.isFrozen(component.getSchema().commands)).toBe(true);
  });

  it("calls the subscriber for a dispatch made anywhere, until unsubscribed", async () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const component = fromSlice(store, cartSlice, cartCommands);
    let heard = 0;
    const unsubscribe = component.subscribe?.(() => {
      heard += 1;
    });

    store.dispatch(cartSlice.actions.add({ sku: "jam", quantity: 1 }));
    await igniteTools(component).invoke({ name: "empty", input: {} });
    expect(heard).toBe(2);

    unsubscribe?.();
    store.dispatch(cartSlice.actions.empty());
    expect(heard).toBe(2);
  });

  it("answers ExecuteFailed when a reducer throws, and the store keeps its state", async () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const tools = igniteTools(fromSlice(store, cartSlice, { commands: { add: { input: line } } }));

    const paid = await tools.invoke({ name: "pay", input: {} });

    expect(!paid.ok && paid.error.message).toBe('Command "pay" failed: the cart is empty');
    expect(store.getState()).toEqual({ lines: [], paid: false });
  });

  it("offers an action without a declared command as a no-argument command, over a store with other slices", async () => {
    const store = configureStore({
      reducer: { cart: cartSlice.reducer, user: (name: string = "ada") => name },
    });
    const tools = igniteTools(
      fromSlice(store, cartSlice, {
        commands: { add: { input: line }, pay: { gated: true } },
        canExecute: (state, command) => command === "pay" && state.cart.lines.length > 0,
      }),
    );

    expect(tools.manifest().find((tool) => tool.name === "empty")).toEqual({
      name: "empty",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      gated: false,
    });
    await tools.invoke({ name: "add", input: { sku: "tea", quantity: 1 } });
    const paid = await tools.invoke({ name: "pay", input: {} });
    expect(paid.ok && paid.value.snapshot).toEqual({
      cart: { lines: [{ sku: "tea", quantity: 1 }], paid: true },
      user: "ada",
    });
  });

  it("refuses, at construction, a gated command without canExecute and a command the slice lacks", () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    expect(() => fromSlice(store, cartSlice, { commands: cartCommands.commands })).toThrow(
      'Command "empty" is gated, but no canExecute(state, command) was given',
    );
    const unknownAction = () =>
      fromSlice(store, cartSlice, {
        // @ts-expect-error `refund` is not an action of the slice
        commands: { add: { input: line }, refund: {} },
      });
    expect(unknownAction).toThrow(
      'A command is declared for "refund", which is not an action of the slice',
    );
  });

  it("refuses a direct execute of an action the slice lacks", () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const component = fromSlice(store, cartSlice, { commands: { add: { input: line } } });
    expect(() => component.execute("refund")).toThrow('the slice has no action "refund"');
  });

  it("types the state and the dispatched actions from the store and the slice", () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const component = fromSlice(store, cartSlice, cartCommands);
    expectTypeOf(component).toExtend<AgentComponent<Cart, { type: string; payload: unknown }>>();
    // @ts-expect-error `add` takes a payload, so its input schema is required
    fromSlice(store, cartSlice, { commands: { add: {} } });
  });
});

describe("fromSlice: live state", () => {
  it("reports every action of the slice dispatched anywhere, after the state it led to, once the store has the feed", async () => {
    const actions = actionFeed();
    const store = configureStore({
      reducer: cartSlice.reducer,
      middleware: (defaults) => defaults().concat(actions.middleware),
    });
    const component = fromSlice(store, cartSlice, { ...cartCommands, actions });
    const tools = igniteTools(component);
    const heard: { type: string; lines: number; during?: string }[] = [];
    observe(tools, ({ event, snapshot, call }) => {
      heard.push({
        type: event?.type ?? "state",
        lines: snapshot.lines.length,
        ...(call ? { during: call.name } : {}),
      });
    });

    await tools.invoke({ name: "add", input: { sku: "tea", quantity: 1 } });
    store.dispatch(cartSlice.actions.add({ sku: "cake", quantity: 2 }));
    store.dispatch({ type: "elsewhere/ping" }); // not the slice's: no event, no change

    // Redux calls its subscribers inside the dispatch, before a middleware hears that the reducers
    // are done: each dispatch is a change of state, then its action with the same snapshot.
    expect(heard).toEqual([
      { type: "state", lines: 1, during: "add" },
      { type: "cart/add", lines: 1, during: "add" },
      { type: "state", lines: 2 },
      { type: "cart/add", lines: 2 },
    ]);
    expect(component.getSchema().events).toEqual(["cart/add", "cart/empty", "cart/pay"]);
    expect(component.getSnapshot?.()).toBe(store.getState());
  });

  it("without the feed, observes the state but declares and reports no actions", () => {
    const store = configureStore({ reducer: cartSlice.reducer });
    const component = fromSlice(store, cartSlice, cartCommands);
    const tools = igniteTools(component);
    const heard: (string | undefined)[] = [];
    observe(tools, ({ event }) => heard.push(event?.type));

    store.dispatch(cartSlice.actions.add({ sku: "tea", quantity: 1 }));

    expect(heard).toEqual([undefined]);
    expect(component.onEvent).toBeUndefined();
    expect(component.getSchema().events).toBeUndefined();
  });

  it("stops hearing the store when nobody observes", () => {
    const actions = actionFeed();
    let listening = 0;
    const store = configureStore({
      reducer: cartSlice.reducer,
      middleware: (defaults) => defaults().concat(actions.middleware),
    });
    const counted = {
      ...store,
      subscribe(listener: () => void) {
        listening++;
        const stop = store.subscribe(listener);
        return () => {
          listening--;
          stop();
        };
      },
    };
    const tools = igniteTools(fromSlice(counted, cartSlice, { ...cartCommands, actions }));

    const stop = observe(tools, () => undefined);
    expect(listening).toBe(1);
    stop();
    expect(listening).toBe(0);
  });
});
