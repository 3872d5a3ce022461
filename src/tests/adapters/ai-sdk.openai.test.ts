import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { aiSdkTools } from "../../tools/adapters/ai-sdk.js";
import { useRecordingServer } from "../clients/recording-server.js";
import { counterWithTodos } from "../fixtures.js";
import { callsCompletion, textCompletion, toolCall } from "./openai-fixtures.js";

const server = useRecordingServer();

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("aiSdkTools end to end: @ai-sdk/openai against a recording server on 127.0.0.1", () => {
  it("sends safe names and object roots, and maps the model's calls back to the exact commands", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const { tools, prepareStep } = aiSdkTools(component);
    const todoAdd = Object.keys(tools).find((name) => name.startsWith("todo_add_")) ?? "";
    server.reply(
      callsCompletion(
        toolCall("call_milk", todoAdd, '{"value":"milk"}'),
        toolCall("call_limit", "setLimit", '{"value":99}'),
        toolCall("call_inc", "increment", '{"by":2}'),
      ),
      textCompletion("Added milk."),
    );
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key" });

    const result = await generateText({
      model: openai.chat("gpt-4o"),
      tools,
      prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "Add milk to my list.",
    });

    expect(result.text).toBe("Added milk.");
    expect(todos).toEqual(["milk"]);
    expect(counter.state.count).toBe(2);

    const [first, second] = server.received;
    if (!first || !second) throw new Error(`expected two requests, got ${server.received.length}`);
    expect(first.path).toBe("/v1/chat/completions");
    const sent = first.body.tools as Array<{ type: string; function: Record<string, unknown> }>;
    // Gated `reset` (count is 0) and `unlock` are not offered; every name is one OpenAI accepts.
    expect(sent.map((tool) => tool.function.name)).toEqual(["increment", "setLimit", todoAdd]);
    for (const tool of sent) {
      expect(tool.type).toBe("function");
      expect(tool.function.name).toMatch(OPENAI_NAME);
      expect(tool.function.parameters).toMatchObject({ type: "object" });
      expect(tool.function).not.toHaveProperty("strict");
    }
    expect(sent[2]?.function).toEqual({
      name: todoAdd,
      description: "Add a todo.",
      parameters: {
        type: "object",
        properties: { value: { type: "string", minLength: 1 } },
        required: ["value"],
        additionalProperties: false,
      },
    });

    // Each call answered once, in order, with its id; the refused one tells the model why.
    const answers = (second.body.messages as Array<Record<string, unknown>>).filter(
      (message) => message.role === "tool",
    );
    expect(answers.map((message) => message.tool_call_id)).toEqual([
      "call_milk",
      "call_limit",
      "call_inc",
    ]);
    expect(answers[1]?.content).toBe(
      'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\n' +
        'Issues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
    );
    expect(JSON.parse(String(answers[2]?.content))).toMatchObject({
      snapshot: { count: 2, todos: ["milk"] },
    });
    // The next step offers `reset`, now that the count is above zero.
    const offeredNext = (second.body.tools as Array<{ function: { name: string } }>).map(
      (tool) => tool.function.name,
    );
    expect(offeredNext).toEqual(["increment", "reset", "setLimit", todoAdd]);
  });
});
