import type { BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { langchainTools } from "ignite-element/tools/langchain";
import { describe, expectTypeOf, it } from "vitest";
import { ScriptedChatModel } from "../adapters/scripted-chat-model.js";
import { Counter } from "../fixtures.js";

describe("langchainTools types against @langchain/core 1.4 and @langchain/langgraph 1.7", () => {
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
});
