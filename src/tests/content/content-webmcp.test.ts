import { type AgentComponent, type ContentPart, contentParts } from "ignite-element/tools";
import { provideWebMcp, type WebMcpToolResult } from "ignite-element/tools/webmcp";
import { describe, expect, expectTypeOf, it } from "vitest";
import { FakeModelContext } from "../hosts/webmcp-model-context.js";
import { PNG } from "./fixtures.js";

// Content parts through WebMCP: the result the page hands the browser is MCP's `CallToolResult`,
// so every part goes as the MCP content block it already is, after the outcome's text.
const parts: ContentPart[] = [
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: "UklGRiQAAABXQVZF", mimeType: "audio/wav" },
  { type: "resource_link", uri: "file:///q3.pdf", name: "q3.pdf" },
  {
    type: "resource",
    resource: { uri: "file:///q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
  },
];
const chart: AgentComponent<{ drawn: boolean }> = {
  getSchema: () => ({ commands: { chart: { description: "Draw the chart.", readOnly: true } } }),
  execute: () => ({ state: { drawn: true }, events: [], content: parts }),
};
const TEXT = '{"snapshot":{"drawn":true},"events":[]}';

async function answer(maxResultChars?: number): Promise<WebMcpToolResult> {
  const modelContext = new FakeModelContext();
  const stop = provideWebMcp(chart, {
    modelContext,
    content: contentParts(),
    ...(maxResultChars === undefined ? {} : { maxResultChars }),
  });
  await new Promise((resolve) => setTimeout(resolve, 5));
  try {
    return await modelContext.callTool("chart");
  } finally {
    stop();
  }
}

describe("content parts through provideWebMcp", () => {
  it("answer the agent with the text, then every part as its MCP content block", async () => {
    expect(await answer()).toEqual({ content: [{ type: "text", text: TEXT }, ...parts] });
  });

  it("name a part over the size cap in its place, never cutting its bytes", async () => {
    // Room for the text and the audio (about 70 characters), not for the image (about 140).
    const { content } = await answer(TEXT.length + 100);
    expect(content[0]).toEqual({ type: "text", text: TEXT });
    expect(content[1]).toEqual({
      type: "text",
      text: "[an image (image/png) was left out: over the size cap of this result]",
    });
    expect(content[2]).toEqual(parts[1]);
    expect(content).toHaveLength(5);
  });

  it("type the result as MCP's: a text block first, then any content block", () => {
    expectTypeOf<WebMcpToolResult["content"][0]>().toEqualTypeOf<{ type: "text"; text: string }>();
    expectTypeOf<ContentPart>().toExtend<WebMcpToolResult["content"][number]>();
  });
});
