import { describe, expect, it } from "vitest";
import {
  type FakeMessage,
  type FakeResponse,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  type ModelRequest,
  runToolLoop,
  waitTool,
} from "../../tools/index.js";
import { oven } from "./oven.js";

type Request = ModelRequest<FakeToolDefs, FakeMessage, AbortSignal>;

const start: FakeMessage[] = [{ role: "user", content: "Bake the bread when the oven is ready." }];

describe("runToolLoop and the wait tool", () => {
  it("offers the wait every turn, and answers it in the conversation like any call", async () => {
    const { component, world } = oven();
    const offered: string[][] = [];
    const replies: FakeResponse[] = [
      { toolCalls: [{ id: "1", name: "waitFor", input: { available: "bake" } }] },
      { toolCalls: [{ id: "2", name: "bake", input: { dish: "bread" } }] },
      { text: "Baking.", toolCalls: [] },
    ];
    const result = runToolLoop({
      tools: igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 60_000 }) }),
      model: async ({ tools }: Request) => {
        offered.push(tools.map((tool) => tool.name));
        return replies.shift() ?? { toolCalls: [] };
      },
      messages: start,
    });
    // The thermostat reports while the model waits.
    setTimeout(() => world.preheated(), 5);

    const done = await result;

    expect(done.stop).toBe("done");
    expect(offered).toEqual([
      ["preheat", "waitFor"],
      ["bake", "preheat", "waitFor"],
      ["preheat", "waitFor"],
    ]);
    expect(done.steps[0]?.answers[0]?.block).toMatchObject({
      ok: true,
      waited: '"bake" is available now.',
      events: [{ type: "preheated" }],
    });
    expect(done.snapshot).toMatchObject({ baking: "bread" });
    expect(world.held()).toBe(0);
  });

  it("cancels a wait when the loop's signal aborts, answers it, and stops with aborted", async () => {
    const { component, world } = oven();
    const controller = new AbortController();
    const result = runToolLoop({
      tools: igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 60_000 }) }),
      model: async (_request: Request): Promise<FakeResponse> => ({
        toolCalls: [{ id: "1", name: "waitFor", input: { event: "preheated" } }],
      }),
      messages: start,
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(world.held()).toBe(2); // the wait is waiting
    controller.abort();

    const stopped = await result;

    expect(stopped.stop).toBe("aborted");
    expect(stopped.steps[0]?.answers[0]?.block).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "cancelled" },
    });
    expect(world.held()).toBe(0);
  });
});
