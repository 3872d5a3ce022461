import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { buildManifest } from "ignite-element/tools";
import { langchainTools } from "ignite-element/tools/langchain";
import { openai } from "ignite-element/tools/openai";
import { describe, expect, it, vi } from "vitest";
import type { AgentComponent } from "../../tools/index.js";
import { ScriptedChatModel } from "./scripted-chat-model.js";
import { thermostat } from "./thermostat.js";

/** The tool whose provider-safe name starts with `prefix`. */
function toolNamed(tools: StructuredToolInterface[], prefix: string): StructuredToolInterface {
  const found = tools.find((tool) => tool.name.startsWith(prefix));
  if (!found) throw new Error(`no tool named ${prefix}…`);
  return found;
}

function callOf(tool: StructuredToolInterface, args: Record<string, unknown>, id = "call_1") {
  return { id, name: tool.name, args, type: "tool_call" } satisfies ToolCall;
}

/** What a ToolMessage tells the model: its id, status and text. */
function read(message: unknown) {
  if (!(message instanceof ToolMessage)) throw new Error(`not a ToolMessage: ${String(message)}`);
  return { id: message.tool_call_id, status: message.status, content: message.content };
}

const observation = (target: number) =>
  JSON.stringify({
    snapshot: { target, mode: "off", boosted: false, schedule: [] },
    events: [{ type: "target.set", payload: target }],
  });

describe("langchainTools with the real @langchain/core", () => {
  it("gives bindTools each command's own schema, object-rooted, under a provider-safe name", () => {
    const device = thermostat();
    const tools = langchainTools(device.component);
    const declared = buildManifest(device.component.getSchema());
    // The same definitions the `openai` dialect sends for every declared command.
    expect(tools.map((tool) => convertToOpenAITool(tool))).toEqual(
      openai.toToolDefs(declared).map(({ function: { name, description, parameters } }) => ({
        type: "function",
        function: { name, description: description ?? "", parameters },
      })),
    );
  });

  it("says in a gated command's description, and in its Unavailable answer, when it is available", async () => {
    const { component } = thermostat({ boostAvailableWhen: "only while heating" });
    const boost = toolNamed(langchainTools(component), "boost");

    // A bound tool list is fixed, so the model reads when before it ever calls.
    expect(boost.description).toBe("Full power for 10 minutes. Available only while heating.");
    expect(read(await boost.invoke(callOf(boost, {}))).content).toBe(
      'Error (Unavailable): Command "boost" is not available in the current state. It is available only while heating; until then, use another tool.',
    );
  });

  it("answers a ToolCall from the model's AIMessage with a ToolMessage carrying the observation", async () => {
    const device = thermostat();
    const tools = langchainTools(device.component);
    const target = toolNamed(tools, "target_set_");
    const model = new ScriptedChatModel([
      new AIMessage({ content: "", tool_calls: [callOf(target, { value: 22 })] }),
    ]);

    const reply = await model.bindTools(tools).invoke([new HumanMessage("Set 22 °C.")]);
    const [toolCall] = reply.tool_calls ?? [];
    if (!toolCall) throw new Error("the model made no tool call");
    const answer = await target.invoke(toolCall);

    expect(read(answer)).toEqual({ id: "call_1", status: "success", content: observation(22) });
    expect(device.calls).toEqual([{ command: "target.set", input: 22 }]);
    expect(model.requests[0]?.tools).toEqual(tools.map((tool) => convertToOpenAITool(tool)));
  });

  it("keeps the call's full outcome as the ToolMessage's artifact, beside the text the model reads", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");

    const done = await target.invoke(callOf(target, { value: 22 }));
    expect(done).toBeInstanceOf(ToolMessage);
    expect(done.artifact).toEqual({
      ok: true,
      snapshot: { target: 22, mode: "off", boosted: false, schedule: [] },
      events: [{ type: "target.set", payload: 22 }],
    });
    const refused = await target.invoke(callOf(target, { value: 35 }, "call_2"));
    expect(refused.artifact).toMatchObject({ ok: false, error: { kind: "InvalidInput" } });
  });

  it("sends input LangChain's own check rejects to the bridge, so the model reads the bridge's issues", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");

    const answer = await target.invoke(callOf(target, { value: 35 }));

    expect(read(answer)).toEqual({
      id: "call_1",
      status: "error",
      content: `Error (InvalidInput): Invalid input for "${target.name}": input must be <= 30. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 30","keyword":"maximum"}]`,
    });
    expect(device.calls).toEqual([]);
  });

  it("answers a command that is not available now Unavailable, with status error", async () => {
    const device = thermostat();
    const boost = toolNamed(langchainTools(device.component), "boost");

    expect(read(await boost.invoke(callOf(boost, {})))).toEqual({
      id: "call_1",
      status: "error",
      content:
        'Error (Unavailable): Command "boost" is not available in the current state. Use one of the tools offered now.',
    });
    await device.component.execute("setMode", "heat");
    expect(read(await boost.invoke(callOf(boost, {}, "call_2"))).status).toBe("success");
  });

  it("answers a failing execute with a ToolMessage of status error, never a throw", async () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { save: { description: "Save the plan." } } }),
      execute: () => Promise.reject(new Error("disk full")),
    };
    const [save] = langchainTools(component);
    if (!save) throw new Error("no tool");

    expect(read(await save.invoke(callOf(save, {})))).toEqual({
      id: "call_1",
      status: "error",
      content: 'Error (ExecuteFailed): Command "save" failed: disk full',
    });
  });

  it("answers bare arguments with the text alone, whether LangChain accepts them or not", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");

    expect(await target.invoke({ value: 12 })).toBe(observation(12));
    expect(await target.invoke({ value: 9 })).toMatch(/^Error \(InvalidInput\): .*must be >= 10/);
    expect(device.calls).toEqual([{ command: "target.set", input: 12 }]);
  });

  it("passes the abort signal to the bridge: an aborted call is answered and never executes", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");
    const controller = new AbortController();
    controller.abort(new Error("user left"));

    const answer = await target.invoke(callOf(target, { value: 22 }), {
      signal: controller.signal,
    });

    expect(read(answer)).toEqual({
      id: "call_1",
      status: "error",
      content: `Error (ExecuteFailed): Command "${target.name}" failed: was aborted before it ran; nothing was executed`,
    });
    expect(device.calls).toEqual([]);
  });

  it("reads a ToolCall handed to the deprecated call() as LangChain does", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");

    expect(read(await target.call(callOf(target, { value: 40 }, "call_9"))).id).toBe("call_9");
    const { id: _none, ...withoutId } = callOf(target, { value: 40 });
    expect(await target.call(withoutId)).toMatch(/^Error \(InvalidInput\): .*must be <= 30/);
    expect(read(await target.call(callOf(target, { value: 21 }, "call_10")))).toEqual({
      id: "call_10",
      status: "success",
      content: observation(21),
    });
  });

  it("rethrows what LangChain throws for any other reason", async () => {
    const device = thermostat();
    const target = toolNamed(langchainTools(device.component), "target_set_");
    const failing = {
      handleToolStart: () => {
        throw new Error("tracer down");
      },
      raiseError: true,
      awaitHandlers: true,
    };

    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(
      target.invoke(callOf(target, { value: 22 }), { callbacks: [failing] }),
    ).rejects.toThrow("tracer down");
    logged.mockRestore();
    expect(device.calls).toEqual([]);
  });

  it("gives names every provider accepts, and maps them back to the exact command", async () => {
    const ran: unknown[] = [];
    const component: AgentComponent = {
      getSchema: () => ({ commands: { "2fa.reset": { input: { type: "string" } } } }),
      execute: (command, input) => {
        ran.push([command, input]);
        return { state: {}, events: [] };
      },
    };
    const [reset] = langchainTools(component);
    if (!reset) throw new Error("no tool");

    expect(reset.name).toMatch(/^_2fa_reset_[a-z0-9]+$/);
    await reset.invoke(callOf(reset, { value: "alice" }));
    expect(ran).toEqual([["2fa.reset", "alice"]]);
  });

  it("leaves the application's schema objects as they are, frozen ones included", async () => {
    const input = Object.freeze({
      type: "object",
      properties: Object.freeze({ note: Object.freeze({ type: "string" }) }),
      required: Object.freeze(["note"]),
    });
    const component: AgentComponent = {
      getSchema: () => ({ commands: { note: { input } } }),
      execute: (_command, note) => ({ state: note, events: [] }),
    };
    const [note] = langchainTools(component);
    if (!note) throw new Error("no tool");

    expect(read(await note.invoke(callOf(note, { note: "hi" }))).status).toBe("success");
    expect(read(await note.invoke(callOf(note, {}))).status).toBe("error");
    expect(Object.getOwnPropertyNames(input)).toEqual(["type", "properties", "required"]);
  });

  it("gives each tool its command's description, and an empty one where the command has none", () => {
    const tools = langchainTools(thermostat().component);
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.description]))).toMatchObject({
      boost: "Full power for 10 minutes.",
      ping: "",
    });
  });

  it("throws a TypeError naming the command when the component's schema is malformed", () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { "todo.add": { input: { type: "strnig" } } } }),
      execute: () => ({ state: {}, events: [] }),
    };
    expect(() => langchainTools(component)).toThrow(/^Command "todo\.add" has an invalid/);
  });
});

describe("langchainTools in a LangGraph agent", () => {
  it("ToolNode runs the calls of one AIMessage one at a time, in order, each answered under its own id", async () => {
    const device = thermostat();
    await device.component.execute("setMode", "heat");
    device.calls.length = 0;
    const tools = langchainTools(device.component);
    const setMode = toolNamed(tools, "setMode");
    const boost = toolNamed(tools, "boost");
    const release = device.hold();

    const running = new ToolNode(tools).invoke({
      messages: [
        new AIMessage({
          content: "",
          tool_calls: [callOf(setMode, { value: "off" }, "call_1"), callOf(boost, {}, "call_2")],
        }),
      ],
    });
    await vi.waitFor(() => expect(device.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(device.calls).toHaveLength(1); // boost waits for setMode to be answered
    release();
    const { messages } = await running;

    expect(messages.map(read)).toEqual([
      expect.objectContaining({ id: "call_1", status: "success" }),
      {
        id: "call_2",
        status: "error",
        content:
          'Error (Unavailable): Command "boost" is not available in the current state. Use one of the tools offered now.',
      },
    ]);
    expect(device.calls).toEqual([{ command: "setMode", input: "off" }]);
  });

  it("a model, ToolNode and toolsCondition loop: invalid input corrected, a gated command enabled", async () => {
    const device = thermostat();
    const tools = langchainTools(device.component);
    const target = toolNamed(tools, "target_set_");
    const setMode = toolNamed(tools, "setMode");
    const boost = toolNamed(tools, "boost");
    const model = new ScriptedChatModel([
      new AIMessage({ content: "", tool_calls: [callOf(target, { value: 35 }, "call_1")] }),
      new AIMessage({
        content: "",
        tool_calls: [
          callOf(target, { value: 30 }, "call_2"),
          callOf(setMode, { value: "heat" }, "call_3"),
        ],
      }),
      new AIMessage({ content: "", tool_calls: [callOf(boost, {}, "call_4")] }),
      new AIMessage("Heating to 30 °C at full power."),
    ]);
    const bound = model.bindTools(tools);
    const agent = new StateGraph(MessagesAnnotation)
      .addNode("model", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode("tools", new ToolNode(tools))
      .addEdge(START, "model")
      .addConditionalEdges("model", toolsCondition)
      .addEdge("tools", "model")
      .compile();

    const { messages } = await agent.invoke({ messages: [new HumanMessage("35 °C, fast.")] });

    expect(messages.at(-1)?.text).toBe("Heating to 30 °C at full power.");
    expect(device.calls).toEqual([
      { command: "target.set", input: 30 },
      { command: "setMode", input: "heat" },
      { command: "boost", input: undefined },
    ]);
    const refused = messages.find((message) => ToolMessage.isInstance(message));
    expect(refused && read(refused).content).toMatch(/^Error \(InvalidInput\): .*must be <= 30/);
    // A bound tool list is fixed: boost is offered every turn and answered by availability.
    expect(model.requests.map((request) => request.tools?.length)).toEqual([5, 5, 5, 5]);
  });
});
