import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  RunContext,
  run,
} from "@openai/agents";
import { buildManifest } from "ignite-element/tools";
import { openai } from "ignite-element/tools/openai";
import { type AgentsTool, agentsTools } from "ignite-element/tools/openai-agents";
import { describe, expect, it, vi } from "vitest";
import type { AgentComponent } from "../../tools/index.js";
import type { RecordedRequest } from "../clients/recording-server.js";
import { useAgentsServer } from "./agents-server.js";
import {
  callsCompletion,
  functionCall,
  outputMessage,
  response,
  textCompletion,
  toolCall,
} from "./openai-fixtures.js";
import { thermostat } from "./thermostat.js";

const { server, client } = useAgentsServer();
const requests = server.received;

function agentWith(tools: AgentsTool[]) {
  const model = new OpenAIChatCompletionsModel(client(), "gpt-4o");
  return new Agent({ name: "Thermostat", instructions: "Run the thermostat.", model, tools });
}

/** The provider-safe name a tool was given, by the start of its command name. */
function nameOf(tools: readonly { name: string }[], prefix: string): string {
  const found = tools.find((tool) => tool.name.startsWith(prefix));
  if (!found) throw new Error(`no tool named ${prefix}…`);
  return found.name;
}

type Message = { role?: string; tool_call_id?: string; content?: unknown };

/** The `tool` messages a request sent back to the model, as `id → content`. */
function toolResults(request: RecordedRequest | undefined): Record<string, unknown> {
  const messages = (request?.body.messages ?? []) as Message[];
  return Object.fromEntries(
    messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]),
  );
}

/** The tool names a request offered the model. */
function offered(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body.tools ?? []) as Array<{ function: { name: string } }>;
  return tools.map((tool) => tool.function.name);
}

describe("agentsTools with the real Agents SDK and a Chat Completions server", () => {
  it("runs the model's call through the bridge and sends the observation back, under safe names and object roots", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const target = nameOf(tools, "target_set_");
    server.reply(
      callsCompletion(toolCall("call_1", target, '{"value":22}')),
      textCompletion("The target is 22 °C."),
    );

    const result = await run(agentWith(tools), "Set the target to 22.");

    expect(result.finalOutput).toBe("The target is 22 °C.");
    expect(device.calls).toEqual([{ command: "target.set", input: 22 }]);
    // Exactly what the `openai` dialect sends for the same commands, with the SDK's strict flag.
    const declared = buildManifest(device.component.getSchema());
    const available = declared.filter((tool) => tool.name !== "boost");
    expect(requests[0]?.body.tools).toEqual(
      openai.toToolDefs(available).map(({ function: { name, description, parameters } }) => ({
        type: "function",
        function: { name, description: description ?? "", parameters, strict: false },
      })),
    );
    expect(toolResults(requests[1])).toEqual({
      call_1: JSON.stringify({
        snapshot: { target: 22, mode: "off", boosted: false, schedule: [] },
        events: [{ type: "target.set", payload: 22 }],
      }),
    });
  });

  it("answers invalid input with the bridge's issues as the tool's output, and the corrected call runs once", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const target = nameOf(tools, "target_set_");
    server.reply(
      callsCompletion(toolCall("call_1", target, '{"value":35}')),
      callsCompletion(toolCall("call_2", target, '{"value":30}')),
      textCompletion("30 °C is the most I can set."),
    );

    await run(agentWith(tools), "Make it 35 degrees.");

    expect(toolResults(requests[1])).toEqual({
      call_1: `Error (InvalidInput): Invalid input for "${target}": input must be <= 30. Fix the input and call again.\nIssues: [{"path":"","message":"must be <= 30","keyword":"maximum"}]`,
    });
    expect(device.calls).toEqual([{ command: "target.set", input: 30 }]);
  });

  it("offers a gated command only while it is available, turn by turn", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const setMode = nameOf(tools, "setMode");
    server.reply(
      callsCompletion(toolCall("call_1", setMode, '{"value":"heat"}')),
      callsCompletion(toolCall("call_2", "boost", "{}")),
      textCompletion("Heating at full power."),
    );

    await run(agentWith(tools), "Warm it up fast.");

    expect(offered(requests[0])).not.toContain("boost");
    expect(offered(requests[1])).toContain("boost");
    expect(device.calls.map((call) => call.command)).toEqual(["setMode", "boost"]);
    expect(device.state().boosted).toBe(true);
  });

  it("runs the calls of one turn one at a time, in order, each against the state the one before left", async () => {
    const device = thermostat();
    await device.component.execute("setMode", "heat");
    device.calls.length = 0;
    const tools = agentsTools(device.component);
    const setMode = nameOf(tools, "setMode");
    const release = device.hold();
    server.reply(
      callsCompletion(
        toolCall("call_1", setMode, '{"value":"off"}'),
        toolCall("call_2", "boost", "{}"),
      ),
      textCompletion("Switched off."),
    );

    const running = run(agentWith(tools), "Switch off.");
    await vi.waitFor(() => expect(device.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(device.calls).toHaveLength(1); // boost waits for setMode to be answered
    release();
    await running;

    expect(device.calls).toEqual([{ command: "setMode", input: "off" }]);
    expect(toolResults(requests[1]).call_2).toBe(
      'Error (Unavailable): Command "boost" is not available in the current state. Use one of the tools offered now.',
    );
  });

  it("returns a failing execute to the model as the tool's output text, and the run goes on", async () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { save: { description: "Save the plan." } } }),
      execute: () => {
        throw new Error("disk full");
      },
    };
    server.reply(
      callsCompletion(toolCall("call_1", "save", "{}")),
      textCompletion("The disk is full."),
    );

    const result = await run(agentWith(agentsTools(component)), "Save.");

    expect(result.finalOutput).toBe("The disk is full.");
    expect(toolResults(requests[1])).toEqual({
      call_1: 'Error (ExecuteFailed): Command "save" failed: disk full',
    });
  });

  it("with strict: true sends strict schemas and removes the model's nulls before the component sees them", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component, { strict: true });
    server.reply(
      callsCompletion(toolCall("call_1", "schedule", '{"at":"07:00","note":null}')),
      textCompletion("Planned."),
    );

    await run(agentWith(tools), "Plan 7 am.");

    const sent = (requests[0]?.body.tools ?? []) as Array<{ function: Record<string, unknown> }>;
    expect(sent.find((tool) => tool.function.name === "schedule")?.function).toEqual({
      name: "schedule",
      description: "Plan a change.",
      parameters: {
        type: "object",
        properties: {
          at: { type: "string" },
          note: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
        required: ["at", "note"],
        additionalProperties: false,
      },
      strict: true,
    });
    expect(device.calls).toEqual([{ command: "schedule", input: { at: "07:00" } }]);
  });

  it("describes a gated command with when it is available, since each tool is made once", () => {
    const { component } = thermostat({ boostAvailableWhen: "only while heating" });
    const boost = agentsTools(component).find((tool) => tool.name === "boost");
    expect(boost?.description).toBe("Full power for 10 minutes. Available only while heating.");
  });

  it("is not strict unless asked", () => {
    const tools = agentsTools(thermostat().component);
    expect(tools.map((tool) => tool.strict)).toEqual(tools.map(() => false));
  });

  it("passes the run's abort signal through: the running call is answered, the queued one never runs", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const target = nameOf(tools, "target_set_");
    const release = device.hold();
    server.reply(
      callsCompletion(
        toolCall("call_1", target, '{"value":22}'),
        toolCall("call_2", target, '{"value":25}'),
      ),
    );
    const controller = new AbortController();

    const running = run(agentWith(tools), "Set 22, then 25.", { signal: controller.signal });
    await vi.waitFor(() => expect(device.calls).toHaveLength(1));
    controller.abort(new Error("user left"));
    await expect(running).rejects.toThrow();
    release(); // the first execute finishes late; the queue must not run the second call
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(device.calls).toEqual([{ command: "target.set", input: 22 }]);
    expect(requests).toHaveLength(1);
  });

  it("answers through invoke alone: the result follows project and maxResultChars", async () => {
    const device = thermostat();
    const [, , , , target] = agentsTools(device.component, {
      project: ({ snapshot }) => ({
        snapshot: { target: snapshot.target, log: "x".repeat(300) },
        events: [],
      }),
      maxResultChars: 128,
    });
    expect(target?.name).toMatch(/^target_set_/);
    const output = await target?.invoke(new RunContext(), '{"value":21}');
    expect(typeof output === "string" && output.length).toBeLessThanOrEqual(128);
    expect(JSON.parse(String(output))).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of 347 characters$/,
      ),
      partial: expect.stringMatching(/^\{"snapshot":\{"target":21,"log":"x+$/),
    });
    expect(device.calls).toEqual([{ command: "target.set", input: 21 }]);
  });

  it("answers arguments that are not an object with what to send instead", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const ping = tools.find((tool) => tool.name === "ping");
    const output = await ping?.invoke(new RunContext(), "[1]");
    expect(output).toBe(
      'Error (InvalidInput): Invalid input for "ping": input arguments must be a JSON object, not an array. Fix the input and call again.\nIssues: [{"path":"","message":"arguments must be a JSON object, not an array"}]',
    );
    expect(device.calls).toEqual([]);
  });

  it("gives each tool its command's description, and an empty one where the command has none", () => {
    const tools = agentsTools(thermostat().component);
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.description]))).toMatchObject({
      boost: "Full power for 10 minutes.",
      ping: "",
      schedule: "Plan a change.",
    });
  });

  it("asks the component once for every tool the SDK checks together, and afresh next time", async () => {
    let asked = 0;
    let open = true;
    const component: AgentComponent = {
      getSchema: () => ({
        commands: Object.fromEntries(["a", "b", "c", "d"].map((name) => [name, { gated: true }])),
      }),
      canExecute: () => {
        asked++;
        return open;
      },
      execute: () => ({ state: {}, events: [] }),
    };
    const tools = agentsTools(component);
    const agent = agentWith([]);
    const enabled = () => Promise.all(tools.map((tool) => tool.isEnabled(new RunContext(), agent)));

    expect(await enabled()).toEqual([true, true, true, true]);
    expect(asked).toBe(4); // one pass over the four gated commands, not one per tool
    open = false;
    expect(await enabled()).toEqual([false, false, false, false]);
    expect(asked).toBe(8);
  });

  it("enables nothing while the component throws as its availability is asked", async () => {
    let broken = false;
    const component: AgentComponent = {
      getSchema: () => {
        if (broken) throw new Error("schema store offline");
        return { commands: { ping: {} } };
      },
      execute: () => ({ state: {}, events: [] }),
    };
    const [ping] = agentsTools(component);
    const agent = agentWith([]);
    expect(await ping?.isEnabled(new RunContext(), agent)).toBe(true);
    broken = true;
    expect(await ping?.isEnabled(new RunContext(), agent)).toBe(false);
  });

  it("throws a TypeError naming the command when the component's schema is malformed", () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { "todo.add": { input: { type: "strnig" } } } }),
      execute: () => ({ state: {}, events: [] }),
    };
    expect(() => agentsTools(component)).toThrow(TypeError);
    expect(() => agentsTools(component)).toThrow(/"todo\.add"/);
  });
});

describe("agentsTools with the real Agents SDK and a Responses API server", () => {
  it("sends function tools and function_call_output items, and maps the call back to its command", async () => {
    const device = thermostat();
    const tools = agentsTools(device.component);
    const target = nameOf(tools, "target_set_");
    server.reply(
      response([functionCall("call_1", target, '{"value":19}')]),
      response([outputMessage("19 °C it is.")]),
    );
    const model = new OpenAIResponsesModel(client(), "gpt-4o");
    const agent = new Agent({ name: "Thermostat", model, tools });

    const result = await run(agent, "19 degrees, please.");

    expect(result.finalOutput).toBe("19 °C it is.");
    expect(requests[0]?.path).toBe("/v1/responses");
    const sent = (requests[0]?.body.tools ?? []) as Array<Record<string, unknown>>;
    expect(sent.find((tool) => tool.name === target)).toMatchObject({
      type: "function",
      name: target,
      description: "Target temperature in °C.",
      parameters: {
        type: "object",
        properties: { value: { type: "number", minimum: 10, maximum: 30 } },
        required: ["value"],
        additionalProperties: false,
      },
      strict: false,
    });
    expect(requests[1]?.body.input).toContainEqual(
      expect.objectContaining({
        type: "function_call_output",
        call_id: "call_1",
        output: JSON.stringify({
          snapshot: { target: 19, mode: "off", boosted: false, schedule: [] },
          events: [{ type: "target.set", payload: 19 }],
        }),
      }),
    );
    expect(device.calls).toEqual([{ command: "target.set", input: 19 }]);
  });
});
