import { type Content, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type GeminiContent, gemini } from "../../tools/dialects/gemini/dialect.js";
import { type OpenAIResponsesItem, openaiResponses } from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type ContentPart,
  contentParts,
  igniteTools,
} from "../../tools/index.js";
import { PNG } from "../content/fixtures.js";
import { useRecordingServer } from "./recording-server.js";

// Content parts as the real SDKs send them: a function's output with an image and a PDF, sent by
// the OpenAI SDK's `client.responses.create` and by @google/genai's `generateContent` to a
// recording server on 127.0.0.1, the request body asserted as the SDK wrote it.

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

const AUDIO_LEFT_OUT =
  "[audio (audio/wav) was left out: this provider takes no such content in a tool result]";

describe("content parts through the OpenAI SDK (Responses API)", () => {
  const server = useRecordingServer();
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
  });

  it("sends the image and the PDF as input_image and input_file items of the function_call_output", async () => {
    const call = {
      id: "fc_1",
      type: "function_call",
      status: "completed",
      call_id: "call_1",
      name: "draw",
      arguments: "{}",
    } as const;
    const turn = { status: "completed", output: [call] };
    server.reply({
      id: "resp_2",
      object: "response",
      created_at: 1_741_476_778,
      status: "completed",
      model: "gpt-5",
      output: [],
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
    });
    const tools = igniteTools(chart, openaiResponses, { content: contentParts() });
    const results = await tools.handleToolCalls(turn);
    expectTypeOf(results).toMatchTypeOf<ResponseInputItem[]>();

    const input: OpenAIResponsesItem[] = [{ role: "user", content: "Draw the chart." }];
    await client.responses.create({
      model: "gpt-5",
      input: tools.appendTurn(input, turn, results),
      store: false,
    });

    expect(server.received[0]?.path).toBe("/v1/responses");
    expect(server.received[0]?.body.input).toEqual([
      { role: "user", content: "Draw the chart." },
      call,
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: '{"snapshot":{"drawn":true},"events":[]}' },
          { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
          { type: "input_text", text: AUDIO_LEFT_OUT },
          { type: "input_text", text: "Resource: q3.pdf <file:///q3.pdf>" },
          {
            type: "input_file",
            file_data: "data:application/pdf;base64,JVBERi0xLjQK",
            filename: "q3.pdf",
          },
        ],
      },
    ]);
  });
});

describe("content parts through @google/genai (generateContent)", () => {
  const server = useRecordingServer();
  let client: GoogleGenAI;
  beforeAll(() => {
    client = new GoogleGenAI({
      apiKey: "test-key",
      httpOptions: { baseUrl: server.url, retryOptions: { attempts: 1 } },
    });
  });

  it("sends the image and the PDF as inline data parts of the function response", async () => {
    const modelTurn = { role: "model", parts: [{ functionCall: { name: "draw", args: {} } }] };
    const turn = { candidates: [{ content: modelTurn, finishReason: "STOP", index: 0 }] };
    server.reply({
      candidates: [
        { content: { role: "model", parts: [{ text: "Drawn." }] }, finishReason: "STOP", index: 0 },
      ],
    });
    const tools = igniteTools(chart, gemini, { content: contentParts() });
    const results = await tools.handleToolCalls(turn);

    const history: Content[] = [{ role: "user", parts: [{ text: "Draw the chart." }] }];
    const contents: GeminiContent[] = tools.appendTurn(history, turn, results);
    const reply = await client.models.generateContent({ model: "gemini-3-flash", contents });
    expect(reply.text).toBe("Drawn.");

    expect(server.received[0]?.path).toBe("/v1beta/models/gemini-3-flash:generateContent");
    expect(server.received[0]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Draw the chart." }] },
      modelTurn,
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "draw",
              response: {
                output: {
                  snapshot: { drawn: true },
                  events: [],
                  content: [
                    { type: "text", text: AUDIO_LEFT_OUT },
                    { type: "text", text: "Resource: q3.pdf <file:///q3.pdf>" },
                  ],
                },
              },
              parts: [
                { inlineData: { mimeType: "image/png", data: PNG } },
                {
                  inlineData: {
                    mimeType: "application/pdf",
                    data: "JVBERi0xLjQK",
                    displayName: "q3.pdf",
                  },
                },
              ],
            },
          },
        ],
      },
    ]);
  });
});
