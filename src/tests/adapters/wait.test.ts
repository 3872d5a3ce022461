/**
 * The model's wait tool through each framework adapter, run by the real framework: the AI SDK's
 * `generateText` with its own mock model, the OpenAI Agents SDK against a Chat Completions server
 * on 127.0.0.1, LangChain's `ToolNode`. In each, the wait is listed, answers with what happened,
 * lets a call made beside it run, and is cancelled by the framework's abort signal.
 */
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { Agent, OpenAIChatCompletionsModel, run } from "@openai/agents";
import { approval, ok, waitTool } from "ignite-element/tools";
import { type AiSdkToolOutput, aiSdkTools } from "ignite-element/tools/ai-sdk";
import { langchainTools } from "ignite-element/tools/langchain";
import { openai } from "ignite-element/tools/openai";
import { type AgentsTool, agentsTools } from "ignite-element/tools/openai-agents";
import { describe, expect, it, vi } from "vitest";
import type { RecordedRequest } from "../clients/recording-server.js";
import { oven } from "../shell/oven.js";
import { useAgentsServer } from "./agents-server.js";
import { offered, run as runAiSdk, scriptedModel, toolResultsIn } from "./ai-sdk-model.js";
import { callsCompletion, textCompletion, toolCall } from "./openai-fixtures.js";

const WAIT = { wait: waitTool({ maxMs: 30_000 }) };

/** What the wait answers once the oven reports it is preheated, the model's text of it. */
function preheatedText(temperature = 20): string {
  // The text the `openai` dialect gives the model for the same answer: every adapter gives the
  // same.
  const block = openai.toToolResult(
    { id: "call_1", name: "waitFor", input: {} },
    ok({
      waited: 'The event "preheated" happened.',
      snapshot: { temperature, preheated: true, door: "closed" },
      events: [{ type: "preheated" }],
      available: ["bake", "preheat"],
    }),
  );
  return String(block.content);
}

/** Resolves once the wait holds the oven's subscriptions (subscribe and onEvent): it waits. */
async function waiting(world: ReturnType<typeof oven>["world"], base = 0): Promise<void> {
  await vi.waitFor(() => expect(world.held()).toBe(base + 2));
}

describe("aiSdkTools with wait, run by AI SDK 6's generateText", () => {
  it("lists the wait tool beside the commands, active in every step", async () => {
    const { component } = oven();
    const { tools, prepareStep } = aiSdkTools(component, WAIT);
    const { model, requests } = scriptedModel(["Nothing to do."]);

    await runAiSdk("generateText", { model, tools, prepareStep });

    expect(Object.keys(tools)).toEqual(["bake", "preheat", "waitFor"]);
    expect(offered(requests[0])).toEqual(["preheat", "waitFor"]);
  });

  it("answers the wait with what happened, the same text the other dialects give, and keeps it in the output", async () => {
    const { component, world } = oven();
    const { tools, prepareStep } = aiSdkTools(component, WAIT);
    const { model, requests } = scriptedModel([
      [{ toolName: "waitFor", input: '{"event":"preheated"}' }],
      "The oven is hot.",
    ]);

    const running = runAiSdk("generateText", { model, tools, prepareStep });
    await waiting(world);
    world.preheated();
    const result = await running;

    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "text",
      value: preheatedText(),
    });
    // What the application reads in the step's results: the wait's answer, whole.
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      ok: true,
      waited: 'The event "preheated" happened.',
      snapshot: { temperature: 20, preheated: true, door: "closed" },
      events: [{ type: "preheated" }],
      available: ["bake", "preheat"],
    });
    expect(world.held()).toBe(0);
  });

  it("runs a call the model made beside the wait while the wait waits", async () => {
    const { component, world, state } = oven();
    const { tools, prepareStep } = aiSdkTools(component, WAIT);
    const { model, requests } = scriptedModel([
      [
        { toolName: "waitFor", input: '{"event":"preheated"}' },
        { toolName: "preheat", input: '{"target":200}' },
      ],
      "Preheated to 200.",
    ]);

    const running = runAiSdk("generateText", { model, tools, prepareStep });
    // The preheat runs while the wait waits: were it held up behind the wait, this never passes.
    await vi.waitFor(() => expect(state().temperature).toBe(200));
    await waiting(world);
    world.preheated();
    await running;

    const [wait, preheat] = toolResultsIn(requests[1]);
    expect(wait?.output).toEqual({ type: "text", value: preheatedText(200) });
    expect(preheat?.output).toMatchObject({ type: "text" });
  });

  it("is never held for approval: a wait acts on nothing, whatever the policy says", async () => {
    const { component } = oven();
    const { tools, prepareStep } = aiSdkTools(component, {
      ...WAIT,
      approve: approval(() => "ask"),
    });
    const { model } = scriptedModel([
      [
        { toolName: "waitFor", input: '{"seconds":0}' },
        { toolName: "preheat", input: '{"target":200}' },
      ],
      "unreachable",
    ]);

    const result = await runAiSdk("generateText", { model, tools, prepareStep });

    // The preheat waits for a person; the wait was answered at once.
    const parts = result.steps[0]?.content.map((part) => [
      part.type,
      part.type === "tool-approval-request"
        ? part.toolCall.toolName
        : "toolName" in part
          ? part.toolName
          : undefined,
    ]);
    expect(parts).toEqual([
      ["tool-call", "waitFor"],
      ["tool-call", "preheat"],
      ["tool-result", "waitFor"],
      ["tool-approval-request", "preheat"],
    ]);
  });

  it("is cancelled by the run's abort signal, and lets go of the component", async () => {
    const { component, world } = oven();
    const { tools, prepareStep } = aiSdkTools(component, WAIT);
    const wait = tools.waitFor;
    const execute = wait?.execute;
    if (!wait || !execute) throw new Error("the wait tool has no execute");
    let answered: AiSdkToolOutput | undefined;
    const watched: typeof tools = {
      ...tools,
      waitFor: {
        ...wait,
        execute: async (...args: Parameters<typeof execute>) => {
          const output = await execute(...args);
          if (Symbol.asyncIterator in output) throw new Error("not a streamed output");
          answered = output;
          return output;
        },
      },
    };
    const { model } = scriptedModel([[{ toolName: "waitFor", input: "{}" }], "unreachable"]);
    const controller = new AbortController();

    const running = runAiSdk("generateText", {
      model,
      tools: watched,
      prepareStep,
      abortSignal: controller.signal,
    });
    await waiting(world);
    controller.abort(new Error("the user left"));

    await expect(running).rejects.toThrow("the user left");
    await vi.waitFor(() => expect(answered).toBeDefined());
    expect(answered).toMatchObject({
      ok: false,
      error: {
        kind: "ExecuteFailed",
        reason: "cancelled",
        message: 'Command "waitFor" failed: was cancelled while it waited; waiting changes nothing',
      },
    });
    expect(world.held()).toBe(0);
  });
});

describe("agentsTools with wait, run by the OpenAI Agents SDK", () => {
  const { server, client } = useAgentsServer();

  const agentWith = (tools: AgentsTool[]) =>
    new Agent({
      name: "Cook",
      instructions: "Bake when the oven is ready.",
      model: new OpenAIChatCompletionsModel(client(), "gpt-4o"),
      tools,
    });
  const offeredIn = (request: RecordedRequest | undefined) =>
    ((request?.body.tools ?? []) as Array<{ function: { name: string; strict: boolean } }>).map(
      (tool) => tool.function,
    );
  const toolResults = (request: RecordedRequest | undefined) =>
    Object.fromEntries(
      (
        (request?.body.messages ?? []) as Array<{
          role: string;
          tool_call_id: string;
          content: unknown;
        }>
      )
        .filter((message) => message.role === "tool")
        .map((message) => [message.tool_call_id, message.content]),
    );

  it("lists the wait tool, enabled, and sends it in strict form with strict: true", async () => {
    const { component } = oven();
    server.reply(textCompletion("Nothing to do."));

    await run(agentWith(agentsTools(component, { ...WAIT, strict: true })), "Wait for the oven.");

    const sent = offeredIn(server.received[0]);
    expect(sent.map((tool) => [tool.name, tool.strict])).toEqual([
      ["preheat", true],
      ["waitFor", true],
    ]);
  });

  it("answers the wait with what happened, the same text the other dialects give", async () => {
    const { component, world } = oven();
    server.reply(
      callsCompletion(toolCall("call_1", "waitFor", '{"event":"preheated"}')),
      textCompletion("The oven is hot."),
    );

    const running = run(agentWith(agentsTools(component, WAIT)), "Wait for the oven.");
    await waiting(world);
    world.preheated();

    expect((await running).finalOutput).toBe("The oven is hot.");
    expect(toolResults(server.received[1])).toEqual({ call_1: preheatedText() });
    expect(world.held()).toBe(0);
  });

  it("reads a strict model's nulls as the properties it left out", async () => {
    const { component, world } = oven();
    server.reply(
      callsCompletion(
        toolCall("call_1", "waitFor", '{"event":"preheated","available":null,"seconds":null}'),
      ),
      textCompletion("The oven is hot."),
    );

    const running = run(
      agentWith(agentsTools(component, { ...WAIT, strict: true })),
      "Wait for the oven.",
    );
    await waiting(world);
    world.preheated();
    await running;

    expect(toolResults(server.received[1])).toEqual({ call_1: preheatedText() });
  });

  it("runs a call the model made beside the wait while the wait waits", async () => {
    const { component, world, state } = oven();
    server.reply(
      callsCompletion(
        toolCall("call_1", "waitFor", '{"event":"preheated"}'),
        toolCall("call_2", "preheat", '{"target":200}'),
      ),
      textCompletion("Preheated to 200."),
    );

    const running = run(agentWith(agentsTools(component, WAIT)), "Preheat and wait.");
    await vi.waitFor(() => expect(state().temperature).toBe(200));
    await waiting(world);
    world.preheated();
    await running;

    expect(toolResults(server.received[1])).toMatchObject({ call_1: preheatedText(200) });
  });

  it("is cancelled by the run's abort signal, and lets go of the component", async () => {
    const { component, world } = oven();
    server.reply(callsCompletion(toolCall("call_1", "waitFor", "{}")));
    const controller = new AbortController();

    const running = run(agentWith(agentsTools(component, WAIT)), "Wait.", {
      signal: controller.signal,
    });
    await waiting(world);
    controller.abort(new Error("the user left"));

    await expect(running).rejects.toThrow();
    await vi.waitFor(() => expect(world.held()).toBe(0));
    expect(server.received).toHaveLength(1);
  });
});

describe("langchainTools with wait, run by LangGraph's ToolNode", () => {
  const toolCallsOf = (...calls: Array<[id: string, name: string, args: object]>) => ({
    messages: [
      new AIMessage({
        content: "",
        tool_calls: calls.map(([id, name, args]) => ({ id, name, args, type: "tool_call" })),
      }),
    ],
  });
  const read = (messages: unknown[]) =>
    messages.map((message) => {
      if (!(message instanceof ToolMessage)) throw new Error("not a ToolMessage");
      return { id: message.tool_call_id, status: message.status, content: message.content };
    });

  it("lists the wait tool with its schema for bindTools", () => {
    const tools = langchainTools(oven().component, WAIT);

    expect(tools.map((tool) => tool.name)).toEqual(["bake", "preheat", "waitFor"]);
    expect(tools[2]?.schema).toMatchObject({
      type: "object",
      properties: { event: { enum: ["preheated", "doorOpened", "doorClosed", "baking"] } },
    });
  });

  it("answers the wait with what happened, the same text the other dialects give", async () => {
    const { component, world } = oven();
    const node = new ToolNode(langchainTools(component, WAIT));

    const running = node.invoke(toolCallsOf(["call_1", "waitFor", { event: "preheated" }]));
    await waiting(world);
    world.preheated();
    const { messages } = await running;

    expect(read(messages)).toEqual([{ id: "call_1", status: "success", content: preheatedText() }]);
    expect(world.held()).toBe(0);
  });

  it("runs a call the model made beside the wait while the wait waits", async () => {
    const { component, world, state } = oven();
    const node = new ToolNode(langchainTools(component, WAIT));

    const running = node.invoke(
      toolCallsOf(
        ["call_1", "waitFor", { event: "preheated" }],
        ["call_2", "preheat", { target: 200 }],
      ),
    );
    await vi.waitFor(() => expect(state().temperature).toBe(200));
    await waiting(world);
    world.preheated();
    const { messages } = await running;

    expect(read(messages).map(({ id, status }) => [id, status])).toEqual([
      ["call_1", "success"],
      ["call_2", "success"],
    ]);
    expect(read(messages)[0]?.content).toBe(preheatedText(200));
  });

  it("is cancelled by the run's abort signal, answered as such, and lets go of the component", async () => {
    const { component, world } = oven();
    const node = new ToolNode(langchainTools(component, WAIT));
    const controller = new AbortController();

    const running = node.invoke(toolCallsOf(["call_1", "waitFor", {}]), {
      signal: controller.signal,
    });
    await waiting(world);
    controller.abort(new Error("the user left"));
    const { messages } = await running;

    expect(read(messages)).toEqual([
      {
        id: "call_1",
        status: "error",
        content:
          'Error (ExecuteFailed): Command "waitFor" failed: was cancelled while it waited; waiting changes nothing',
      },
    ]);
    expect(world.held()).toBe(0);
  });
});
