/**
 * The wait tool of `provideWebMcp` against an in-memory `ModelContext` that behaves as Chromium
 * 156's (webmcp-model-context.ts): the call's `client.signal` — which the WebMCP draft's later
 * `ModelContextClient` has, and Chromium passes to `execute` — cancels a wait.
 */
import { waitTool } from "ignite-element/tools";
import { provideWebMcp } from "ignite-element/tools/webmcp";
import { describe, expect, it, vi } from "vitest";
import { oven } from "../shell/oven.js";
import { FakeModelContext } from "./webmcp-model-context.js";

describe("provideWebMcp with wait", () => {
  it("ends a wait when the agent's call signal aborts, answered as a cancelled call, and releases the component", async () => {
    const { component, world } = oven();
    const modelContext = new FakeModelContext();
    provideWebMcp(component, { modelContext, wait: waitTool({ maxMs: 30_000 }) });
    const idle = world.held();
    const controller = new AbortController();

    const calling = modelContext.callTool("waitFor", {}, { signal: controller.signal });
    await vi.waitFor(() => expect(world.held()).toBe(idle + 2));
    controller.abort("the agent moved on");
    const result = await calling;

    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (ExecuteFailed): Command "waitFor" failed: was cancelled while it waited; waiting changes nothing',
        },
      ],
      isError: true,
    });
    expect(world.held()).toBe(idle);
  });

  it("offers the wait tool with the annotations of a tool that only reads", () => {
    const modelContext = new FakeModelContext();
    provideWebMcp(oven().component, { modelContext, wait: waitTool({ maxMs: 30_000 }) });

    expect(modelContext.tools().find((tool) => tool.name === "waitFor")).toMatchObject({
      title: "Wait",
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
  });
});
