import { describe, expect, it } from "vitest";
import { igniteTools, type ModelRequest, runToolLoop } from "../tools/index.js";
import { Counter } from "./fixtures.js";
import { argsFor, type ProviderCase, providers, type SentCall } from "./provider-responses.js";

// runToolLoop over every provider dialect with recorded responses: the loop never knows a
// provider's shape, so the same conversation must run the same way through each of them.

type Turn = (request: ModelRequest<unknown, unknown>) => { calls: SentCall[]; text?: string };

function scripted(provider: ProviderCase, turns: Turn[]) {
  const requests: ModelRequest<unknown, unknown>[] = [];
  const responses: unknown[] = [];
  const model = async (request: ModelRequest<unknown, unknown>): Promise<never> => {
    requests.push(request);
    const turn = turns[requests.length - 1] ?? (() => ({ calls: [], text: "Done." }));
    const { calls, text } = turn(request);
    const response = provider.respond(calls, text);
    responses.push(response);
    return response as never;
  };
  return { model, requests, responses };
}

/** Everything the model has been sent back so far, as text. */
const transcript = (request: ModelRequest<unknown, unknown>) => JSON.stringify(request.messages);

describe.each(providers)("runToolLoop over $name", (provider) => {
  const start = () =>
    provider.dialect.appendTurn([], provider.respond([], "Count to three.") as never, []);

  it("lets the model read InvalidInput issues and correct itself, then stops when it stops calling", async () => {
    const counter = new Counter();
    const { model, requests } = scripted(provider, [
      () => ({ calls: [{ id: "c1", name: "increment", args: argsFor(provider, { by: 9 }) }] }),
      (request) => {
        expect(transcript(request)).toContain("/by must be <= 5");
        return { calls: [{ id: "c2", name: "increment", args: argsFor(provider, { by: 3 }) }] };
      },
    ]);
    const result = await runToolLoop({
      tools: igniteTools(counter, provider.dialect),
      model,
      messages: start(),
    });
    expect(result.stop).toBe("done");
    expect(result.steps.map((step) => step.errors.map((error) => error.kind))).toEqual([
      ["InvalidInput"],
      [],
      [],
    ]);
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 3 } }]);
    expect(result.snapshot).toEqual({ count: 3, limit: 10, locked: false });
    expect(requests).toHaveLength(3);
  });

  it("answers a call to an unavailable gated command, and offers it once it is available", async () => {
    const counter = new Counter();
    const { model, requests } = scripted(provider, [
      () => ({ calls: [{ id: "r1", name: "reset", args: argsFor(provider, {}) }] }),
      () => ({ calls: [{ id: "i1", name: "increment", args: argsFor(provider, { by: 2 }) }] }),
    ]);
    const result = await runToolLoop({
      tools: igniteTools(counter, provider.dialect),
      model,
      messages: start(),
    });
    expect(result.steps[0]?.errors.map((error) => error.kind)).toEqual(["Unavailable"]);
    expect(JSON.stringify(requests[0]?.tools)).not.toContain('"reset"');
    expect(JSON.stringify(requests[2]?.tools)).toContain('"reset"');
  });

  it("answers parallel calls in order and re-sends the model's turn unchanged", async () => {
    const counter = new Counter();
    const { model, responses } = scripted(provider, [
      () => ({
        text: "Both at once.",
        calls: [
          { id: "p1", name: "increment", args: argsFor(provider, { by: 1 }) },
          { id: "p2", name: "setLimit", args: argsFor(provider, { value: 4 }) },
          { id: "p3", name: "increment", args: argsFor(provider, { by: 5 }) },
        ],
      }),
    ]);
    const tools = igniteTools(counter, provider.dialect);
    const result = await runToolLoop({ tools, model, messages: start() });
    expect(result.steps[0]?.answers.map((answer) => answer.outcome.ok)).toEqual([true, true, true]);
    expect(counter.calls.map((call) => call.command)).toEqual([
      "increment",
      "setLimit",
      "increment",
    ]);
    expect(result.snapshot).toEqual({ count: 4, limit: 4, locked: false });
    // The appended turn is exactly what appendTurn makes of the recorded response.
    const expected = provider.dialect.appendTurn(
      start(),
      responses[0] as never,
      result.steps[0]?.answers.map((answer) => answer.block) ?? [],
    );
    expect(result.messages.slice(0, expected.length)).toEqual(expected);
    for (const part of provider.turnOf(responses[0])) expect(result.messages).toContainEqual(part);
  });

  it("stops with maxTurns when the model never stops calling", async () => {
    const forever: Turn = () => ({
      calls: [{ id: "f", name: "increment", args: argsFor(provider, {}) }],
    });
    const { model, requests } = scripted(provider, [forever, forever, forever]);
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), provider.dialect),
      model,
      messages: start(),
      maxTurns: 2,
    });
    expect(result.stop).toBe("maxTurns");
    expect(requests).toHaveLength(2);
  });

  it("stops as aborted mid-turn, answering the calls of that turn without executing them", async () => {
    const controller = new AbortController();
    const counter = new Counter();
    const { model } = scripted(provider, [
      () => {
        controller.abort();
        return { calls: [{ id: "a1", name: "increment", args: argsFor(provider, {}) }] };
      },
    ]);
    const result = await runToolLoop({
      tools: igniteTools(counter, provider.dialect),
      model,
      messages: start(),
      signal: controller.signal,
    });
    expect(result.stop).toBe("aborted");
    expect(counter.calls).toEqual([]);
    const block = result.steps[0]?.answers[0]?.block;
    expect(provider.textOf(block)).toMatch(/aborted before it ran/);
  });
});
