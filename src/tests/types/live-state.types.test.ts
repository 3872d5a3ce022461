import { configureStore, createSlice } from "@reduxjs/toolkit";
import {
  type AgentComponent,
  igniteTools,
  type LiveChange,
  observe,
  until,
  type WaitObservation,
  waitTool,
} from "ignite-element/tools";
import { openai } from "ignite-element/tools/openai";
import { actionFeed, fromSlice } from "ignite-element/tools/redux";
import { fromActor } from "ignite-element/tools/xstate";
import { describe, expectTypeOf, it } from "vitest";
import { createActor, emit, setup } from "xstate";

type Door = { open: boolean };
type DoorEvent = { type: "opened" } | { type: "closed"; by: string };

const door: AgentComponent<Door, DoorEvent> = {
  getSchema: () => ({ commands: { open: {} } }),
  execute: () => ({ state: { open: true }, events: [{ type: "opened" }] }),
  subscribe: () => () => undefined,
  getSnapshot: () => ({ open: false }),
};

describe("live state types", () => {
  it("types each change with the component's snapshot and events", () => {
    const tools = igniteTools(door, openai);
    observe(tools, (change) => {
      expectTypeOf(change).toEqualTypeOf<LiveChange<Door, DoorEvent>>();
      expectTypeOf(change.snapshot).toEqualTypeOf<Door>();
      expectTypeOf(change.event).toEqualTypeOf<DoorEvent | undefined>();
      if (change.event?.type === "closed") expectTypeOf(change.event.by).toEqualTypeOf<string>();
    });
    expectTypeOf(observe(tools, () => {})).toEqualTypeOf<() => void>();
    expectTypeOf(until(tools, ({ snapshot }) => !snapshot.open)).resolves.toEqualTypeOf<
      LiveChange<Door, DoorEvent>
    >();
  });

  it("takes the component's getSnapshot and onEvent in its own types", () => {
    expectTypeOf<AgentComponent<Door, DoorEvent>["getSnapshot"]>().toEqualTypeOf<
      (() => Door) | undefined
    >();
    expectTypeOf<
      Parameters<NonNullable<AgentComponent<Door, DoorEvent>["onEvent"]>>[0]
    >().toEqualTypeOf<(event: DoorEvent) => void>();
    // A store whose subscribe hands its listener nothing stays a component, as before.
    const plain: AgentComponent<number> = {
      getSchema: () => ({ commands: {} }),
      execute: () => ({ state: 1, events: [] }),
      subscribe: (listener: () => void) => {
        listener();
        return () => undefined;
      },
      getSnapshot: () => 1,
    };
    expectTypeOf(plain).toMatchTypeOf<AgentComponent<number>>();
  });

  it("types a wait's answer as an observation of the component's own snapshot", () => {
    expectTypeOf<WaitObservation<Door, DoorEvent>["snapshot"]>().toEqualTypeOf<Door>();
    expectTypeOf<WaitObservation<Door, DoorEvent>["waited"]>().toEqualTypeOf<string>();
    expectTypeOf<WaitObservation<Door, DoorEvent>>().toMatchTypeOf<{ events: DoorEvent[] }>();
    // @ts-expect-error — the application sets the bound
    expectTypeOf(waitTool).toBeCallableWith({});
    expectTypeOf(igniteTools).toBeCallableWith(door, openai, { wait: waitTool({ maxMs: 1_000 }) });
  });

  it("declares only the events an actor emits, and types the slice's actions as events", () => {
    const machine = setup({
      types: { events: {} as { type: "go" }, emitted: {} as { type: "arrived" } },
    }).createMachine({ on: { go: { actions: emit({ type: "arrived" }) } } });
    const actor = createActor(machine).start();
    fromActor(actor, { go: {} }, { events: ["arrived"] });
    // @ts-expect-error — the machine never emits "left"
    fromActor(actor, { go: {} }, { events: ["left"] });

    const slice = createSlice({
      name: "count",
      initialState: 0,
      reducers: { bump: (state) => state + 1 },
    });
    const actions = actionFeed();
    const store = configureStore({
      reducer: slice.reducer,
      middleware: (defaults) => defaults().concat(actions.middleware),
    });
    observe(
      igniteTools(fromSlice(store, slice, { commands: {}, actions })),
      ({ event, snapshot }) => {
        expectTypeOf(snapshot).toEqualTypeOf<number>();
        expectTypeOf(event?.type).toEqualTypeOf<"count/bump" | undefined>();
      },
    );
  });
});
