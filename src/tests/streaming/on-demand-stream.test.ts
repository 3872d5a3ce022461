/**
 * Tools on demand through the providers' own tool search, in the streamed loop: the Anthropic SDK
 * and the OpenAI SDK (Responses) streaming from 127.0.0.1 a turn that searches, loads a command
 * and calls it. The search's blocks and items stream as the SDKs type them; the command found
 * runs once, when its input is complete, and the next request carries the turn as it came.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { anthropic, toolsOnDemand } from "../../tools/dialects/anthropic/dialect.js";
import { anthropicStream } from "../../tools/dialects/anthropic/stream.js";
import {
  openaiResponses,
  toolsOnDemand as responsesOnDemand,
} from "../../tools/dialects/openai/dialect.js";
import { openaiResponsesStream } from "../../tools/dialects/openai/stream.js";
import { type AgentComponent, igniteTools, runToolLoop } from "../../tools/index.js";
import { anthropicFinalTurn, anthropicSearchTurn } from "./recordings/anthropic.js";
import { responsesFinalTurn, responsesSearchTurn } from "./recordings/openai-responses.js";
import { sse, useReplayServer } from "./replay-server.js";

const server = useReplayServer();

/** Forty products to reserve, each taking a quantity; every command run is recorded. */
function catalogue() {
  const reserved: [string, unknown][] = [];
  const commands = Object.fromEntries(
    Array.from({ length: 40 }, (_, n) => [
      `reserve_${n}`,
      {
        description: `Reserve product ${n} for the customer.`,
        input: {
          type: "object",
          properties: { quantity: { type: "integer", minimum: 1 } },
          required: ["quantity"],
        },
      },
    ]),
  );
  const component: AgentComponent<{ reserved: number }> = {
    getSchema: () => ({ commands }),
    execute: (command, input) => {
      reserved.push([command, input]);
      return { state: { reserved: reserved.length }, events: [] };
    },
  };
  return { component, reserved };
}

const named = (events: readonly { type: string }[]) =>
  sse(events.map((data) => ({ event: data.type, data })));
const unnamed = (events: readonly object[]) => sse(events.map((data) => ({ data })));

describe("tools on demand through the provider's own search, in the streamed loop", () => {
  it("Anthropic: the search's blocks stream and go back as they came; the command found runs once", async () => {
    const { component, reserved } = catalogue();
    server.play(
      named(anthropicSearchTurn("reserve_12", '{"quantity": 2}')),
      named(anthropicFinalTurn),
    );
    const sdk = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
    const messages: MessageParam[] = [{ role: "user", content: "Reserve two of product 12." }];

    const result = await runToolLoop({
      tools: igniteTools(component, toolsOnDemand(anthropic)),
      stream: anthropicStream,
      model: ({ tools, messages: history, signal }) =>
        sdk.messages.stream(
          { model: "claude-sonnet-4-6", max_tokens: 1024, tools, messages: history },
          { signal },
        ),
      messages,
    });

    expect(result.stop).toBe("done");
    expect(reserved).toEqual([["reserve_12", { quantity: 2 }]]);
    const [first, second] = server.received.map((request) => request.body);
    const tools = first?.tools as Record<string, unknown>[];
    expect(tools[0]).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    expect(tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    const history = second?.messages as MessageParam[];
    expect(history[1]?.content).toEqual([
      {
        type: "server_tool_use",
        id: "srvtoolu_01",
        name: "tool_search_tool_bm25",
        input: { query: "reserve product 12" },
        caller: { type: "direct" },
      },
      {
        type: "tool_search_tool_result",
        tool_use_id: "srvtoolu_01",
        content: {
          type: "tool_search_tool_search_result",
          tool_references: [{ type: "tool_reference", tool_name: "reserve_12" }],
        },
      },
      {
        type: "tool_use",
        id: "toolu_01",
        name: "reserve_12",
        input: { quantity: 2 },
        caller: { type: "direct" },
      },
    ]);
    expect(history[2]?.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_01" }),
    ]);
  });

  it("OpenAI Responses: the search's items stream and stay in the input in order; the command found runs once", async () => {
    const { component, reserved } = catalogue();
    server.play(
      unnamed(responsesSearchTurn("reserve_12", '{"quantity":2}')),
      unnamed(responsesFinalTurn()),
    );
    const sdk = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });

    const result = await runToolLoop({
      tools: igniteTools(component, responsesOnDemand(openaiResponses)),
      stream: openaiResponsesStream,
      model: ({ tools, messages, signal }) =>
        sdk.responses.stream({ model: "gpt-5.4", tools, input: messages }, { signal }),
      messages: [{ role: "user", content: "Reserve two of product 12." }],
    });

    expect(result.stop).toBe("done");
    expect(reserved).toEqual([["reserve_12", { quantity: 2 }]]);
    const [first, second] = server.received.map((request) => request.body);
    const tools = first?.tools as Record<string, unknown>[];
    expect(tools[0]).toEqual({ type: "tool_search" });
    expect(tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    const input = second?.input as { type?: string; role?: string }[];
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      "user",
      "tool_search_call",
      "tool_search_output",
      "function_call",
      "function_call_output",
    ]);
    expect(input[2]).toMatchObject({ type: "tool_search_output", tools: [{ name: "reserve_12" }] });
  });
});
