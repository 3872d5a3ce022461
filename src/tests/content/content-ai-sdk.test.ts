import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { aiSdkTools } from "../../tools/adapters/ai-sdk.js";
import { aiSdkContentItem } from "../../tools/adapters/ai-sdk-content.js";
import { type AgentComponent, type ContentPart, contentParts } from "../../tools/index.js";
import { scriptedModel, toolResultsIn } from "../adapters/ai-sdk-model.js";
import { functionCall, outputMessage, response } from "../adapters/openai-fixtures.js";
import { useRecordingServer } from "../clients/recording-server.js";
import { audio, image, notes, PNG, pdf } from "./fixtures.js";

// Content parts through the AI SDK adapter: `toModelOutput` answers `{ type: "content" }` with the
// observation's text, then each part in the installed AI SDK major's own form (ai@6 here; ai@7 in
// ai-sdk7.test.ts), which the provider package maps to its API.
const link: ContentPart = { type: "resource_link", uri: "file:///q3.pdf", name: "q3.pdf" };

function chart(content: ContentPart[]): AgentComponent<{ drawn: boolean }> {
  return {
    getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
    execute: () => ({ state: { drawn: true }, events: [], content }),
  };
}
const TEXT = '{"snapshot":{"drawn":true},"events":[]}';

describe("content parts through aiSdkTools", () => {
  it("reach the model as a content output: the text, then each part as AI SDK 6 names it", async () => {
    const { tools } = aiSdkTools(chart([image, audio, pdf, notes, link]), {
      content: contentParts(),
    });
    const { model, requests } = scriptedModel([
      [{ toolName: "draw", input: "{}", toolCallId: "c1" }],
      "Here is the chart.",
    ]);
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "Draw." });
    expect(result.text).toBe("Here is the chart.");
    // The application keeps the parts as the command gave them.
    const [output] = result.steps[0]?.toolResults.map((call) => call.output) ?? [];
    expect(output).toMatchObject({ ok: true, content: [image, audio, pdf, notes, link] });
    const [read] = toolResultsIn(requests[1]);
    expect(read?.output).toEqual({
      type: "content",
      value: [
        { type: "text", text: TEXT },
        { type: "image-data", data: PNG, mediaType: "image/png" },
        { type: "file-data", data: "UklGRiQAAABXQVZF", mediaType: "audio/wav" },
        {
          type: "file-data",
          data: "JVBERi0xLjQK",
          mediaType: "application/pdf",
          filename: "q3.pdf",
        },
        { type: "text", text: "Sales rose." },
        { type: "text", text: "Resource: q3.pdf <file:///q3.pdf>" },
      ],
    });
  });

  it("stay text, as before, for a command that answers without parts", async () => {
    const plain: AgentComponent<{ drawn: boolean }> = {
      ...chart([]),
      execute: () => ({ state: { drawn: true }, events: [] }),
    };
    const { tools } = aiSdkTools(plain, { content: contentParts() });
    const { model, requests } = scriptedModel([
      [{ toolName: "draw", input: "{}", toolCallId: "c1" }],
      "Done.",
    ]);
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "Draw." });
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({ type: "text", value: TEXT });
  });

  it("take each major's own form: AI SDK 5's media, 6's image-data and file-data, 7's file", () => {
    expect([5, 6, 7].map((major) => aiSdkContentItem(image, major as 5 | 6 | 7))).toEqual([
      { type: "media", data: PNG, mediaType: "image/png" },
      { type: "image-data", data: PNG, mediaType: "image/png" },
      { type: "file", data: { type: "data", data: PNG }, mediaType: "image/png" },
    ]);
    expect(aiSdkContentItem(pdf, 7)).toEqual({
      type: "file",
      data: { type: "data", data: "JVBERi0xLjQK" },
      mediaType: "application/pdf",
      filename: "q3.pdf",
    });
    const unnamed: ContentPart = { type: "resource", resource: { uri: "x:/", blob: "AAAA" } };
    expect(aiSdkContentItem(unnamed, 5)).toEqual({
      type: "media",
      data: "AAAA",
      mediaType: "application/octet-stream",
    });
  });
});

describe("content parts through aiSdkTools end to end: @ai-sdk/openai's Responses model on 127.0.0.1", () => {
  const server = useRecordingServer();

  it("sends the image as input_image and the file as input_file in the function_call_output", async () => {
    const { tools } = aiSdkTools(chart([image, pdf]), { content: contentParts() });
    server.reply(
      response([functionCall("call_1", "draw", "{}")]),
      response([outputMessage("Here is the chart.")]),
    );
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key" });
    const result = await generateText({
      model: openai.responses("gpt-4o"),
      tools,
      stopWhen: stepCountIs(3),
      prompt: "Draw.",
    });
    expect(result.text).toBe("Here is the chart.");
    const input = server.received[1]?.body.input as Array<Record<string, unknown>>;
    expect(input.find((item) => item.type === "function_call_output")).toMatchObject({
      call_id: "call_1",
      output: [
        { type: "input_text", text: TEXT },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
        {
          type: "input_file",
          filename: "q3.pdf",
          file_data: "data:application/pdf;base64,JVBERi0xLjQK",
        },
      ],
    });
  });
});
