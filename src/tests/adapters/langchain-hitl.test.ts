import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { langchainInterruptOn, langchainTools } from "ignite-element/tools/langchain";
import {
  createAgent,
  type HITLRequest,
  humanInTheLoopMiddleware,
  type InterruptOnConfig,
} from "langchain";
import { describe, expect, it } from "vitest";
import { approval } from "../../tools/index.js";
import { ScriptedChatModel } from "./scripted-chat-model.js";
import { counted, thermostat, thermostatPolicy } from "./thermostat.js";

// LangChain v1's own human-in-the-loop: `createAgent` with `humanInTheLoopMiddleware`, given the
// policy as its `interruptOn` (`langchainInterruptOn`), interrupts the agent before a call the
// policy asks about, and a LangGraph checkpointer resumes it with the person's decision.

/** An agent over the thermostat's tools, with the middleware, on `checkpointer`. */
function agentOf(
  tools: ReturnType<typeof langchainTools>,
  model: ScriptedChatModel,
  checkpointer: MemorySaver,
) {
  return createAgent({
    model,
    tools,
    middleware: [humanInTheLoopMiddleware({ interruptOn: langchainInterruptOn(tools) })],
    checkpointer,
  });
}

/** The model's turns: heat, set 22 °C and ping at once; then its answer. */
function script(target: string, answer: string) {
  return new ScriptedChatModel([
    new AIMessage({
      content: "",
      tool_calls: [
        { id: "c1", name: "setMode", args: { value: "heat" }, type: "tool_call" },
        { id: "c2", name: target, args: { value: 22 }, type: "tool_call" },
        { id: "c3", name: "ping", args: {}, type: "tool_call" },
      ],
    }),
    new AIMessage(answer),
  ]);
}

const targetName = (tools: ReturnType<typeof langchainTools>) =>
  tools.find((made) => made.name.startsWith("target_set_"))?.name ?? "";

/** The ToolMessages of a run, by call id. */
function toolMessages(messages: readonly unknown[]) {
  return Object.fromEntries(
    messages.flatMap((message) =>
      ToolMessage.isInstance(message)
        ? [
            [
              message.tool_call_id,
              { status: message.status, content: message.content, artifact: message.artifact },
            ],
          ]
        : [],
    ),
  );
}

describe("langchainInterruptOn", () => {
  it("has one entry per tool of a policy, each letting the person approve or reject", async () => {
    const tools = langchainTools(thermostat().component, { approve: approval(thermostatPolicy) });
    const interruptOn = langchainInterruptOn(tools);
    expect(Object.keys(interruptOn)).toEqual(tools.map((made) => made.name));
    const target = targetName(tools);
    expect(interruptOn[target]?.allowedDecisions).toEqual(["approve", "reject"]);
    const when = (name: string, args: Record<string, unknown>, id = "x") =>
      interruptOn[name]?.when({ toolCall: { name, args, id } });
    // Only a call the policy asks about interrupts: a denied one is the bridge's to answer, and
    // one the bridge will refuse (out of range) asks nobody.
    expect(await when(target, { value: 22 })).toBe(true);
    expect(await when("ping", {})).toBe(false);
    expect(await when("setMode", { value: "heat" })).toBe(false);
    expect(await when(target, { value: 99 })).toBe(false);
  });

  it("has no entry without a policy, nor for a tool it did not make", () => {
    const weather = tool(async () => "sunny", { name: "weather", description: "The weather." });
    expect(langchainInterruptOn([...langchainTools(thermostat().component), weather])).toEqual({});
  });
});

describe("createAgent with humanInTheLoopMiddleware({ interruptOn: langchainInterruptOn(tools) })", () => {
  it("interrupts before a call the policy asks about, and runs it once the person approves", async () => {
    const device = thermostat();
    const { asked, approve } = counted();
    const tools = langchainTools(device.component, { approve: approval(approve) });
    const target = targetName(tools);
    const agent = agentOf(tools, script(target, "Heating to 22 °C."), new MemorySaver());
    const config = { configurable: { thread_id: "approve" } };

    const first = await agent.invoke({ messages: [new HumanMessage("22 °C, and ping.")] }, config);
    const [held] = first.__interrupt__ ?? [];
    const request = held?.value as HITLRequest | undefined;
    expect(request?.actionRequests.map(({ name, args }) => ({ name, args }))).toEqual([
      { name: target, args: { value: 22 } },
    ]);
    expect(request?.reviewConfigs).toEqual([
      { actionName: target, allowedDecisions: ["approve", "reject"] },
    ]);
    // The middleware holds the whole turn: nothing has run yet.
    expect(device.calls).toEqual([]);

    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      config,
    );
    expect(device.calls).toEqual([
      { command: "setMode", input: "heat" },
      { command: "target.set", input: 22 },
    ]);
    expect(second.messages.at(-1)?.text).toBe("Heating to 22 °C.");
    const answered = toolMessages(second.messages);
    expect(answered.c2).toMatchObject({
      status: "success",
      artifact: { ok: true, snapshot: { target: 22, mode: "heat" } },
    });
    expect(answered.c3).toMatchObject({
      status: "error",
      content: expect.stringContaining("was denied: no pings"),
      artifact: { ok: false, error: { kind: "Denied", reason: "no pings" } },
    });
    // Once per call: when the middleware asked (again on resume, from the kept verdict), not
    // again when the call ran.
    expect(asked.sort()).toEqual(["c1", "c2", "c3"]);
  });

  it("runs nothing of a turn the person rejects a call of, and the model reads the middleware's message", async () => {
    const device = thermostat();
    const tools = langchainTools(device.component, { approve: approval(thermostatPolicy) });
    const target = targetName(tools);
    const agent = agentOf(tools, script(target, "I left it."), new MemorySaver());
    const config = { configurable: { thread_id: "reject" } };

    await agent.invoke({ messages: [new HumanMessage("22 °C, and ping.")] }, config);
    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "reject", message: "Not today." }] } }),
      config,
    );
    // On a rejection the middleware sends the turn back to the model: none of its calls runs.
    expect(device.calls).toEqual([]);
    expect(toolMessages(second.messages).c2).toMatchObject({
      status: "error",
      content: "Not today.",
    });
    expect(second.messages.at(-1)?.text).toBe("I left it.");
  });

  it("answers a call the person edited Denied: the policy never asked about the edited one", async () => {
    const device = thermostat();
    const tools = langchainTools(device.component, { approve: approval(thermostatPolicy) });
    const target = targetName(tools);
    const interruptOn = langchainInterruptOn(tools);
    const withEdit = Object.fromEntries(
      Object.entries(interruptOn).map(([name, entry]): [string, InterruptOnConfig] => [
        name,
        { ...entry, allowedDecisions: ["approve", "edit", "reject"] },
      ]),
    );
    const agent = createAgent({
      model: script(target, "Done."),
      tools,
      middleware: [humanInTheLoopMiddleware({ interruptOn: withEdit })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "edit" } };
    await agent.invoke({ messages: [new HumanMessage("22 °C, and ping.")] }, config);
    const editedAction = { name: target, args: { value: 23 } };
    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "edit", editedAction }] } }),
      config,
    );
    expect(device.calls).toEqual([{ command: "setMode", input: "heat" }]);
    expect(toolMessages(second.messages).c2).toMatchObject({
      status: "error",
      artifact: { ok: false, error: { kind: "Denied" } },
    });
  });

  it("resumes with tools made anew, as another process would: the middleware asks again", async () => {
    const device = thermostat();
    const checkpointer = new MemorySaver();
    const config = { configurable: { thread_id: "restart" } };
    const before = langchainTools(device.component, { approve: approval(thermostatPolicy) });
    const target = targetName(before);
    await agentOf(before, script(target, "Heating to 22 °C."), checkpointer).invoke(
      { messages: [new HumanMessage("22 °C, and ping.")] },
      config,
    );
    expect(device.calls).toEqual([]);

    const after = langchainTools(device.component, { approve: approval(thermostatPolicy) });
    const resumed = await agentOf(after, script(target, "Heating to 22 °C."), checkpointer).invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      config,
    );
    expect(device.calls).toEqual([
      { command: "setMode", input: "heat" },
      { command: "target.set", input: 22 },
    ]);
    expect(toolMessages(resumed.messages).c2?.status).toBe("success");
  });

  it("answers a call the policy asks about Denied when the agent has no middleware to ask a person", async () => {
    const device = thermostat();
    const tools = langchainTools(device.component, { approve: approval(thermostatPolicy) });
    const target = targetName(tools);
    const agent = createAgent({ model: script(target, "I could not."), tools });

    const { messages } = await agent.invoke({ messages: [new HumanMessage("22 °C, and ping.")] });
    expect(device.calls).toEqual([{ command: "setMode", input: "heat" }]);
    expect(toolMessages(messages).c2).toMatchObject({
      status: "error",
      content: expect.stringContaining("needs a person's approval, which was not given"),
    });
  });
});
