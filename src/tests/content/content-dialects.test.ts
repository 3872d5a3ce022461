import type { FunctionResponsePart, Part } from "@google/genai";
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type GeminiFunctionResponseMedia,
  type GeminiFunctionResponsePart,
  gemini,
} from "../../tools/dialects/gemini/dialect.js";
import {
  type OpenAIResponsesOutputContent,
  type OpenAIResponsesToolResult,
  openaiResponses,
} from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type ContentPart,
  contentParts,
  type ExecuteResult,
  igniteTools,
  type ToolWarning,
} from "../../tools/index.js";
import { audio, image, link, notes, PNG, pdf, svg } from "./fixtures.js";

// Content parts in the OpenAI Responses API's function_call_output and in Gemini's multimodal
// function responses: each mapping, the size cap, and what neither carries.

const zip: ContentPart = {
  type: "resource",
  resource: { uri: "file:///out/all.zip", mimeType: "application/zip", blob: "UEsDBA==" },
};
const caption: ContentPart = { type: "text", text: "Q3 sales by week." };
const big: ContentPart = { type: "image", data: "A".repeat(400), mimeType: "image/png" };

const OBSERVATION = '{"snapshot":{"drawn":1},"events":[]}';
const LEFT_OUT = "this provider takes no such content in a tool result";

/** A chart whose `draw` answers with `content`, whatever it is given. */
function chart(content: readonly ContentPart[] | undefined) {
  const component: AgentComponent<{ drawn: number }> = {
    getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
    execute: () =>
      ({ state: { drawn: 1 }, events: [], content }) as ExecuteResult<{ drawn: number }, never>,
  };
  return component;
}

const responsesTurn = {
  output: [{ type: "function_call", call_id: "call_1", name: "draw", arguments: "{}" }],
};
const geminiTurn = {
  candidates: [
    { content: { role: "model", parts: [{ functionCall: { name: "draw", args: {} } }] } },
  ],
};

describe("content parts in the OpenAI Responses API (openaiResponses)", () => {
  async function answer(content: readonly ContentPart[] | undefined, maxResultChars = 20_000) {
    const heard: ToolWarning[] = [];
    const tools = igniteTools(chart(content), openaiResponses({ maxResultChars }), {
      content: contentParts(),
      onWarning: (warning) => heard.push(warning),
    });
    const [result] = await tools.handleToolCalls(responsesTurn);
    return { result, heard };
  }

  it("sends the observation's text, then texts, images and files as input items of the output", async () => {
    const { result, heard } = await answer([caption, image, pdf, notes]);
    expect(result).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: OBSERVATION },
        { type: "input_text", text: "Q3 sales by week." },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
        {
          type: "input_file",
          file_data: "data:application/pdf;base64,JVBERi0xLjQK",
          filename: "q3.pdf",
        },
        { type: "input_text", text: "Sales rose." },
      ],
    });
    expect(heard).toEqual([]);
  });

  it("names audio, a link and an image type OpenAI does not read, and warns of the audio and the image", async () => {
    const { result, heard } = await answer([audio, link, svg]);
    expect(result?.output).toEqual([
      { type: "input_text", text: OBSERVATION },
      { type: "input_text", text: `[audio (audio/wav) was left out: ${LEFT_OUT}]` },
      { type: "input_text", text: "Resource: q3.pdf <file:///reports/q3.pdf>" },
      {
        type: "input_text",
        text: "[an image (image/svg+xml) was left out: OpenAI takes images as JPEG, PNG, GIF or WebP]",
      },
    ]);
    expect(heard.map((warning) => warning.message)).toEqual([
      `draw: [audio (audio/wav) was left out: ${LEFT_OUT}]`,
      "draw: [an image (image/svg+xml) was left out: OpenAI takes images as JPEG, PNG, GIF or WebP]",
    ]);
  });

  it("names a file without a MIME type, which a data URL cannot carry", async () => {
    const bare: ContentPart = {
      type: "resource",
      resource: { uri: "file:///a.bin", blob: "AA==" },
    };
    const { result } = await answer([bare]);
    expect(result?.output).toEqual([
      { type: "input_text", text: OBSERVATION },
      {
        type: "input_text",
        text: "[the resource file:///a.bin was left out: OpenAI takes a file with its MIME type]",
      },
    ]);
  });

  it("names a part over the size cap in its place, never cut", async () => {
    const { result } = await answer([image, big], 300);
    expect(result?.output).toEqual([
      { type: "input_text", text: OBSERVATION },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      {
        type: "input_text",
        text: "[an image (image/png) was left out: over the size cap of this result]",
      },
    ]);
  });

  it("sends today's output string when the command answers without parts", async () => {
    const { result } = await answer(undefined);
    expect(result).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: OBSERVATION,
    });
  });

  it("types its output items as the SDK's function call output items", () => {
    expectTypeOf<OpenAIResponsesOutputContent>().toExtend<ResponseFunctionCallOutputItem>();
    expectTypeOf<OpenAIResponsesToolResult>().toExtend<ResponseInputItem.FunctionCallOutput>();
  });
});

describe("content parts in Gemini's function responses (gemini)", () => {
  async function answer(content: readonly ContentPart[] | undefined, maxResultChars = 20_000) {
    const heard: ToolWarning[] = [];
    const tools = igniteTools(chart(content), gemini({ maxResultChars }), {
      content: contentParts(),
      onWarning: (warning) => heard.push(warning),
    });
    const [result] = await tools.handleToolCalls(geminiTurn);
    return { result, heard };
  }

  it("sends images and files as inline data of the function response, texts in its output", async () => {
    const { result, heard } = await answer([caption, image, pdf, notes]);
    expect(result).toEqual({
      functionResponse: {
        name: "draw",
        response: {
          output: {
            snapshot: { drawn: 1 },
            events: [],
            content: [
              { type: "text", text: "Q3 sales by week." },
              { type: "text", text: "Sales rose." },
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
    });
    expect(heard).toEqual([]);
  });

  it("leaves out the content list when every part is media", async () => {
    const { result } = await answer([image]);
    expect(result?.functionResponse).toEqual({
      name: "draw",
      response: { output: { snapshot: { drawn: 1 }, events: [] } },
      parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
    });
  });

  it("names audio, a link and the types Gemini does not read in the output, and warns of each", async () => {
    const { result, heard } = await answer([audio, link, svg, zip]);
    expect(result?.functionResponse).toEqual({
      name: "draw",
      response: {
        output: {
          snapshot: { drawn: 1 },
          events: [],
          content: [
            { type: "text", text: `[audio (audio/wav) was left out: ${LEFT_OUT}]` },
            { type: "text", text: "Resource: q3.pdf <file:///reports/q3.pdf>" },
            {
              type: "text",
              text: "[an image (image/svg+xml) was left out: Gemini takes images as PNG, JPEG or WebP]",
            },
            {
              type: "text",
              text: "[the resource file:///out/all.zip was left out: Gemini takes files as PNG, JPEG, WebP, PDF or plain text]",
            },
          ],
        },
      },
    });
    expect(heard.map((warning) => warning.code)).toEqual([
      "content-left-out",
      "content-left-out",
      "content-left-out",
    ]);
  });

  it("names a part over the size cap in the output, never cut", async () => {
    const { result } = await answer([image, big], 300);
    expect(result?.functionResponse).toEqual({
      name: "draw",
      response: {
        output: {
          snapshot: { drawn: 1 },
          events: [],
          content: [
            {
              type: "text",
              text: "[an image (image/png) was left out: over the size cap of this result]",
            },
          ],
        },
      },
      parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
    });
  });

  it("sends today's function response, byte for byte, when the command answers without parts", async () => {
    const { result } = await answer(undefined);
    expect(JSON.stringify(result)).toBe(
      `{"functionResponse":{"name":"draw","response":{"output":${OBSERVATION}}}}`,
    );
  });

  it("types its media as the SDK's function response parts, and its answer as a Part", () => {
    expectTypeOf<GeminiFunctionResponseMedia>().toExtend<FunctionResponsePart>();
    expectTypeOf<GeminiFunctionResponsePart>().toExtend<Part>();
  });
});
