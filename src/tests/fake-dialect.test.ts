import { describe, expect, it } from "vitest";
import {
  type AgentComponent,
  fakeDialect,
  igniteTools,
  type NeutralToolCall,
} from "../tools/index.js";
import { Counter } from "./fixtures.js";

describe("fakeDialect", () => {
  it("offers the manifest as plain JSON, detached from the component's schema objects", () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    const defs = tools.toToolDefs();
    expect(defs).toEqual(JSON.parse(JSON.stringify(tools.manifest())));
    expect(defs[0]?.inputSchema).not.toBe(tools.manifest()[0]?.inputSchema);
  });

  it("round-trips a response: parse, invoke, and answer each call with its id", async () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    const [call] = tools.parseToolCalls({ toolCalls: [{ id: "t1", name: "setLimit", input: 5 }] });
    expect(call).toEqual({ id: "t1", name: "setLimit", input: 5 });
    if (!call) throw new Error("no call");
    const block = tools.toToolResult(call, await tools.invoke(call));
    expect(block).toEqual({
      id: "t1",
      name: "setLimit",
      ok: true,
      snapshot: { count: 0, limit: 5, locked: false },
      events: [{ type: "limitChanged", payload: { limit: 5 } }],
    });
  });

  it("answers errors as blocks with the error value, omitting an absent id", async () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    const [block] = await tools.handleToolCalls({ toolCalls: [{ name: "explode", input: {} }] });
    expect(block).toEqual({
      name: "explode",
      ok: false,
      error: {
        kind: "UnknownCommand",
        name: "explode",
        message: 'Unknown command "explode". Call one of the tools you were offered.',
      },
    });
  });

  it("handles every call of a turn in order, one block per call, errors included", async () => {
    const counter = new Counter();
    const tools = igniteTools(counter, fakeDialect);
    const toolCalls: NeutralToolCall[] = [
      { id: "a", name: "increment", input: { by: 2 } },
      { id: "b", name: "setLimit", input: 50 },
      { id: "c", name: "reset", input: {} },
      { id: "d", name: "increment", input: {} },
    ];
    const blocks = await tools.handleToolCalls({ toolCalls });
    expect(blocks.map((block) => [block.id, block.ok])).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", true],
    ]);
    expect(counter.calls.map((call) => call.command)).toEqual(["increment", "reset", "increment"]);
    expect(blocks[3]).toMatchObject({ snapshot: { count: 1 } });
  });

  it("keeps each call's validated route beside its outcome, only where execute was called", async () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    const answers = await tools.answerToolCalls({
      toolCalls: [
        { id: "a", name: "increment", input: {} },
        { id: "b", name: "setLimit", input: 99 },
      ],
    });
    expect(answers.map(({ call, route, outcome }) => [call.id, route, outcome.ok])).toEqual([
      ["a", { command: "increment", input: { by: 1 } }, true],
      ["b", undefined, false],
    ]);
    expect(answers[0]?.block).toMatchObject({ id: "a", ok: true });
  });

  it("parses against every declared command, so a call to a hidden gated command is Unavailable", async () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    const [block] = await tools.handleToolCalls({
      toolCalls: [{ id: "x", name: "unlock", input: {} }],
    });
    expect(block).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
  });

  it("answers every call with ExecuteFailed when getSchema throws, without rejecting", async () => {
    let checked = false; // the first read is igniteTools checking the component
    const component: AgentComponent = {
      getSchema: () => {
        if (checked) throw new Error("offline");
        checked = true;
        return { commands: {} };
      },
      execute: () => ({ state: null, events: [] }),
    };
    const blocks = await igniteTools(component, fakeDialect).handleToolCalls({
      toolCalls: [
        { id: "1", name: "a", input: {} },
        { id: "2", name: "b", input: {} },
      ],
    });
    expect(blocks.map((block) => !block.ok && block.error)).toMatchObject([
      { kind: "ExecuteFailed", reason: "schema" },
      { kind: "ExecuteFailed", reason: "schema" },
    ]);
  });

  it("throws a TypeError that says what to pass when the response is not { toolCalls }", () => {
    const tools = igniteTools(new Counter(), fakeDialect);
    expect(() => tools.parseToolCalls({} as never)).toThrow(TypeError);
    expect(() => tools.parseToolCalls(null as never)).toThrow(/expects \{ toolCalls/);
  });
});
