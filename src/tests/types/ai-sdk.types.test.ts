import {
  type generateText,
  jsonSchema,
  type StepResult,
  type streamText,
  type ToolSet,
  tool,
} from "ai";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AiSdkApprovalStatus,
  type AiSdkToolOutput,
  type AiSdkWaitOutput,
  aiSdkTools,
} from "../../tools/adapters/ai-sdk.js";
import type { ToolError } from "../../tools/index.js";
import { Counter, type CounterEvent, type CounterState } from "../fixtures.js";

type GenerateTextOptions = Parameters<typeof generateText>[0];
type StreamTextOptions = Parameters<typeof streamText>[0];

describe("aiSdkTools types against ai 6.0.325", () => {
  const { tools, prepareStep } = aiSdkTools(new Counter());

  it("gives a tool set generateText and streamText take", () => {
    expectTypeOf(tools).toExtend<ToolSet>();
    expectTypeOf(tools).toExtend<NonNullable<GenerateTextOptions["tools"]>>();
    expectTypeOf(tools).toExtend<NonNullable<StreamTextOptions["tools"]>>();
  });

  it("gives a prepareStep generateText and streamText take", () => {
    expectTypeOf(prepareStep).toExtend<NonNullable<GenerateTextOptions["prepareStep"]>>();
    expectTypeOf(prepareStep).toExtend<NonNullable<StreamTextOptions["prepareStep"]>>();
  });

  it("types each tool's output from the component: the snapshot and events, or a ToolError", () => {
    expectTypeOf<NonNullable<(typeof tools)[string]["execute"]>>().returns.resolves.toEqualTypeOf<
      AiSdkToolOutput<CounterState, CounterEvent>
    >();
    // The AI SDK types a result of a tool it knows (`dynamic` not set) by that tool's output.
    type Known = Extract<StepResult<typeof tools>["toolResults"][number], { dynamic?: false }>;
    expectTypeOf<
      Extract<Known["output"], { ok: true }>["snapshot"]
    >().toEqualTypeOf<CounterState>();
    expectTypeOf<Extract<Known["output"], { ok: true }>["events"]>().toEqualTypeOf<
      CounterEvent[]
    >();
    expectTypeOf<Extract<Known["output"], { ok: false }>["error"]>().toEqualTypeOf<ToolError>();
  });

  it("types the wait tool's output with what it says of the wait, told apart by `waited`", () => {
    type Output = AiSdkToolOutput<CounterState, CounterEvent>;
    type Wait = AiSdkWaitOutput<CounterState, CounterEvent>;
    expectTypeOf<Extract<Output, { waited: string }>>().toEqualTypeOf<Wait>();
    expectTypeOf<Wait["waited"]>().toEqualTypeOf<string>();
    expectTypeOf<Wait["available"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Wait["snapshot"]>().toEqualTypeOf<CounterState>();
    expectTypeOf<Wait["events"]>().toEqualTypeOf<CounterEvent[]>();
  });

  it("gives AI SDK 7's toolApproval as one function per tool, answering its approval status", () => {
    const { toolApproval } = aiSdkTools(new Counter());
    type Entry = (typeof toolApproval)[string];
    expectTypeOf<Parameters<Entry>[1]>().toEqualTypeOf<{ toolCallId: string }>();
    expectTypeOf<ReturnType<Entry>>().toEqualTypeOf<Promise<AiSdkApprovalStatus>>();
    expectTypeOf<AiSdkApprovalStatus>().toEqualTypeOf<"user-approval" | "not-applicable">();
  });

  it("composes with tools of the application's own", () => {
    const weather = tool({
      description: "The weather in a city.",
      inputSchema: jsonSchema<{ city: string }>({
        type: "object",
        properties: { city: { type: "string" } },
        required: ["city"],
      }),
      execute: async ({ city }) => `Sunny in ${city}`,
    });
    expectTypeOf({ ...tools, weather }).toExtend<ToolSet>();
    expectTypeOf({ ...tools, weather }).toExtend<NonNullable<GenerateTextOptions["tools"]>>();
    expectTypeOf(prepareStep().activeTools).toEqualTypeOf<string[]>();
  });
});
