import { type ChatResponse, type Message, Ollama } from "ollama";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type OllamaChatResponse, ollama } from "../../tools/dialects/ollama/dialect.js";
import { type OllamaChatChunk, ollamaStream } from "../../tools/dialects/ollama/stream.js";
import { igniteTools } from "../../tools/index.js";
import { counterWithTodos } from "../fixtures.js";
import { callEvents, drain, feed, joined } from "./drain.js";
import { ollamaFinalTurn, ollamaToolResponse, ollamaToolTurn } from "./recordings/ollama.js";
import { brokenAfter, json, ndjson, useReplayServer } from "./replay-server.js";

const TODO = "todo_add_10sxn00";

const server = useReplayServer();
let client: Ollama;
const request = { model: "qwen3" };

beforeAll(() => {
  client = new Ollama({ host: server.url });
});

describe("ollamaStream with the ollama SDK streaming /api/chat from 127.0.0.1", () => {
  it("joins the chunks into what chat({ stream: false }) gives for the same turn", async () => {
    server.play(ndjson(ollamaToolTurn(TODO)), json(ollamaToolResponse(TODO)));
    const turn = ollamaStream();
    const { deltas, error } = await drain(
      await client.chat({ ...request, messages: [], stream: true }),
      turn,
    );

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    expect(server.received[0]).toMatchObject({ path: "/api/chat", body: { stream: true } });
    expect(turn.response()).toEqual(await client.chat({ ...request, messages: [], stream: false }));

    expect(joined(deltas, "reasoning")).toBe("Count, note, reset.");
    expect(joined(deltas, "text")).toBe("On it.");
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      "ready 0 increment",
      `start 1 ${TODO}`,
      `ready 1 ${TODO}`,
      "start 2 reset",
      "ready 2 reset",
    ]);
  });

  it("runs the streamed calls and sends the assistant message back as the server gave it", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, ollama);
    server.play(ndjson(ollamaToolTurn(TODO)), ndjson(ollamaFinalTurn));
    const messages: Message[] = [{ role: "user", content: "Count two, note milk, reset." }];

    const first = ollamaStream();
    await drain(
      await client.chat({ ...request, messages, tools: bridge.toToolDefs(), stream: true }),
      first,
    );
    const results = await bridge.handleToolCalls(first.response());
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "reset", input: undefined },
    ]);
    expect(todos).toEqual(['buy "oat" milk é']);

    const next = bridge.appendTurn(messages, first.response(), results);
    const second = ollamaStream();
    await drain(await client.chat({ ...request, messages: next, stream: true }), second);
    expect(server.received[1]?.body.messages).toEqual(
      JSON.parse(JSON.stringify(bridge.appendTurn(messages, ollamaToolResponse(TODO), results))),
    );
    expect(second.response().message).toEqual({ role: "assistant", content: "Done." });
  });

  it("gives the calls that arrived whole when the connection is lost, and no others", async () => {
    server.play(brokenAfter(ndjson(ollamaToolTurn(TODO)), 5));
    const turn = ollamaStream();
    const { error } = await drain(
      await client.chat({ ...request, messages: [], stream: true }),
      turn,
    );

    expect(error).toBeInstanceOf(Error);
    expect([turn.finished, turn.ready]).toEqual([false, 1]);
    const { component, counter } = counterWithTodos("todo.add");
    expect(await igniteTools(component, ollama).handleToolCalls(turn.response())).toHaveLength(1);
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
  });
});

describe("ollamaStream", () => {
  it("accepts the SDK's chunks and gives what the dialect takes", () => {
    expectTypeOf<ChatResponse>().toExtend<OllamaChatChunk>();
    expectTypeOf<OllamaChatChunk>().toExtend<OllamaChatResponse>();
  });

  it("throws a TypeError for something that is not a chunk, and gives an empty answer before one", () => {
    const turn = ollamaStream();
    expect(turn.response()).toEqual({ message: { role: "assistant", content: "" } });
    expect(() => turn.push({ done: true } as unknown as OllamaChatChunk)).toThrow(
      /ollamaStream\.push expects an \/api\/chat stream chunk/,
    );
  });

  it("counts only function calls, as parseToolCalls does, and keeps ids a server sends", () => {
    const turn = ollamaStream();
    const deltas = feed(turn, [
      {
        message: {
          role: "assistant",
          content: "",
          tool_calls: [
            "junk",
            { type: "function" },
            { id: "c7", function: { name: "reset", arguments: {} } },
          ] as unknown as OllamaChatChunk["message"]["tool_calls"],
        },
      },
    ]);
    expect(callEvents(deltas)).toEqual(["start 0 reset", "ready 0 reset"]);
    expect(deltas).toContainEqual({ type: "tool-call-ready", index: 0, id: "c7", name: "reset" });
    expect(turn.response().message.tool_calls).toHaveLength(2);
    const calls = igniteTools(counterWithTodos("x").component, ollama).parseToolCalls(
      turn.response(),
    );
    expect(calls.map((call) => [call.id, call.name])).toEqual([["c7", "reset"]]);
  });
});
