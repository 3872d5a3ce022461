import { describe, expect, it, vi } from "vitest";
import {
  type FakeMessage,
  type FakeResponse,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  lastResults,
  type ModelRequest,
  runToolLoop,
  type ScriptedTurn,
  scriptedModel,
} from "../tools/index.js";
import { Counter } from "./fixtures.js";

type Request = ModelRequest<unknown, FakeMessage>;

const scripted = (...turns: ScriptedTurn[]) => scriptedModel(turns, "All done.");

const start: FakeMessage[] = [{ role: "user", content: "Count to three, then reset." }];

describe("runToolLoop", () => {
  it("reads InvalidInput issues and lets the model correct itself on the next turn", async () => {
    const counter = new Counter();
    const { model, requests } = scripted(
      [{ id: "1", name: "increment", input: { by: 9 } }],
      (request) => {
        expect(lastResults(request.messages)).toMatchObject([
          { id: "1", ok: false, error: { kind: "InvalidInput" } },
        ]);
        return { toolCalls: [{ id: "2", name: "increment", input: { by: 3 } }] };
      },
    );
    const result = await runToolLoop({
      tools: igniteTools(counter, fakeDialect),
      model,
      messages: start,
    });
    expect(result.stop).toBe("done");
    expect(result.snapshot).toEqual({ count: 3, limit: 10, locked: false });
    expect(result.steps.map((step) => step.errors.map((error) => error.kind))).toEqual([
      ["InvalidInput"],
      [],
      [],
    ]);
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 3 } }]);
    expect(requests).toHaveLength(3);
  });

  it("offers the tools available now on every turn and answers a call to an unavailable one", async () => {
    const counter = new Counter();
    const { model, offered: offeredTools } = scripted(
      [{ id: "1", name: "reset", input: {} }],
      [{ id: "2", name: "increment", input: { by: 2 } }],
      [{ id: "3", name: "reset", input: {} }],
    );
    const result = await runToolLoop({
      tools: igniteTools(counter, fakeDialect),
      model,
      messages: start,
    });
    const offered = offeredTools();
    expect(offered[0]).not.toContain("reset");
    expect(offered[2]).toContain("reset");
    expect(result.steps[0]?.errors[0]?.kind).toBe("Unavailable");
    expect(result.snapshot).toMatchObject({ count: 0 });
  });

  it("answers parallel calls in order, one result message per call, after the unchanged turn", async () => {
    const calls = [
      { id: "a", name: "increment", input: { by: 1 } },
      { id: "b", name: "setLimit", input: 4 },
      { id: "c", name: "increment", input: { by: 5 } },
    ];
    const { model } = scripted(calls);
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model,
      messages: start,
    });
    expect(result.messages[0]).toBe(start[0]);
    expect(result.messages[1]).toEqual({ role: "assistant", response: { toolCalls: calls } });
    expect(
      result.messages.slice(2, 5).map((message) => message.role === "tool" && message.result.id),
    ).toEqual(["a", "b", "c"]);
    expect(result.messages.at(-1)).toEqual({
      role: "assistant",
      response: { text: "All done.", toolCalls: [] },
    });
    expect(result.snapshot).toEqual({ count: 4, limit: 4, locked: false });
    expect(start).toHaveLength(1);
  });

  it("stops with maxTurns, not an exception, when the model keeps calling tools", async () => {
    const forever = () => ({ toolCalls: [{ name: "increment", input: {} }] });
    const { model, requests } = scripted(forever, forever, forever, forever);
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model,
      messages: start,
      maxTurns: 2,
    });
    expect(result.stop).toBe("maxTurns");
    expect(requests).toHaveLength(2);
    expect(result.steps).toHaveLength(2);
    expect(result.messages.at(-1)).toMatchObject({ role: "tool" });
  });

  it("stops as aborted mid-turn, still answering every call the model made", async () => {
    const controller = new AbortController();
    const counter = new Counter();
    const { model } = scripted(() => {
      controller.abort(new Error("user pressed stop"));
      return { toolCalls: [{ id: "x", name: "increment", input: {} }] };
    });
    const result = await runToolLoop({
      tools: igniteTools(counter, fakeDialect),
      model,
      messages: start,
      signal: controller.signal,
    });
    expect(result.stop).toBe("aborted");
    expect(result.messages.at(-1)).toMatchObject({ role: "tool", result: { id: "x", ok: false } });
    expect(counter.calls).toEqual([]);
  });

  it("stops as aborted when the model request is aborted, and before asking when already aborted", async () => {
    const controller = new AbortController();
    const model = vi.fn(async (request: Request): Promise<FakeResponse> => {
      controller.abort();
      throw request.signal?.reason ?? new Error("aborted");
    });
    const tools = igniteTools(new Counter(), fakeDialect);
    const first = await runToolLoop({ tools, model, messages: start, signal: controller.signal });
    expect(first).toMatchObject({ stop: "aborted", steps: [], response: undefined });
    const second = await runToolLoop({ tools, model, messages: start, signal: controller.signal });
    expect(second.stop).toBe("aborted");
    expect(model).toHaveBeenCalledTimes(1);
  });

  it("returns the transcript so far with the model's own error when the model call fails for another reason", async () => {
    const failure = new Error("401 invalid api key");
    const { model: scriptedTurns } = scripted([{ id: "1", name: "increment", input: {} }]);
    const model = async (request: ModelRequest<FakeToolDefs, FakeMessage>) => {
      if (request.turn === 2) throw failure;
      return scriptedTurns(request);
    };
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model,
      messages: start,
    });
    expect(result).toMatchObject({ stop: "error", error: failure, steps: [{ turn: 1 }] });
    expect(result.snapshot).toMatchObject({ count: 1 });
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("reports each step to onStep with its calls, answers and errors", async () => {
    const onStep = vi.fn();
    const { model } = scripted([{ id: "1", name: "explode", input: {} }]);
    await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model,
      messages: start,
      onStep,
    });
    expect(onStep).toHaveBeenCalledTimes(2);
    const [step] = onStep.mock.calls[0] ?? [];
    expect(step).toMatchObject({
      turn: 1,
      calls: [{ id: "1", name: "explode" }],
      errors: [{ kind: "UnknownCommand" }],
    });
  });
});
