import type { BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import {
  langchainActiveTools,
  langchainInterruptOn,
  langchainTools,
} from "ignite-element/tools/langchain";
import {
  type AnyAgentMiddleware,
  createAgent,
  createMiddleware,
  humanInTheLoopMiddleware,
  type InterruptOnConfig,
} from "langchain";
import { describe, expectTypeOf, it } from "vitest";
import { approval, toolSearch } from "../../tools/index.js";
import { ScriptedChatModel } from "../adapters/scripted-chat-model.js";
import { Counter } from "../fixtures.js";

describe("langchainTools types against @langchain/core 1.4, @langchain/langgraph 1.7 and langchain 1.5", () => {
  it("returns structured tools that bindTools and ToolNode take", () => {
    const tools = langchainTools(new Counter());
    expectTypeOf(tools).toEqualTypeOf<StructuredToolInterface[]>();
    expectTypeOf(tools).toExtend<BindToolsInput[]>();
    new ScriptedChatModel([]).bindTools(tools);
    new FakeStreamingChatModel({}).bindTools(tools);
    new ToolNode(tools);
  });

  it("types the options from the component", () => {
    langchainTools(new Counter(), {
      timeoutMs: 1_000,
      project: ({ snapshot, events }) => {
        expectTypeOf(snapshot.limit).toEqualTypeOf<number>();
        return { snapshot: snapshot.limit, events };
      },
    });
    // @ts-expect-error maxResultChars is a number
    langchainTools(new Counter(), { maxResultChars: "all" });
  });

  it("gives humanInTheLoopMiddleware an interruptOn, for createAgent's middleware", () => {
    const tools = langchainTools(new Counter(), { approve: approval(() => "ask") });
    const interruptOn = langchainInterruptOn(tools);
    expectTypeOf(interruptOn).toExtend<Record<string, InterruptOnConfig>>();
    createAgent({
      model: new ScriptedChatModel([]),
      tools,
      middleware: [humanInTheLoopMiddleware({ interruptOn })],
    });
  });

  it("gives createAgent a middleware, which createMiddleware takes as its configuration too", () => {
    const tools = langchainTools(new Counter(), { search: toolSearch({ onDemand: true }) });
    const middleware = langchainActiveTools(tools);
    expectTypeOf(middleware).toExtend<AnyAgentMiddleware>();
    createAgent({ model: new ScriptedChatModel([]), tools, middleware: [middleware] });
    createAgent({
      model: new ScriptedChatModel([]),
      tools,
      middleware: [createMiddleware(middleware), humanInTheLoopMiddleware({ interruptOn: {} })],
    });
  });
});
