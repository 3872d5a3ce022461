import {
  Agent,
  type FunctionTool,
  type Tool,
  type ToolOutputFileContent,
  type ToolOutputImage,
  type ToolOutputText,
} from "@openai/agents";
import {
  type AgentsTool,
  type AgentsToolOutput,
  agentsTools,
} from "ignite-element/tools/openai-agents";
import { describe, expectTypeOf, it } from "vitest";
import { Counter } from "../fixtures.js";

describe("agentsTools types against @openai/agents 0.20.0", () => {
  it("returns function tools an Agent takes, with any context", () => {
    const tools = agentsTools(new Counter());
    expectTypeOf(tools).toEqualTypeOf<AgentsTool[]>();
    expectTypeOf<AgentsTool>().toExtend<
      FunctionTool<unknown, AgentsTool["parameters"], AgentsToolOutput>
    >();
    // The text, or the SDK's own structured outputs (with content parts).
    expectTypeOf<AgentsToolOutput>().toEqualTypeOf<
      string | (ToolOutputText | ToolOutputImage | ToolOutputFileContent)[]
    >();
    expectTypeOf<AgentsTool>().toExtend<Tool>();
    expectTypeOf<AgentsTool<{ userId: string }>>().toExtend<Tool<{ userId: string }>>();
    new Agent({ name: "Counter", tools });
    new Agent<{ userId: string }>({ name: "Counter", tools: agentsTools(new Counter()) });
    new Agent({ name: "Counter", tools: [...tools, ...agentsTools(new Counter())] });
  });

  it("types the options from the component", () => {
    agentsTools(new Counter(), {
      strict: true,
      maxResultChars: 2_000,
      project: ({ snapshot, events }) => {
        expectTypeOf(snapshot.count).toEqualTypeOf<number>();
        return { snapshot: snapshot.count, events };
      },
    });
    // @ts-expect-error strict is a boolean
    agentsTools(new Counter(), { strict: "yes" });
  });
});
