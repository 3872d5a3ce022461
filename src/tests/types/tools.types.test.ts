import { describe, expectTypeOf, it } from "vitest";
import {
  type AgentComponent,
  type FakeResponse,
  type FakeResultBlock,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  type NeutralToolCall,
  type Observation,
  type Result,
  type RuntimeEvent,
  type ToolDialect,
  type ToolError,
} from "../../tools/index.js";
import { Counter, type CounterEvent, type CounterState } from "../fixtures.js";

describe("types flow from the component", () => {
  it("types invoke's observation with the component's state and events, no casts", () => {
    const tools = igniteTools(new Counter());
    expectTypeOf(tools.invoke).returns.resolves.toEqualTypeOf<
      Result<Observation<CounterState, CounterEvent>, ToolError>
    >();
  });

  it("infers state and events from an object literal component", async () => {
    const tools = igniteTools({
      getSchema: () => ({ commands: { tick: {} } }),
      execute: async () => ({ state: { ticks: 1 }, events: [{ type: "ticked" as const }] }),
    });
    const result = await tools.invoke({ name: "tick", input: {} });
    if (result.ok) {
      expectTypeOf(result.value.snapshot).toEqualTypeOf<{ ticks: number }>();
      expectTypeOf(result.value.events).toEqualTypeOf<{ type: "ticked" }[]>();
    } else {
      expectTypeOf(result.error).toEqualTypeOf<ToolError>();
    }
  });

  it("infers from a synchronous execute as well", () => {
    const component = {
      getSchema: () => ({ commands: {} }),
      execute: () => ({ state: "idle" as "idle" | "busy", events: [] as RuntimeEvent[] }),
    };
    expectTypeOf(igniteTools(component).invoke).returns.resolves.toEqualTypeOf<
      Result<Observation<"idle" | "busy", RuntimeEvent>, ToolError>
    >();
  });

  it("carries the dialect's tool defs, response and result block types", () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    expectTypeOf(tools.toToolDefs).returns.toEqualTypeOf<FakeToolDefs>();
    expectTypeOf(tools.parseToolCalls).parameter(0).toEqualTypeOf<FakeResponse>();
    expectTypeOf(tools.parseToolCalls).returns.toEqualTypeOf<NeutralToolCall[]>();
    expectTypeOf(tools.toToolResult).returns.toEqualTypeOf<FakeResultBlock>();
    expectTypeOf(tools.handleToolCalls).returns.resolves.toEqualTypeOf<FakeResultBlock[]>();
  });

  it("carries a custom dialect's types", () => {
    const dialect: ToolDialect<string[], { calls: string[] }, { text: string }> = {
      toToolDefs: (manifest) => manifest.map((tool) => tool.name),
      parseToolCalls: (response) => response.calls.map((name) => ({ name, input: {} })),
      toToolResult: (call, result) => ({ text: `${call.name}: ${result.ok}` }),
    };
    const tools = igniteTools(new Counter(), dialect);
    expectTypeOf(tools.toToolDefs()).toEqualTypeOf<string[]>();
    expectTypeOf(tools.handleToolCalls).parameter(0).toEqualTypeOf<{ calls: string[] }>();
    expectTypeOf(tools.handleToolCalls).returns.resolves.toEqualTypeOf<{ text: string }[]>();
  });

  it("calls a command that takes no input with its name alone", async () => {
    const tools = igniteTools(new Counter());
    expectTypeOf(tools.invoke).toBeCallableWith({ name: "reset" });
    expectTypeOf<{ name: "reset" }>().toMatchTypeOf<NeutralToolCall>();
    const result = await tools.invoke({ name: "reset" });
    expectTypeOf(result).toEqualTypeOf<
      Result<Observation<CounterState, CounterEvent>, ToolError>
    >();
  });

  it("has no dialect methods without a dialect", () => {
    const tools = igniteTools(new Counter());
    expectTypeOf(tools).not.toHaveProperty("handleToolCalls");
  });

  it("accepts any component that speaks the contract, structurally", () => {
    expectTypeOf<Counter>().toMatchTypeOf<AgentComponent<CounterState, CounterEvent>>();
  });
});
