import { type ChatResponse, type Message, Ollama } from "ollama";
import { describe, expect, it } from "vitest";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { type AgentComponent, changeNotes, igniteTools, runToolLoop } from "../../tools/index.js";
import { Counter } from "../fixtures.js";
import { oven } from "../shell/oven.js";
import { PREHEATED_NOTE, PREHEATED_RESULT } from "./preheated.js";
import { lastOf, useRecordingServer } from "./recording-server.js";

// What Ollama's /api/chat answers (non-streaming): tool calls without ids, arguments as objects.
const firstReply = (todoTool: string) => ({
  model: "llama3.2",
  created_at: "2025-01-01T00:00:00.000Z",
  message: {
    role: "assistant",
    content: "",
    thinking: "Cap the count at 7, then note it.",
    tool_calls: [
      { function: { name: "setLimit", arguments: { value: 7 } } },
      { function: { name: todoTool, arguments: { title: "limit is 7" } } },
    ],
  },
  done: true,
  done_reason: "stop",
  total_duration: 1200,
  load_duration: 100,
  prompt_eval_count: 42,
  prompt_eval_duration: 300,
  eval_count: 21,
  eval_duration: 800,
});

const finalReply = {
  ...firstReply("unused"),
  message: { role: "assistant", content: "The limit is 7 and it is noted." },
};

const server = useRecordingServer({ fallback: finalReply });
const received = server.received;

/** The fixture Counter plus a dotted command, whose tool name must be mapped for Ollama. */
function counterWithNotes() {
  const counter = new Counter();
  const notes: string[] = [];
  const component: AgentComponent = {
    getSchema: () => ({
      commands: {
        ...counter.getSchema().commands,
        "notes.add": {
          description: "Write a note.",
          input: {
            type: "object",
            properties: { title: { type: "string" } },
            required: ["title"],
            additionalProperties: false,
          },
        },
      },
    }),
    canExecute: (command) => counter.canExecute(command),
    execute: async (command, input) => {
      if (command !== "notes.add") return counter.execute(command, input);
      notes.push((input as { title: string }).title);
      return { state: { notes }, events: [] };
    },
  };
  return { counter, notes, component };
}

describe("the ollama SDK against a local /api/chat", () => {
  it("carries our tools, answers the calls, and sends the turn back unchanged", async () => {
    const { counter, notes, component } = counterWithNotes();
    const bridge = igniteTools(component, ollama);
    const tools = bridge.toToolDefs();
    const notesTool = tools.find((tool) => tool.function.description === "Write a note.");
    const notesName = notesTool?.function.name ?? "";
    expect(notesName).toMatch(/^notes_add_[0-9a-z]+$/);
    server.reply(firstReply(notesName));

    const client = new Ollama({ host: server.url });
    const messages: Message[] = [{ role: "user", content: "Cap the counter at 7 and note it." }];
    const response: ChatResponse = await client.chat({
      model: "llama3.2",
      stream: false,
      messages,
      tools,
    });

    expect(received[0]?.path).toBe("/api/chat");
    expect(received[0]?.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
    expect(received[0]?.body.stream).toBe(false);

    expect(bridge.parseToolCalls(response).map((call) => call.id)).toEqual(["call_0", "call_1"]);
    const results = await bridge.handleToolCalls(response);
    expect(counter.state.limit).toBe(7);
    expect(notes).toEqual(["limit is 7"]);
    expect(results).toEqual([
      {
        role: "tool",
        content:
          '{"snapshot":{"count":0,"limit":7,"locked":false},"events":[{"type":"limitChanged","payload":{"limit":7}}]}',
        tool_name: "setLimit",
      },
      {
        role: "tool",
        content: '{"snapshot":{"notes":["limit is 7"]},"events":[]}',
        tool_name: notesName,
      },
    ]);

    const final = await client.chat({
      model: "llama3.2",
      stream: false,
      messages: bridge.appendTurn(messages, response, results),
      tools: bridge.toToolDefs(),
    });
    expect(final.message.content).toBe("The limit is 7 and it is noted.");
    expect(received[1]?.body.messages).toEqual([
      { role: "user", content: "Cap the counter at 7 and note it." },
      firstReply(notesName).message,
      ...results,
    ]);
    expect(bridge.parseToolCalls(final)).toEqual([]);
  });

  it("sends a note of what changed outside the calls as a user message after the tool messages", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, ollama);
    server.reply({
      ...firstReply("unused"),
      message: {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "preheat", arguments: { target: 180 } } }],
      },
    });
    const client = new Ollama({ host: server.url });
    const start = received.length;

    const result = await runToolLoop({
      tools,
      model: ({ tools, messages, turn }) => {
        if (turn === 1) world.preheated();
        return client.chat({ model: "llama3.2", stream: false, messages, tools });
      },
      messages: [{ role: "user", content: "Bake bread." }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told).toBe(PREHEATED_NOTE);
    expect(lastOf(received[start + 1]?.body.messages, 2)).toEqual([
      { role: "tool", content: PREHEATED_RESULT, tool_name: "preheat" },
      { role: "user", content: PREHEATED_NOTE },
    ]);
  });
});
