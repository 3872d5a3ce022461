import OpenAI from "openai";
import type { ResponseStream } from "openai/lib/responses/ResponseStream";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  type OpenAIResponsesItem,
  type OpenAIResponsesResponse,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import {
  type OpenAIResponsesStreamEvent,
  type OpenAIResponsesStreamedResponse,
  openaiResponsesStream,
} from "../../tools/dialects/openai/stream.js";
import { igniteTools } from "../../tools/index.js";
import { Counter, counterWithTodos } from "../fixtures.js";
import { callEvents, drain, feed, joined } from "./drain.js";
import {
  responsesCutTurn,
  responsesFinalTurn,
  responsesToolResponse,
  responsesToolTurn,
} from "./recordings/openai-responses.js";
import { brokenAfter, json, sse, useReplayServer } from "./replay-server.js";

const TODO = "todo_add_10sxn00";
const events = (recorded: readonly ResponseStreamEvent[]) =>
  sse(recorded.map((data) => ({ event: data.type, data })));

const server = useReplayServer();
let client: OpenAI;
const request = { model: "gpt-5" };

beforeAll(() => {
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
});

/** A response without what the SDK adds of its own: `output_text` and the parsed fields. */
function wire(response: object): unknown {
  const { output_text: _, output_parsed: __, ...fields } = response as Record<string, unknown>;
  const output = Array.isArray(fields.output) ? fields.output : [];
  return {
    ...fields,
    output: output.map((item: Record<string, unknown>) => {
      const { parsed_arguments: _, ...rest } = item;
      const content = Array.isArray(rest.content) ? rest.content : undefined;
      return content
        ? {
            ...rest,
            content: content.map(({ parsed: _, ...part }: Record<string, unknown>) => part),
          }
        : rest;
    }),
  };
}

const finalResponse = async (stream: ResponseStream<null>) => wire(await stream.finalResponse());

describe("openaiResponsesStream with the openai SDK streaming the Responses API from 127.0.0.1", () => {
  it("accumulates the events into what finalResponse() and responses.create() give", async () => {
    server.play(events(responsesToolTurn(TODO)), json(responsesToolResponse(TODO)));
    const stream = client.responses.stream({ ...request, input: "Go" });
    const turn = openaiResponsesStream();
    const { deltas, error } = await drain(stream, turn);

    expect(error).toBeUndefined();
    expect(turn.finished).toBe(true);
    expect(turn.response()).toEqual(await finalResponse(stream));
    expect(turn.response()).toEqual(
      wire(await client.responses.create({ ...request, input: "Go" })),
    );

    expect(joined(deltas, "reasoning")).toBe("Count, note, reset.");
    expect(joined(deltas, "text")).toBe("On it.");
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      `start 1 ${TODO}`,
      "ready 0 increment",
      `ready 1 ${TODO}`,
      "start 2 reset",
      "ready 2 reset",
    ]);
    expect(deltas).toContainEqual({
      type: "tool-call-start",
      index: 1,
      id: "call_Xf3m9",
      name: TODO,
    });
  });

  it("builds the same response from the item events alone, before response.completed", () => {
    const recorded = responsesToolTurn(TODO);
    const turn = openaiResponsesStream();
    feed(turn, recorded.slice(0, -1));
    expect(turn.finished).toBe(false);
    expect(turn.ready).toBe(3);
    expect(turn.response()).toEqual({
      ...responsesToolResponse(TODO),
      status: "in_progress",
      usage: undefined,
    });
  });

  it("runs the streamed calls and sends every output item back", async () => {
    const { component, counter, todos } = counterWithTodos("todo.add");
    const bridge = igniteTools(component, openaiResponses);
    server.play(events(responsesToolTurn(TODO)), events(responsesFinalTurn()));
    const input: OpenAIResponsesItem[] = [
      { role: "user", content: "Count two, note milk, reset." },
    ];

    const first = openaiResponsesStream();
    await drain(client.responses.stream({ ...request, tools: bridge.toToolDefs(), input }), first);
    const results = await bridge.handleToolCalls(first.response());
    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 2 } },
      { command: "reset", input: undefined },
    ]);
    expect(todos).toEqual(['buy "oat" milk é']);

    const next = bridge.appendTurn(input, first.response(), results);
    const second = openaiResponsesStream();
    await drain(client.responses.stream({ ...request, input: next }), second);
    expect(server.received[1]?.body.input).toEqual(
      JSON.parse(JSON.stringify(bridge.appendTurn(input, responsesToolResponse(TODO), results))),
    );
    expect(bridge.parseToolCalls(second.response())).toEqual([]);
  });

  it("never runs the call max_output_tokens cut, and equals finalResponse()", async () => {
    server.play(events(responsesCutTurn()));
    const stream = client.responses.stream({ ...request, input: "Go" });
    const turn = openaiResponsesStream();
    const { deltas } = await drain(stream, turn);

    expect(turn.response()).toEqual(await finalResponse(stream));
    expect(turn.response().status).toBe("incomplete");
    expect(callEvents(deltas)).toEqual([
      "start 0 increment",
      "ready 0 increment",
      "start 1 increment",
    ]);
    const counter = new Counter();
    const blocks = await igniteTools(counter, openaiResponses).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    expect(blocks[1]?.output).toContain("InvalidInput");
  });

  it("marks what a lost connection left unfinished incomplete, so its call never runs", async () => {
    const recorded = responsesToolTurn(TODO);
    // Dropped after `reset` opened, before it had any arguments.
    const cutAt = recorded.findIndex(
      (event) => event.type === "response.output_item.added" && event.output_index === 4,
    );
    server.play(brokenAfter(events(recorded), cutAt + 1));
    const turn = openaiResponsesStream();
    const { error } = await drain(client.responses.stream({ ...request, input: "Go" }), turn);

    expect(error).toBeInstanceOf(Error);
    expect(turn.finished).toBe(false);
    expect(turn.ready).toBe(2);
    expect(turn.response().output.at(-1)).toMatchObject({
      type: "function_call",
      status: "incomplete",
      arguments: "",
    });

    const { component, counter, todos } = counterWithTodos("todo.add");
    const blocks = await igniteTools(component, openaiResponses).handleToolCalls(turn.response());
    expect(counter.calls).toEqual([{ command: "increment", input: { by: 2 } }]);
    expect(todos).toEqual(['buy "oat" milk é']);
    expect(blocks[2]?.output).toContain("arguments were cut off by the output limit");
  });
});

describe("openaiResponsesStream", () => {
  it("accepts the SDK's events and gives what the dialect takes", () => {
    expectTypeOf<ResponseStreamEvent>().toExtend<OpenAIResponsesStreamEvent>();
    expectTypeOf<OpenAIResponsesStreamedResponse>().toExtend<OpenAIResponsesResponse>();
  });

  it("throws a TypeError for something that is not an event, and ignores events for no item", () => {
    const turn = openaiResponsesStream();
    expect(() => turn.push(null as unknown as OpenAIResponsesStreamEvent)).toThrow(
      /openaiResponsesStream\.push expects a Responses API stream event/,
    );
    expect(turn.push({ type: "response.output_text.delta", output_index: 3, delta: "x" })).toEqual(
      [],
    );
    expect(turn.push({ type: "response.web_search_call.searching", output_index: 0 })).toEqual([]);
    expect(turn.response()).toEqual({ output: [] });
  });

  it("waits for response.completed before a call with blank arguments is ready", () => {
    const turn = openaiResponsesStream();
    const item = {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "reset",
      arguments: "",
    };
    const deltas = feed(turn, [
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { ...item, status: "in_progress" },
      },
      { type: "response.function_call_arguments.done", output_index: 0, arguments: "" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { ...item, status: "completed" },
      },
    ]);
    expect(callEvents(deltas)).toEqual(["start 0 reset"]);
    expect(
      callEvents(turn.push({ type: "response.completed", response: { output: [item] } })),
    ).toEqual(["ready 0 reset"]);
  });

  it("streams refusals, reasoning text and annotations into their parts", () => {
    const turn = openaiResponsesStream();
    const annotation = {
      type: "url_citation",
      url: "https://example.com",
      title: "E",
      start_index: 0,
      end_index: 1,
    };
    const deltas = feed(turn, [
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id: "m", role: "assistant", status: "in_progress", content: [] },
      },
      {
        type: "response.content_part.added",
        output_index: 0,
        content_index: 0,
        part: { type: "refusal", refusal: "" },
      },
      { type: "response.refusal.delta", output_index: 0, content_index: 0, delta: "No" },
      { type: "response.refusal.done", output_index: 0, content_index: 0, refusal: "Nope" },
      {
        type: "response.content_part.added",
        output_index: 0,
        content_index: 1,
        part: { type: "output_text", text: "" },
      },
      {
        type: "response.output_text.annotation.added",
        output_index: 0,
        content_index: 1,
        annotation_index: 0,
        annotation,
      },
      {
        type: "response.output_text.annotation.added",
        output_index: 0,
        content_index: 9,
        annotation_index: 0,
        annotation,
      },
      { type: "response.output_text.delta", output_index: 0, content_index: 7, delta: "lost" },
      {
        type: "response.output_item.added",
        output_index: 1,
        item: { type: "reasoning", id: "r", summary: [] },
      },
      {
        type: "response.content_part.added",
        output_index: 1,
        content_index: 0,
        part: { type: "reasoning_text", text: "" },
      },
      { type: "response.reasoning_text.delta", output_index: 1, content_index: 0, delta: "Hmm" },
      { type: "response.reasoning_text.done", output_index: 1, content_index: 0, text: "Hmm." },
    ]);
    expect(joined(deltas, "reasoning")).toBe("Hmm");
    expect(joined(deltas, "text")).toBe("");
    expect(turn.response().output).toEqual([
      {
        type: "message",
        id: "m",
        role: "assistant",
        status: "incomplete",
        content: [
          { type: "refusal", refusal: "Nope" },
          { type: "output_text", text: "", annotations: [annotation] },
        ],
      },
      {
        type: "reasoning",
        id: "r",
        summary: [],
        status: "incomplete",
        content: [{ type: "reasoning_text", text: "Hmm." }],
      },
    ]);
  });
});
