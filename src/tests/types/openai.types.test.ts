import type {
  ChatCompletion,
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionToolCall,
  ResponseInput,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  Tool,
} from "openai/resources/responses/responses";
import { describe, expectTypeOf, it } from "vitest";
import {
  type OpenAIChatAssistantMessage,
  type OpenAIChatMessage,
  type OpenAIChatResponse,
  type OpenAIChatTool,
  type OpenAIChatToolMessage,
  type OpenAIResponsesItem,
  type OpenAIResponsesResponse,
  type OpenAIResponsesTool,
  type OpenAIResponsesToolResult,
  openai,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import { igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

describe("openai (Chat Completions) types against openai 6.49.0", () => {
  it("offers tool defs the SDK accepts as `tools`", () => {
    expectTypeOf<OpenAIChatTool>().toExtend<ChatCompletionFunctionTool>();
    expectTypeOf<OpenAIChatTool>().toExtend<ChatCompletionTool>();
    const bridge = igniteTools(new Counter(), openai({ strict: true }));
    expectTypeOf(bridge.toToolDefs()).toExtend<ChatCompletionCreateParamsNonStreaming["tools"]>();
    expectTypeOf(openai.toToolDefs).returns.toExtend<ChatCompletionTool[]>();
  });

  it("accepts the SDK's ChatCompletion as a response without a cast", () => {
    expectTypeOf<ChatCompletion>().toExtend<OpenAIChatResponse>();
    expectTypeOf<ChatCompletion>().toExtend<Parameters<typeof openai.parseToolCalls>[0]>();
    expectTypeOf<ChatCompletion>().toExtend<Parameters<typeof openai.appendTurn>[1]>();
    const bridge = igniteTools(new Counter(), openai);
    expectTypeOf<ChatCompletion>().toExtend<Parameters<typeof bridge.handleToolCalls>[0]>();
    expectTypeOf<ChatCompletion>().toExtend<Parameters<typeof bridge.appendTurn>[1]>();
  });

  it("answers with tool messages the SDK accepts", () => {
    expectTypeOf<OpenAIChatToolMessage>().toExtend<ChatCompletionToolMessageParam>();
    const bridge = igniteTools(new Counter(), openai);
    expectTypeOf(bridge.handleToolCalls).returns.resolves.toEqualTypeOf<OpenAIChatToolMessage[]>();
  });

  it("re-sends the SDK's assistant message, which the SDK accepts as a request message", () => {
    expectTypeOf<ChatCompletionMessage>().toExtend<ChatCompletionAssistantMessageParam>();
    expectTypeOf<ChatCompletionMessage>().toExtend<OpenAIChatAssistantMessage>();
    expectTypeOf<OpenAIChatAssistantMessage>().toExtend<ChatCompletionAssistantMessageParam>();
  });

  it("appends messages the SDK accepts, and takes a history typed with the SDK's messages", () => {
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParam>();
    expectTypeOf<ChatCompletionMessageParam>().toExtend<OpenAIChatMessage>();
    const bridge = igniteTools(new Counter(), openai);
    expectTypeOf(bridge.appendTurn).returns.toExtend<
      ChatCompletionCreateParamsNonStreaming["messages"]
    >();
    expectTypeOf<ChatCompletionMessageParam[]>().toExtend<
      Parameters<typeof bridge.appendTurn>[0]
    >();
  });
});

describe("openaiResponses types against openai 6.49.0", () => {
  it("offers tool defs the SDK accepts as `tools`, strict always set", () => {
    expectTypeOf<OpenAIResponsesTool>().toExtend<FunctionTool>();
    expectTypeOf<OpenAIResponsesTool>().toExtend<Tool>();
    expectTypeOf<OpenAIResponsesTool["strict"]>().toEqualTypeOf<boolean>();
    const bridge = igniteTools(new Counter(), openaiResponses({ strict: true }));
    expectTypeOf(bridge.toToolDefs()).toExtend<ResponseCreateParamsNonStreaming["tools"]>();
  });

  it("accepts the SDK's Response without a cast", () => {
    expectTypeOf<Response>().toExtend<OpenAIResponsesResponse>();
    expectTypeOf<Response>().toExtend<Parameters<typeof openaiResponses.parseToolCalls>[0]>();
    const bridge = igniteTools(new Counter(), openaiResponses);
    expectTypeOf<Response>().toExtend<Parameters<typeof bridge.handleToolCalls>[0]>();
    expectTypeOf<Response>().toExtend<Parameters<typeof bridge.appendTurn>[1]>();
  });

  it("answers with function_call_output items the SDK accepts", () => {
    expectTypeOf<OpenAIResponsesToolResult>().toExtend<ResponseInputItem.FunctionCallOutput>();
    const bridge = igniteTools(new Counter(), openaiResponses);
    expectTypeOf(bridge.handleToolCalls).returns.resolves.toEqualTypeOf<
      OpenAIResponsesToolResult[]
    >();
  });

  it("appends input items the SDK accepts as `input`", () => {
    expectTypeOf<OpenAIResponsesItem>().toExtend<ResponseInputItem>();
    const bridge = igniteTools(new Counter(), openaiResponses);
    expectTypeOf(bridge.appendTurn).returns.toExtend<ResponseInput>();
    // The items a function-calling turn produces are valid input items in the SDK's types too.
    expectTypeOf<ResponseFunctionToolCall>().toExtend<OpenAIResponsesItem>();
    expectTypeOf<ResponseReasoningItem>().toExtend<OpenAIResponsesItem>();
    expectTypeOf<ResponseOutputMessage>().toExtend<OpenAIResponsesItem>();
  });

  it("documents why appendTurn needs its one assertion: the SDK's output items are not all input items", () => {
    expectTypeOf<ResponseOutputItem[]>().not.toExtend<ResponseInput>();
    expectTypeOf<ResponseOutputMessage>().toExtend<ResponseInputItem>();
  });
});
