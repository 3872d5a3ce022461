import type { ChatRequest, ChatResponse, Message, Tool } from "ollama";
import { describe, expectTypeOf, it } from "vitest";
import {
  type OllamaChatResponse,
  type OllamaMessage,
  type OllamaTool,
  type OllamaToolMessage,
  ollama,
} from "../../tools/dialects/ollama/dialect.js";
import { igniteTools } from "../../tools/index.js";
import { Counter } from "../fixtures.js";

describe("the ollama dialect's types against the ollama SDK", () => {
  const bridge = igniteTools(new Counter(), ollama);

  it("emits tool definitions the SDK's chat request accepts", () => {
    expectTypeOf<OllamaTool>().toExtend<Tool>();
    expectTypeOf(bridge.toToolDefs()).toExtend<ChatRequest["tools"]>();
  });

  it("reads the SDK's ChatResponse without a cast", () => {
    expectTypeOf<ChatResponse>().toExtend<Parameters<typeof ollama.parseToolCalls>[0]>();
    expectTypeOf<ChatResponse>().toExtend<Parameters<typeof bridge.handleToolCalls>[0]>();
    expectTypeOf<ChatResponse>().toExtend<OllamaChatResponse>();
  });

  it("answers with tool messages and a conversation the SDK's chat request accepts", () => {
    expectTypeOf<OllamaToolMessage>().toExtend<Message>();
    expectTypeOf<OllamaMessage>().toExtend<Message>();
    expectTypeOf(bridge.appendTurn).returns.toExtend<ChatRequest["messages"]>();
  });

  it("takes the SDK's own messages as the conversation so far", () => {
    expectTypeOf<Message[]>().toExtend<Parameters<typeof bridge.appendTurn>[0]>();
  });

  it("is both the dialect and a factory taking no options", () => {
    expectTypeOf(ollama().appendTurn).toEqualTypeOf(ollama.appendTurn);
    // @ts-expect-error ollama has no options yet
    ollama({ strict: true });
  });
});
