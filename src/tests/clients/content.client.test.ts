import Anthropic from "@anthropic-ai/sdk";
import type { Message, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { type McpHttpServer, serveMcpHttp } from "../../tools/hosts/mcp/http.js";
import {
  type AgentComponent,
  type ContentPart,
  contentParts,
  igniteTools,
} from "../../tools/index.js";
import { PNG } from "../content/fixtures.js";
import { useRecordingServer } from "./recording-server.js";

// Content parts as the real SDKs send and read them: a tool result with an image and a PDF,
// sent by the Anthropic SDK to a recording server on 127.0.0.1, and read by the MCP SDK v2
// `Client` from `serveMcpHttp` (which checks every result against the protocol's schema).

const parts: ContentPart[] = [
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
  { type: "resource_link", uri: "file:///q3.pdf", name: "q3.pdf", mimeType: "application/pdf" },
  {
    type: "resource",
    resource: { uri: "file:///q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
  },
];

const chart: AgentComponent<{ drawn: boolean }> = {
  getSchema: () => ({ commands: { draw: { description: "Draw the sales chart." } } }),
  execute: () => ({ state: { drawn: true }, events: [], content: parts }),
};

describe("content parts through the Anthropic SDK", () => {
  const server = useRecordingServer();
  let client: Anthropic;
  beforeAll(() => {
    client = new Anthropic({ baseURL: server.url, apiKey: "test-key", maxRetries: 0 });
  });

  it("sends the image and the PDF as blocks of the tool_result, in the request the SDK makes", async () => {
    const turn: Message = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-6",
      container: null,
      diagnostics: null,
      stop_details: null,
      stop_reason: "tool_use",
      stop_sequence: null,
      content: [
        { type: "tool_use", id: "toolu_1", name: "draw", input: {}, caller: { type: "direct" } },
      ],
      usage: {
        cache_creation: null,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        inference_geo: null,
        input_tokens: 10,
        output_tokens: 10,
        output_tokens_details: null,
        server_tool_use: null,
        service_tier: "standard",
        speed: null,
      },
    };
    server.reply({ ...turn, stop_reason: "end_turn", content: [] });
    const tools = igniteTools(chart, anthropic, { content: contentParts() });
    const [result] = await tools.handleToolCalls(turn);
    expectTypeOf(result).toMatchTypeOf<ToolResultBlockParam | undefined>();

    await client.messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 64,
      messages: tools.appendTurn(
        [{ role: "user", content: "Draw the chart." }],
        turn,
        result ? [result] : [],
      ),
    });

    const sent = server.received[0]?.body.messages as { content: unknown }[];
    expect(sent[2]?.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: '{"snapshot":{"drawn":true},"events":[]}' },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          {
            type: "text",
            text: "[audio (audio/wav) was left out: this provider takes no such content in a tool result]",
          },
          { type: "text", text: "Resource: q3.pdf <file:///q3.pdf>" },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" },
            title: "q3.pdf",
          },
        ],
      },
    ]);
  });
});

describe("content parts through serveMcpHttp to the MCP SDK v2 Client", () => {
  let served: McpHttpServer;
  beforeAll(async () => {
    served = await serveMcpHttp(chart, { content: contentParts() });
  });
  afterAll(() => served.close());

  it.each(["auto", "legacy"] as const)(
    "negotiating %s, reads every part as the content block it is",
    async (mode) => {
      const client = new Client(
        { name: "content-test", version: "1.0.0" },
        { versionNegotiation: { mode } },
      );
      await client.connect(new StreamableHTTPClientTransport(served.url));
      try {
        const result = await client.callTool({ name: "draw", arguments: {} });
        expect(result.content).toEqual([
          { type: "text", text: '{"snapshot":{"drawn":true},"events":[]}' },
          ...parts,
        ]);
        expect(result.structuredContent).toEqual({ snapshot: { drawn: true }, events: [] });
      } finally {
        await client.close();
      }
    },
  );
});
