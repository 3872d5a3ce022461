import Anthropic from "@anthropic-ai/sdk";
import type { Message, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import OpenAI from "openai";
import type { Response, ResponseCreateParams } from "openai/resources/responses/responses";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AnthropicMessage,
  type AnthropicOnDemandTools,
  type AnthropicResponse,
  type AnthropicToolResult,
  anthropic,
  ON_DEMAND_THRESHOLD,
  toolsOnDemand,
} from "../../tools/dialects/anthropic/dialect.js";
import {
  openaiResponses,
  toolsOnDemand as responsesOnDemand,
} from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  buildManifest,
  igniteTools,
  type LoopToolBridge,
  type RuntimeEvent,
  runToolLoop,
  toolSearch,
} from "../../tools/index.js";
import { useRecordingServer } from "./recording-server.js";

// Tools loaded on demand through the providers' own tool search, as their SDKs send it to a
// recording server on 127.0.0.1: every tool deferred beside the search tool once a component
// declares many commands, the search's own blocks passed back as they came, and the calls to
// the commands the model found answered through the bridge. The response shapes are the SDKs'
// types (`server_tool_use`, `tool_search_tool_result`; `tool_search_call`, `tool_search_output`).

/** A catalogue of `size` products, each with `reserve_<n>`; odd ones are out of stock (gated). */
function catalogue(size: number) {
  const reserved: string[] = [];
  const commands = Object.fromEntries(
    Array.from({ length: size }, (_, n) => [
      `reserve_${n}`,
      {
        description: `Reserve product ${n} for the customer.`,
        input: { type: "object", properties: { quantity: { type: "integer", minimum: 1 } } },
        gated: n % 2 === 1,
        availableWhen: "the product is in stock",
      },
    ]),
  );
  const component: AgentComponent<{ reserved: string[] }> = {
    getSchema: () => ({ commands }),
    canExecute: (command) => Number(command.split("_")[1]) % 2 === 0,
    execute: (command) => {
      reserved.push(command);
      return { state: { reserved: [...reserved] }, events: [] };
    },
  };
  return { component, reserved };
}

const usage = {
  cache_creation: null,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  inference_geo: null,
  input_tokens: 10,
  output_tokens: 10,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: "standard" as const,
  speed: null,
};

function message(content: Message["content"], stop: Message["stop_reason"]): Message {
  return {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: stop,
    stop_sequence: null,
    content,
    usage,
  };
}

/** `runToolLoop` over `tools`, each turn a request the Anthropic SDK's `client` sends. */
function claudeLoop(
  tools: LoopToolBridge<
    { reserved: string[] },
    RuntimeEvent,
    AnthropicOnDemandTools,
    AnthropicResponse,
    AnthropicToolResult,
    AnthropicMessage
  >,
  client: Anthropic,
  said: string,
) {
  return runToolLoop({
    tools,
    messages: [{ role: "user", content: said }],
    model: async ({ tools: defs, messages }) =>
      (await client.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 256,
        tools: defs,
        messages,
      })) as Message,
  });
}

describe("toolsOnDemand(anthropic): Anthropic's tool search tool", () => {
  const server = useRecordingServer();

  it("sends the tools as they are below the threshold, and deferred beside the search from it on", () => {
    const small = igniteTools(catalogue(4).component, toolsOnDemand(anthropic));
    expect(small.toToolDefs().map((tool) => tool.name)).toEqual(["reserve_0", "reserve_2"]);
    const large = igniteTools(catalogue(ON_DEMAND_THRESHOLD).component, toolsOnDemand(anthropic));
    const [search, ...deferred] = large.toToolDefs();
    expect(search).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    expect(deferred).toHaveLength(ON_DEMAND_THRESHOLD / 2);
    expect(deferred[0]).toMatchObject({ name: "reserve_0", defer_loading: true });
    const regex = igniteTools(
      catalogue(4).component,
      toolsOnDemand(anthropic, { threshold: 0, search: "regex" }),
    );
    expect(regex.toToolDefs()[0]).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
    expectTypeOf(large.toToolDefs()).toExtend<ToolUnion[]>();
    // Called directly, with no bridge: the commands it is given are what it counts.
    const manifest = buildManifest(catalogue(2).component.getSchema());
    expect(toolsOnDemand(anthropic, { threshold: 2 }).toToolDefs(manifest)).toHaveLength(3);
  });

  it("answers the command the search found, sending the search's blocks back as they came", async () => {
    const { component, reserved } = catalogue(40);
    const client = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
    const found = message(
      [
        {
          type: "server_tool_use",
          id: "srvtoolu_1",
          name: "tool_search_tool_bm25",
          input: { query: "reserve product 12" },
          caller: { type: "direct" },
        },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: {
            type: "tool_search_tool_search_result",
            tool_references: [{ type: "tool_reference", tool_name: "reserve_12" }],
          },
        },
        {
          type: "tool_use",
          id: "toolu_1",
          name: "reserve_12",
          input: { quantity: 2 },
          caller: { type: "direct" },
        },
        {
          type: "tool_use",
          id: "toolu_2",
          name: "reserve_13",
          input: { quantity: 1 },
          caller: { type: "direct" },
        },
      ],
      "tool_use",
    );
    server.reply(
      found,
      message([{ type: "text", text: "Reserved.", citations: null }], "end_turn"),
    );
    const tools = igniteTools(component, toolsOnDemand(anthropic));

    const result = await claudeLoop(tools, client, "Reserve two of product 12 and one of 13.");

    expect(result.stop).toBe("done");
    expect(reserved).toEqual(["reserve_12"]);
    const [first, second] = server.received;
    const sent = first?.body.tools as Record<string, unknown>[];
    expect(sent[0]).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    expect(sent.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    const history = second?.body.messages as AnthropicMessage[];
    // The assistant turn as the API returned it, search blocks included, then both answers.
    expect(history[1]?.content).toEqual(JSON.parse(JSON.stringify(found.content)));
    expect(history[2]?.content).toEqual([
      expect.objectContaining({ type: "tool_result", tool_use_id: "toolu_1" }),
      expect.objectContaining({
        type: "tool_result",
        tool_use_id: "toolu_2",
        is_error: true,
        content: expect.stringContaining("Unavailable"),
      }),
    ]);
  });

  it('with search: "client", loads what the bridge\'s own search found, as tool_reference blocks', async () => {
    const { component, reserved } = catalogue(40);
    server.clear();
    const client = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
    const use = (id: string, name: string, input: Record<string, unknown>) => ({
      type: "tool_use" as const,
      id,
      name,
      input,
      caller: { type: "direct" as const },
    });
    server.reply(
      message([use("toolu_1", "search_tools", { query: "reserve product 12" })], "tool_use"),
      message([use("toolu_2", "reserve_12", { quantity: 2 })], "tool_use"),
      message([{ type: "text", text: "Reserved.", citations: null }], "end_turn"),
    );
    const tools = igniteTools(component, toolsOnDemand(anthropic, { search: "client" }), {
      search: toolSearch({ limit: 3 }),
    });

    const result = await claudeLoop(tools, client, "Reserve two of product 12.");

    expect(result.stop).toBe("done");
    expect(reserved).toEqual(["reserve_12"]);
    const [first, second] = server.received;
    const sent = first?.body.tools as Record<string, unknown>[];
    // No server-side search: the bridge's own, loaded; every command deferred.
    expect(sent.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name)).toEqual([
      "search_tools",
    ]);
    expect(sent).toHaveLength(40 / 2 + 1);
    const history = second?.body.messages as AnthropicMessage[];
    expect(history[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "tool_reference", tool_name: "reserve_12" },
          expect.objectContaining({ type: "tool_reference" }),
          expect.objectContaining({ type: "tool_reference" }),
        ],
      },
    ]);
  });

  it('with search: "client" but no toolSearch(), defers nothing: nothing could load it', () => {
    const tools = igniteTools(
      catalogue(40).component,
      toolsOnDemand(anthropic, { search: "client" }),
    );
    expect(tools.toToolDefs().some((tool) => "defer_loading" in tool)).toBe(false);
  });

  it("refuses what it cannot defer, naming the argument", () => {
    expect(() => toolsOnDemand(undefined as never)).toThrow(
      /toolsOnDemand: dialect must be anthropic, not undefined/,
    );
    expect(() => toolsOnDemand(anthropic, { threshold: -1 })).toThrow(
      /toolsOnDemand: options.threshold must be a whole number from 0 up, not -1/,
    );
    expect(() => toolsOnDemand(anthropic, { search: "vector" as never })).toThrow(
      /toolsOnDemand: options.search must be "bm25", "regex" or "client", not "vector"/,
    );
    expect(() => toolsOnDemand(anthropic, "all" as never)).toThrow(
      /toolsOnDemand: options must be an object, not "all"/,
    );
  });
});

describe("toolsOnDemand(openaiResponses): the Responses API's hosted tool search", () => {
  const server = useRecordingServer();

  it("defers every function beside tool_search and answers what the search loaded", async () => {
    const { component, reserved } = catalogue(40);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
    const base = {
      id: "resp_1",
      object: "response" as const,
      created_at: 1_765_000_000,
      status: "completed" as const,
      error: null,
      incomplete_details: null,
      instructions: null,
      model: "gpt-5.4",
      parallel_tool_calls: true,
      temperature: 1,
      tool_choice: "auto" as const,
      tools: [],
      top_p: 1,
    };
    // The output items as the SDK types them.
    const output: Response["output"] = [
      {
        type: "tool_search_call",
        id: "tsc_1",
        call_id: null,
        execution: "server",
        status: "completed",
        arguments: { query: "reserve product 12" },
      },
      {
        type: "tool_search_output",
        id: "tso_1",
        call_id: null,
        execution: "server",
        status: "completed",
        tools: [
          {
            type: "function",
            name: "reserve_12",
            parameters: { type: "object", properties: {} },
            strict: false,
            defer_loading: true,
          },
        ],
      },
      {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "reserve_12",
        arguments: '{"quantity":2}',
        status: "completed",
      },
    ];
    const found = { ...base, output };
    server.reply(found, {
      ...base,
      id: "resp_2",
      output: [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Reserved.", annotations: [] }],
        },
      ],
    });
    const tools = igniteTools(component, responsesOnDemand(openaiResponses));
    expectTypeOf(tools.toToolDefs()).toExtend<NonNullable<ResponseCreateParams["tools"]>>();

    const result = await runToolLoop({
      tools,
      messages: [{ role: "user", content: "Reserve two of product 12." }],
      model: ({ tools: defs, messages }) =>
        client.responses.create({ model: "gpt-5.4", tools: defs, input: messages }),
    });

    expect(result.stop).toBe("done");
    expect(reserved).toEqual(["reserve_12"]);
    const [first, second] = server.received;
    const sent = first?.body.tools as Record<string, unknown>[];
    expect(sent[0]).toEqual({ type: "tool_search" });
    expect(sent.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    const input = second?.body.input as { type?: string; role?: string }[];
    expect(input.map((item) => item.type ?? item.role)).toEqual([
      "user",
      "tool_search_call",
      "tool_search_output",
      "function_call",
      "function_call_output",
    ]);
    const small = igniteTools(catalogue(4).component, responsesOnDemand(openaiResponses));
    expect(small.toToolDefs()).toEqual(
      igniteTools(catalogue(4).component, openaiResponses).toToolDefs(),
    );
    expect(() => responsesOnDemand({} as never)).toThrow(
      /toolsOnDemand: dialect must be openaiResponses, not an object/,
    );
  });
});
