import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
  ToolResultBlockParam,
  ToolUnion,
} from "@anthropic-ai/sdk/resources/messages";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AnthropicContentBlockParam,
  type AnthropicDialect,
  type AnthropicMessage,
  type AnthropicResponse,
  type AnthropicTool,
  type AnthropicToolResult,
  anthropic,
} from "../../tools/dialects/anthropic/dialect.js";
import { igniteTools, runToolLoop } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

describe("anthropic types against @anthropic-ai/sdk 1.16.0", () => {
  it("offers tool defs the SDK accepts as `tools`", () => {
    expectTypeOf<AnthropicTool>().toExtend<Tool>();
    expectTypeOf<AnthropicTool>().toExtend<ToolUnion>();
    expectTypeOf(anthropic.toToolDefs).returns.toExtend<MessageCreateParamsNonStreaming["tools"]>();
    const bridge = igniteTools(new Counter(), anthropic({ strict: true }));
    expectTypeOf(bridge.toToolDefs()).toExtend<ToolUnion[]>();
  });

  it("accepts the SDK's Message as a response without a cast", () => {
    expectTypeOf<Message>().toExtend<AnthropicResponse>();
    expectTypeOf<Message>().toExtend<Parameters<typeof anthropic.parseToolCalls>[0]>();
    expectTypeOf<Message>().toExtend<Parameters<typeof anthropic.appendTurn>[1]>();
    const bridge = igniteTools(new Counter(), anthropic);
    expectTypeOf<Message>().toExtend<Parameters<typeof bridge.handleToolCalls>[0]>();
    expectTypeOf<Message>().toExtend<Parameters<typeof bridge.appendTurn>[1]>();
  });

  it("answers with result blocks the SDK accepts in a user message", () => {
    expectTypeOf<AnthropicToolResult>().toExtend<ToolResultBlockParam>();
    expectTypeOf<AnthropicToolResult>().toExtend<ContentBlockParam>();
    const bridge = igniteTools(new Counter(), anthropic);
    expectTypeOf(bridge.handleToolCalls).returns.resolves.toEqualTypeOf<AnthropicToolResult[]>();
  });

  it("appends messages the SDK accepts as `messages`", () => {
    expectTypeOf<AnthropicContentBlockParam>().toExtend<ContentBlockParam>();
    expectTypeOf<AnthropicMessage>().toExtend<MessageParam>();
    const bridge = igniteTools(new Counter(), anthropic);
    expectTypeOf(bridge.appendTurn).returns.toEqualTypeOf<AnthropicMessage[]>();
    expectTypeOf(bridge.appendTurn).returns.toExtend<MessageCreateParamsNonStreaming["messages"]>();
  });

  it("takes a history typed as the SDK's MessageParam[], and gives back one the SDK takes", () => {
    expectTypeOf<MessageParam>().toExtend<AnthropicMessage>();
    expectTypeOf<ContentBlockParam>().toExtend<AnthropicContentBlockParam>();
    const bridge = igniteTools(new Counter(), anthropic);
    const history: Anthropic.MessageParam[] = [{ role: "user", content: "Count to three." }];
    expectTypeOf(history).toExtend<Parameters<typeof bridge.appendTurn>[0]>();
    expectTypeOf(bridge.appendTurn).returns.toExtend<MessageParam[]>();
  });

  it("runs runToolLoop over an SDK-typed history with the real client, without a cast", () => {
    const client = {} as Anthropic;
    const history: Anthropic.MessageParam[] = [{ role: "user", content: "Count to three." }];
    const loop = () =>
      runToolLoop({
        tools: igniteTools(new Counter(), anthropic),
        messages: history,
        model: ({ tools, messages }) =>
          client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 1024, tools, messages }),
      });
    expectTypeOf(loop).returns.resolves.toHaveProperty("messages").toExtend<MessageParam[]>();
  });

  it("is both the default dialect and a factory with the same types", () => {
    expectTypeOf(anthropic({ strict: true })).toEqualTypeOf<AnthropicDialect>();
    expectTypeOf(anthropic).toExtend<AnthropicDialect>();
    // @ts-expect-error the only option is `strict`
    anthropic({ schema: "openapi" });
  });
});
