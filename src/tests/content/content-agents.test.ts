import { Agent, OpenAIResponsesModel, run } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { agentsTools } from "../../tools/adapters/openai-agents.js";
import { type AgentComponent, type ContentPart, contentParts } from "../../tools/index.js";
import { useAgentsServer } from "../adapters/agents-server.js";
import { functionCall, outputMessage, response } from "../adapters/openai-fixtures.js";
import { PNG } from "./fixtures.js";

// Content parts through the Agents SDK adapter: a call that answers with parts returns the SDK's
// structured outputs (text, image, file), which its Responses model sends as `input_*` items.
const parts: ContentPart[] = [
  { type: "image", data: PNG, mimeType: "image/png" },
  {
    type: "resource",
    resource: { uri: "file:///reports/q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
  },
  { type: "resource", resource: { uri: "file:///notes.txt", text: "Sales rose." } },
  { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
  { type: "resource_link", uri: "file:///q3.pdf", name: "q3.pdf" },
];
const chart = (content?: ContentPart[]): AgentComponent<{ drawn: boolean }> => ({
  getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
  execute: () => ({ state: { drawn: true }, events: [], ...(content ? { content } : {}) }),
});
const TEXT = '{"snapshot":{"drawn":true},"events":[]}';
const { server, client } = useAgentsServer();

/** Runs one call to `draw` and gives the `function_call_output` the SDK sent back. */
async function drawn(component: AgentComponent<{ drawn: boolean }>) {
  server.reply(
    response([functionCall("call_1", "draw", "{}")]),
    response([outputMessage("Here is the chart.")]),
  );
  const model = new OpenAIResponsesModel(client(), "gpt-4o");
  const tools = agentsTools(component, { content: contentParts() });
  const result = await run(new Agent({ name: "Charts", model, tools }), "Draw.");
  expect(result.finalOutput).toBe("Here is the chart.");
  const input = server.received.at(-1)?.body.input as Array<Record<string, unknown>>;
  return input.find((item) => item.type === "function_call_output");
}

describe("content parts through agentsTools and the Agents SDK's Responses model on 127.0.0.1", () => {
  it("send the text, the image as input_image, the file as input_file, and the rest as text", async () => {
    const output = await drawn(chart(parts));
    expect(output).toMatchObject({
      call_id: "call_1",
      output: [
        { type: "input_text", text: TEXT },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
        {
          type: "input_file",
          file_data: "data:application/pdf;base64,JVBERi0xLjQK",
          filename: "q3.pdf",
        },
        { type: "input_text", text: "Sales rose." },
        {
          type: "input_text",
          text: "[audio (audio/wav) was left out: this provider takes no such content in a tool result]",
        },
        { type: "input_text", text: "Resource: q3.pdf <file:///q3.pdf>" },
      ],
    });
  });

  it("send the text alone, as before, for a command that answers without parts", async () => {
    const output = await drawn(chart());
    expect(output).toMatchObject({ call_id: "call_1", output: TEXT });
  });
});
