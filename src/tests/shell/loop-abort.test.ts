import { describe, expect, it } from "vitest";
import {
  type FakeMessage,
  type FakeResponse,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  runToolLoop,
  scriptedModel,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

type Request = ModelRequest<FakeToolDefs, FakeMessage, AbortSignal>;

const start: FakeMessage[] = [{ role: "user", content: "Count." }];

describe("runToolLoop and abort", () => {
  it("stops promptly with aborted while a model call that ignores the signal is pending", async () => {
    const controller = new AbortController();
    let asked = 0;
    const result = runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      // Ignores the signal and never answers: the loop must not wait for it.
      model: (_request: Request) => {
        asked++;
        return new Promise<FakeResponse>(() => {});
      },
      messages: start,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await result).toMatchObject({
      stop: "aborted",
      steps: [],
      response: undefined,
      messages: start,
    });
    expect(asked).toBe(1);
  });

  it("reports aborted, not done, when the abort came during the model call and the answer is text", async () => {
    const controller = new AbortController();
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model: async () => {
        controller.abort(); // the user pressed stop while the model was answering
        return { text: "All set.", toolCalls: [] };
      },
      messages: start,
      signal: controller.signal,
    });
    expect(result.stop).toBe("aborted");
    expect(result.response).toEqual({ text: "All set.", toolCalls: [] });
  });

  it("stops with aborted when a model call that ignores the signal answers late with tool calls", async () => {
    const controller = new AbortController();
    const counter = new Counter();
    let answer: (response: FakeResponse) => void = () => {};
    const result = runToolLoop({
      tools: igniteTools(counter, fakeDialect),
      model: () => new Promise<FakeResponse>((resolve) => (answer = resolve)),
      messages: start,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await result).stop).toBe("aborted");
    answer({ toolCalls: [{ id: "late", name: "increment", input: {} }] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(counter.calls).toEqual([]); // a reply after the stop runs nothing
  });

  it("hands the model the application's own signal", async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model: async (request) => {
        seen.push(request.signal);
        return { toolCalls: [] };
      },
      messages: start,
      signal: controller.signal,
    });
    expect(seen).toEqual([controller.signal]);
    expect(seen[0]).toBe(controller.signal);
  });

  it("hands the model a real signal of the loop's own, one that never aborts, when given none", async () => {
    const seen: AbortSignal[] = [];
    const { model } = scriptedModel([[{ id: "1", name: "increment", input: {} }]], "Done.");
    await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model: (request) => {
        seen.push(request.signal);
        return model(request);
      },
      messages: start,
    });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    expect(seen.map((signal) => signal.aborted)).toEqual([false, false]);
  });
});

describe("runToolLoop and a model function that fails", () => {
  it("returns what was done so far with the error, from a model that rejects", async () => {
    const failure = new Error("503 overloaded");
    const counter = new Counter();
    const result = await runToolLoop({
      tools: igniteTools(counter, fakeDialect),
      model: async (request) => {
        if (request.turn === 1) return { toolCalls: [{ id: "1", name: "increment", input: {} }] };
        throw failure;
      },
      messages: start,
    });
    expect(result).toMatchObject({
      stop: "error",
      error: failure,
      snapshot: { count: 1 },
      steps: [{ turn: 1, errors: [] }],
    });
    expect(result.messages).toHaveLength(3); // the user, the model's calls, their result
    expect(result.response).toEqual({ toolCalls: [{ id: "1", name: "increment", input: {} }] });
  });

  it("returns the error from a model that throws synchronously on the first turn", async () => {
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model: (): Promise<FakeResponse> => {
        throw new TypeError("client is not configured");
      },
      messages: start,
    });
    expect(result).toMatchObject({ stop: "error", steps: [], messages: start });
    expect(result.error).toBeInstanceOf(TypeError);
  });

  it("reports aborted, not error, when the model rejects because of the abort", async () => {
    const controller = new AbortController();
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect),
      model: async () => {
        controller.abort();
        throw new Error("Request was aborted.");
      },
      messages: start,
      signal: controller.signal,
    });
    expect(result.stop).toBe("aborted");
    expect(result).not.toHaveProperty("error");
  });
});
