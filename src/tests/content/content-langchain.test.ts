import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { langchainTools } from "../../tools/adapters/langchain.js";
import { type AgentComponent, type ContentPart, contentParts } from "../../tools/index.js";
import { PNG } from "./fixtures.js";

// Content parts through the LangChain adapter: the ToolMessage's content becomes LangChain's
// standard content blocks (`@langchain/core` 1.x) — the observation's text, then each part.
const parts: ContentPart[] = [
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
  {
    type: "resource",
    resource: { uri: "file:///q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
  },
  { type: "resource_link", uri: "file:///q3.pdf", name: "q3.pdf" },
];
const chart: AgentComponent<{ drawn: boolean }> = {
  getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
  execute: () => ({ state: { drawn: true }, events: [], content: parts }),
};
const call = { id: "call_1", name: "draw", args: {}, type: "tool_call" as const };

describe("content parts through langchainTools", () => {
  it("answer with standard content blocks: the text, an image, audio, a file, a link as text", async () => {
    const [draw] = langchainTools(chart, { content: contentParts() });
    const message = await draw?.invoke(call);
    if (!(message instanceof ToolMessage)) throw new Error("not a ToolMessage");
    expect(message.content).toEqual([
      { type: "text", text: '{"snapshot":{"drawn":true},"events":[]}' },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
      {
        type: "file",
        data: "JVBERi0xLjQK",
        mimeType: "application/pdf",
        metadata: { filename: "q3.pdf" },
      },
      { type: "text", text: "Resource: q3.pdf <file:///q3.pdf>" },
    ]);
    expect(message.artifact).toMatchObject({ ok: true, content: parts });
  });

  it("answer as text, as before, without the layer's parts", async () => {
    const plain: AgentComponent<{ drawn: boolean }> = {
      ...chart,
      execute: () => ({ state: { drawn: true }, events: [] }),
    };
    const [draw] = langchainTools(plain, { content: contentParts() });
    const message = await draw?.invoke(call);
    expect(message instanceof ToolMessage && message.content).toBe(
      '{"snapshot":{"drawn":true},"events":[]}',
    );
  });
});
