import type { Tool } from "ai";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AiSdkStreamedOutput,
  type AiSdkToolOutput,
  type AiSdkToolRunning,
  aiSdkTools,
} from "../../tools/adapters/ai-sdk.js";
import type { ServeMcpOptions } from "../../tools/hosts/mcp/server.js";
import {
  type AgentComponent,
  type CommandSchema,
  type ExecuteContext,
  type InvokeOptions,
  igniteTools,
  type LogEntry,
  type LogLevel,
  type NeutralToolCall,
  type ProgressUpdate,
  runToolLoop,
  type ToolError,
  type ToolLoopOptions,
  type ToolOffer,
} from "../../tools/index.js";

describe("the execute context, as a component's author sees it", () => {
  it("types context.signal as the platform's AbortSignal, so fetch and friends take it", () => {
    expectTypeOf<ExecuteContext["signal"]>().toEqualTypeOf<AbortSignal>();
    expectTypeOf<ExecuteContext["signal"]>().toMatchTypeOf<RequestInit["signal"]>();
  });

  it("types progress and log by MCP's vocabulary", () => {
    expectTypeOf<ExecuteContext["progress"]>().parameter(0).toEqualTypeOf<ProgressUpdate>();
    expectTypeOf<ExecuteContext["log"]>().parameter(0).toEqualTypeOf<LogLevel>();
    expectTypeOf<LogLevel>().toEqualTypeOf<
      "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"
    >();
  });

  it("types execute's third parameter as an optional ExecuteContext", () => {
    const component: AgentComponent<number> = {
      getSchema: () => ({ commands: { count: {} } }),
      execute(_command, _input, context) {
        expectTypeOf(context).toEqualTypeOf<ExecuteContext | undefined>();
        return { state: 1, events: [] };
      },
    };
    expectTypeOf(igniteTools(component).invoke).toBeFunction();
  });

  it("still takes a component whose execute has no context parameter", () => {
    const plain = {
      getSchema: () => ({ commands: { count: {} } }),
      execute: (command: string) => ({ state: command.length, events: [] }),
    };
    expectTypeOf(plain).toMatchTypeOf<AgentComponent<number>>();
  });
});

describe("who hears it", () => {
  it("types the per-call listeners with the call they come from", () => {
    expectTypeOf<NonNullable<InvokeOptions["onProgress"]>>().parameters.toEqualTypeOf<
      [ProgressUpdate, NeutralToolCall]
    >();
    expectTypeOf<NonNullable<InvokeOptions["onLog"]>>().parameters.toEqualTypeOf<
      [LogEntry, NeutralToolCall]
    >();
  });

  it("gives runToolLoop the same listeners", () => {
    type Options = ToolLoopOptions<unknown, never, unknown, unknown, unknown, unknown>;
    expectTypeOf<Options["onProgress"]>().toEqualTypeOf<InvokeOptions["onProgress"]>();
    expectTypeOf<Options["onLog"]>().toEqualTypeOf<InvokeOptions["onLog"]>();
    expectTypeOf(runToolLoop).toBeFunction();
  });

  it("types the AI SDK's tools' output with the preliminary one only when asked for", () => {
    const oven: AgentComponent<{ hot: boolean }> = {
      getSchema: () => ({ commands: { preheat: {} } }),
      execute: () => ({ state: { hot: true }, events: [] }),
    };
    type OutputOf<T> = T extends Tool<unknown, infer Output> ? Output : never;
    const plain = aiSdkTools(oven).tools;
    const streamed = aiSdkTools(oven, { preliminary: true }).tools;
    expectTypeOf<OutputOf<(typeof plain)[string]>>().toEqualTypeOf<
      AiSdkToolOutput<{ hot: boolean }>
    >();
    expectTypeOf<OutputOf<(typeof streamed)[string]>>().toEqualTypeOf<
      AiSdkStreamedOutput<{ hot: boolean }>
    >();
    expectTypeOf<
      Extract<AiSdkStreamedOutput, { running: true }>
    >().toEqualTypeOf<AiSdkToolRunning>();
    // The final outputs narrow on `ok` as they always did.
    const read = (output: AiSdkToolOutput<{ hot: boolean }>) =>
      output.ok ? output.snapshot.hot : output.error.kind;
    expectTypeOf(read).returns.toEqualTypeOf<boolean | ToolError["kind"]>();
  });
});

describe("what a command declares for hosts", () => {
  it("takes a title and an availableWhen sentence", () => {
    expectTypeOf<CommandSchema["title"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CommandSchema["availableWhen"]>().toEqualTypeOf<string | undefined>();
  });

  it("names the offer the same for igniteTools and serveMcp", () => {
    expectTypeOf<ToolOffer>().toEqualTypeOf<"available" | "declared">();
    expectTypeOf<ServeMcpOptions["offer"]>().toEqualTypeOf<ToolOffer | undefined>();
  });
});
