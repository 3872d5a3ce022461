import { type Content, type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type GeminiResponse, gemini } from "../../tools/dialects/gemini/dialect.js";
import { geminiStream } from "../../tools/dialects/gemini/stream.js";
import { igniteTools } from "../../tools/index.js";
import { counterWithTodos } from "../fixtures.js";
import { callEvents, drain, feed, joined } from "./drain.js";
import { geminiFinalTurn, geminiToolResponse, geminiToolTurn } from "./recordings/gemini.js";
import { brokenAfter, json, sse, useReplayServer } from "./replay-server.js";

// Gemini accepts dots in names: the command keeps its own.
const TODO = "todo.add";
const events = (chunks: readonly object[]) => sse(chunks.map((data) => ({ data })));

const server = useReplayServer();
let client: GoogleGenAI;
const request = { model: "gemini-2.5-flash" };

beforeAll(() => {
  client = new GoogleGenAI({
    apiKey: "test-key",
    httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
  });
});

/** A response without `sdkHttpResponse`, the SDK's record of the HTTP headers. */
function wire(response: GeminiResponse | GenerateContentResponse): unknown {
  const { sdkHttpResponse: _, ...fields } = response as GeminiResponse & {
    sdkHttpResponse?: unknown;
  };
  return fields;
}

describe("geminiStream with @google/genai streaming from 127.0.0.1", () => {
  it("joins the chunks into what generateContent() gives for the same turn", async () => {
    server.play(events(geminiToolTurn(TODO)), json(geminiToolResponse(TODO)));
    const stream = await client.models.generateContentStream({ ...request, contents: "Go" });
    const turn = geminiStream();
    const { deltas, error } = await drain(stream, turn);

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    expect(server.received[0]?.path).toBe(
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    const unstreamed = await client.models.generateContent({ ...request, contents: "Go" });
    expect(wire(turn.response())).toEqual(wire(unstreamed));

    expect(joined(deltas, "reasoning")).toBe("**Planning** Count, note, reset.");
    expect(joined(deltas, "text")).toBe("On it.");
    // Each chunk carries a call whole: it is ready as soon as it starts.
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      "ready 0 increment",
      `start 1 ${TODO}`,
      `ready 1 ${TODO}`,
      "start 2 reset",
      "ready 2 reset",
    ]);
  });

  it("runs the streamed calls and sends the turn back, signatures where they came", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, gemini);
    server.play(events(geminiToolTurn(TODO)), events(geminiFinalTurn));
    const contents: Content[] = [
      { role: "user", parts: [{ text: "Count two, note milk, reset." }] },
    ];

    const first = geminiStream();
    await drain(
      await client.models.generateContentStream({
        ...request,
        contents,
        config: { tools: bridge.toToolDefs() },
      }),
      first,
    );
    const results = await bridge.handleToolCalls(first.response());
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "reset", input: undefined },
    ]);
    expect(todos).toEqual(['buy "oat" milk é']);

    const next = bridge.appendTurn(contents, first.response(), results);
    const second = geminiStream();
    await drain(await client.models.generateContentStream({ ...request, contents: next }), second);
    expect(server.received[1]?.body.contents).toEqual(
      JSON.parse(JSON.stringify(bridge.appendTurn(contents, geminiToolResponse(TODO), results))),
    );
    // The signature that came alone on an empty text part stays on its own part.
    expect(second.response().candidates?.[0]?.content?.parts).toEqual([
      { text: "Done: count 2." },
      { text: "", thoughtSignature: "EjQKMgEM=" },
    ]);
  });

  it("gives the calls that arrived whole when the connection is lost, and no others", async () => {
    server.play(brokenAfter(events(geminiToolTurn(TODO)), 5));
    const turn = geminiStream();
    const { error } = await drain(
      await client.models.generateContentStream({ ...request, contents: "Go" }),
      turn,
    );

    expect(error).toBeInstanceOf(Error);
    expect(turn.finished).toBe(false);
    expect(turn.ready).toBe(1);
    const { component, counter } = counterWithTodos("todo.add");
    expect(await igniteTools(component, gemini).handleToolCalls(turn.response())).toHaveLength(1);
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
  });
});

describe("geminiStream", () => {
  it("accepts the SDK's chunks", () => {
    expectTypeOf<GenerateContentResponse>().toExtend<GeminiResponse>();
  });

  it("throws a TypeError for something that is not a chunk, and gives no candidate before one", () => {
    const turn = geminiStream();
    expect(turn.response()).toEqual({ candidates: [] });
    expect(() => turn.push({ candidates: {} } as GeminiResponse)).toThrow(
      /geminiStream\.push expects a streamGenerateContent chunk .*got an object/,
    );
    expect(() => turn.push("data: {}" as GeminiResponse)).toThrow(/got a string/);
  });

  it("joins plain text of one kind only, and reports only the first candidate's progress", () => {
    const turn = geminiStream();
    const deltas = feed(turn, [
      {
        candidates: [
          { content: { role: "model", parts: [{ text: "a", thought: true }, { text: "b" }] } },
        ],
      },
      {
        candidates: [
          {
            content: {
              parts: [{ text: "c" }, { text: "d", thoughtSignature: "s" }, { text: "e" }],
            },
          },
        ],
      },
      {
        promptFeedback: {},
        candidates: [
          { content: { parts: [{ text: "f" }] }, finishReason: "STOP" },
          { content: { parts: [{ text: "other" }, { functionCall: { name: "reset" } }] } },
        ],
      },
    ]);
    expect(joined(deltas, "text")).toBe("bcdef");
    expect(deltas.filter((delta) => delta.type.startsWith("tool"))).toEqual([]);
    expect(turn.response()).toEqual({
      promptFeedback: {},
      candidates: [
        {
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "a", thought: true },
              { text: "bc" },
              { text: "d", thoughtSignature: "s" },
              { text: "ef" },
            ],
          },
        },
        { content: { parts: [{ text: "other" }, { functionCall: { name: "reset" } }] } },
      ],
    });
  });
});
