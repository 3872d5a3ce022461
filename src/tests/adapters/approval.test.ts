import { Agent, OpenAIChatCompletionsModel, run } from "@openai/agents";
import { generateText, type ModelMessage, stepCountIs } from "ai";
import { aiSdkTools } from "ignite-element/tools/ai-sdk";
import { langchainTools } from "ignite-element/tools/langchain";
import { agentsTools } from "ignite-element/tools/openai-agents";
import { describe, expect, it } from "vitest";
import { approval } from "../../tools/index.js";
import { useAgentsServer } from "./agents-server.js";
import { scriptedModel, toolResultsIn } from "./ai-sdk-model.js";
import { callsCompletion, textCompletion, toolCall } from "./openai-fixtures.js";
import { counted, thermostat, thermostatPolicy } from "./thermostat.js";

// Each framework's own approval mechanism, driven by the one policy: "ask" becomes the
// framework's request for approval, and the call runs once the person approves; "deny" is
// answered by the bridge.

describe("aiSdkTools with an approval policy (AI SDK 6 needsApproval, AI SDK 7 toolApproval)", () => {
  it("asks through a tool-approval-request, runs the call once it is approved, and answers a denial itself", async () => {
    const device = thermostat();
    const { asked: policyAsked, approve } = counted();
    const { tools, prepareStep } = aiSdkTools(device.component, { approve: approval(approve) });
    const target = Object.keys(tools).find((name) => name.startsWith("target_set_")) ?? "";
    const { model, requests } = scriptedModel([
      [
        { toolName: target, input: '{"value":22}', toolCallId: "c1" },
        { toolName: "ping", input: "{}", toolCallId: "c2" },
      ],
      "The target is 22 °C.",
    ]);
    const messages: ModelMessage[] = [{ role: "user", content: "22 degrees, and ping." }];

    const first = await generateText({
      model,
      tools,
      prepareStep,
      messages,
      stopWhen: stepCountIs(5),
    });
    const asked = first.content.filter((part) => part.type === "tool-approval-request");
    expect(asked.map((part) => part.toolCall.toolCallId)).toEqual(["c1"]);
    expect(device.calls).toEqual([]);
    expect(first.toolResults.map((result) => result.output)).toMatchObject([
      { ok: false, error: { kind: "Denied", reason: "no pings" } },
    ]);

    // The person approves; the application sends the approval back, as AI SDK 6 documents.
    const second = await generateText({
      model,
      tools,
      prepareStep,
      stopWhen: stepCountIs(5),
      messages: [
        ...messages,
        ...first.response.messages,
        {
          role: "tool",
          content: asked.map((part) => ({
            type: "tool-approval-response" as const,
            approvalId: part.approvalId,
            approved: true,
          })),
        },
      ],
    });
    expect(device.calls).toEqual([{ command: "target.set", input: 22 }]);
    expect(second.text).toBe("The target is 22 °C.");
    expect(JSON.stringify(toolResultsIn(requests.at(-1)))).toContain('\\"target\\":22');
    // Once per call: when the AI SDK asked whether it needs approval, not again when it ran.
    expect(policyAsked.sort()).toEqual(["c1", "c2"]);
  });

  it("asks nothing for a call the bridge will refuse anyway", async () => {
    const device = thermostat();
    const { tools } = aiSdkTools(device.component, { approve: approval(thermostatPolicy) });
    const target = Object.keys(tools).find((name) => name.startsWith("target_set_")) ?? "";
    const needs = tools[target]?.needsApproval;
    if (typeof needs !== "function") throw new Error("no needsApproval");
    const options = { toolCallId: "x", messages: [] };
    expect(await needs({ value: 99 }, options)).toBe(false);
    // Arguments that are not an object: the bridge answers InvalidInput, nobody is asked.
    expect(await needs("21", options)).toBe(false);
    expect(await needs({ value: 21 }, options)).toBe(true);
  });

  it("declares no needsApproval without a policy", () => {
    const { tools, toolApproval } = aiSdkTools(thermostat().component);
    expect(Object.values(tools).some((tool) => "needsApproval" in tool)).toBe(false);
    expect(toolApproval).toEqual({});
  });

  it("gives AI SDK 7's toolApproval from the same policy, asked once per call with needsApproval", async () => {
    const device = thermostat();
    const { asked, approve } = counted();
    const { tools, toolApproval } = aiSdkTools(device.component, { approve: approval(approve) });
    expect(Object.keys(toolApproval)).toEqual(Object.keys(tools));
    const target = Object.keys(tools).find((name) => name.startsWith("target_set_")) ?? "";
    const options = { toolCallId: "t1", messages: [] };
    expect(await toolApproval[target]?.({ value: 22 }, options)).toBe("user-approval");
    // A call the policy denies is the bridge's to answer, and one it allows needs nobody.
    expect(await toolApproval.ping?.({}, { toolCallId: "t2" })).toBe("not-applicable");
    expect(await toolApproval[target]?.({ value: 99 }, { toolCallId: "t3" })).toBe(
      "not-applicable",
    );
    // AI SDK 7 asks toolApproval and, reading the approval back, may ask needsApproval too.
    const needs = tools[target]?.needsApproval;
    if (typeof needs !== "function") throw new Error("no needsApproval");
    expect(await needs({ value: 22 }, options)).toBe(true);
    expect(asked.sort()).toEqual(["t1", "t2"]);
  });
});

describe("agentsTools with an approval policy (Agents SDK interruptions)", () => {
  const { server, client } = useAgentsServer();

  it("interrupts the run for a call the policy asks about, and runs it once the person approves", async () => {
    const device = thermostat();
    const { asked: policyAsked, approve } = counted();
    const tools = agentsTools(device.component, { approve: approval(approve) });
    const target = tools.find((tool) => tool.name.startsWith("target_set_"))?.name ?? "";
    server.reply(
      callsCompletion(toolCall("call_1", target, '{"value":22}'), toolCall("call_2", "ping", "{}")),
      textCompletion("The target is 22 °C."),
    );
    const model = new OpenAIChatCompletionsModel(client(), "gpt-4o");
    const agent = new Agent({ name: "Thermostat", model, tools });

    const first = await run(agent, "22 degrees, and ping.");
    expect(first.interruptions.map((item) => item.rawItem)).toMatchObject([{ callId: "call_1" }]);
    expect(device.calls).toEqual([]);

    for (const interruption of first.interruptions) first.state.approve(interruption);
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe("The target is 22 °C.");
    expect(device.calls).toEqual([{ command: "target.set", input: 22 }]);
    const sent = JSON.stringify(server.received.at(-1)?.body);
    expect(sent).toContain("was denied: no pings");
    // Once per call: at the interruption, not again when the approved run resumed and ran it.
    expect(policyAsked.sort()).toEqual(["call_1", "call_2"]);
  });

  it("answers Denied when the person rejects, and runs nothing", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component, { approve: approval(thermostatPolicy) });
    const target = tools.find((tool) => tool.name.startsWith("target_set_"))?.name ?? "";
    server.reply(
      callsCompletion(toolCall("call_1", target, '{"value":22}')),
      textCompletion("I was not allowed to."),
    );
    const agent = new Agent({
      name: "Thermostat",
      model: new OpenAIChatCompletionsModel(client(), "gpt-4o"),
      tools,
    });
    const first = await run(agent, "22 degrees.");
    for (const interruption of first.interruptions) first.state.reject(interruption);
    await run(agent, first.state);
    expect(device.calls).toEqual([]);
  });
});

describe("langchainTools with an approval policy", () => {
  it("answers a call the policy asks about Denied when no middleware asked a person (langchain-hitl.test.ts: with one)", async () => {
    const device = thermostat();
    const { asked: policyAsked, approve } = counted();
    const tools = langchainTools(device.component, { approve: approval(approve) });
    const target = tools.find((tool) => tool.name.startsWith("target_set_"));
    const answer = await target?.invoke({
      type: "tool_call",
      id: "lc1",
      name: target.name,
      args: { value: 22 },
    });
    expect(String(answer.content)).toContain("Error (Denied)");
    expect(String(answer.content)).toContain("needs a person's approval");
    expect(device.calls).toEqual([]);
    expect(policyAsked).toEqual(["lc1"]);
  });
});
