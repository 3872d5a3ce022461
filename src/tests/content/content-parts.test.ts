import { describe, expect, expectTypeOf, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { mcp } from "../../tools/dialects/mcp/dialect.js";
import { openai } from "../../tools/dialects/openai/dialect.js";
import {
  type AgentComponent,
  type ContentPart,
  contentParts,
  type ExecuteResult,
  igniteTools,
  type ToolWarning,
} from "../../tools/index.js";
import { partText, textAndParts } from "../../tools/wire/content-parts.js";
import { audio, image, link, notes, PNG, pdf } from "./fixtures.js";

/** A chart whose `draw` answers with `content`, whatever it is given. */
function chart(content: unknown) {
  const component: AgentComponent<{ drawn: number }> = {
    getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
    execute: () =>
      ({ state: { drawn: 1 }, events: [], content }) as ExecuteResult<{ drawn: number }, never>,
  };
  return component;
}

const draw = { id: "c1", name: "draw", input: {} };

describe("a command's content parts without contentParts()", () => {
  it("are refused, saying what sends them, and the call is answered ExecuteFailed", async () => {
    const outcome = await igniteTools(chart([image])).invoke(draw);
    expect(outcome).toMatchObject({ ok: false, error: { kind: "ExecuteFailed" } });
    expect(outcome.ok || outcome.error.message).toContain(
      "execute() returned a result whose content is sent only by a bridge built with content: contentParts()",
    );
  });
});

describe("contentParts()", () => {
  it("hands invoke the parts as the command gave them", async () => {
    const tools = igniteTools(chart([image, notes]), undefined, { content: contentParts() });
    const outcome = await tools.invoke(draw);
    expect(outcome).toEqual({
      ok: true,
      value: { snapshot: { drawn: 1 }, events: [], content: [image, notes] },
    });
  });

  it.each([
    ["not a list", { type: "image" }, "content is not an array of content parts"],
    [
      "an unknown type",
      [{ type: "video", data: PNG }],
      'content[0] has type "video"; a part is text, image, audio, resource_link or resource',
    ],
    [
      "a MIME type that is not one",
      [{ type: "image", data: PNG, mimeType: "png" }],
      'content[0] has a mimeType that is not one (type/subtype): "png"',
    ],
    [
      "data that is not base64",
      [image, { type: "audio", data: "not base64!", mimeType: "audio/wav" }],
      "content[1].data is not base64-encoded bytes",
    ],
    [
      "a link without a name",
      [{ type: "resource_link", uri: "file:///a" }],
      "content[0].name is not a string",
    ],
    [
      "a resource without a URI",
      [{ type: "resource", resource: { text: "x" } }],
      "content[0].resource.uri is not a string",
    ],
  ])("refuses %s whole, naming it, and sends nothing of it", async (_what, content, message) => {
    const tools = igniteTools(chart(content), mcp, { content: contentParts() });
    const [answer] = await tools.answerToolCalls({ name: "draw", arguments: {} });
    expect(answer?.outcome).toMatchObject({ ok: false, error: { kind: "ExecuteFailed" } });
    expect(answer?.block.content[0].text).toContain(`execute() returned a result whose ${message}`);
    expect(answer?.block.content).toHaveLength(1);
  });

  it("types what execute may return, and a part, from the package", () => {
    expectTypeOf<ExecuteResult<number, never>["content"]>().toEqualTypeOf<
      readonly ContentPart[] | undefined
    >();
    expectTypeOf({
      type: "image",
      data: "",
      mimeType: "image/png",
    } as const).toMatchTypeOf<ContentPart>();
  });
});

describe("content parts in each dialect", () => {
  it("says each part as text for a provider that takes it as text, and names the bytes it cannot", () => {
    const said: ContentPart = { type: "text", text: "A chart of Q3." };
    const why = "was left out: this provider takes no such content in a tool result";
    expect([said, notes, link, image, pdf].map(partText)).toEqual([
      "A chart of Q3.",
      "Sales rose.",
      "Resource: q3.pdf <file:///reports/q3.pdf>",
      `[an image (image/png) ${why}]`,
      `[the resource file:///reports/q3.pdf ${why}]`,
    ]);
  });

  it("splits only a success with parts into its text without them and the parts", () => {
    const snapshot = { drawn: 1 };
    expect(
      textAndParts(draw, { ok: true, value: { snapshot, events: [], content: [image] } }, 1000),
    ).toEqual({
      text: '{"snapshot":{"drawn":1},"events":[]}',
      parts: [image],
    });
    expect(textAndParts(draw, { ok: true, value: { snapshot, events: [] } }, 1000)).toBeUndefined();
    expect(textAndParts(draw, { ok: true, value: undefined as never }, 1000)).toBeUndefined();
    const failed = { code: "Unavailable", message: "no" } as const;
    expect(textAndParts(draw, { ok: false, error: failed as never }, 1000)).toBeUndefined();
  });

  it("has a dialect called directly, without the layer, name a part its provider refuses", () => {
    const svg: ContentPart = { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" };
    const value = { snapshot: {}, events: [], content: [svg] };
    expect(anthropic.toToolResult(draw, { ok: true, value }).content).toEqual([
      { type: "text", text: '{"snapshot":{},"events":[]}' },
      {
        type: "text",
        text: "[an image (image/svg+xml) was left out: Anthropic takes images as JPEG, PNG, GIF or WebP]",
      },
    ]);
  });

  it("leaves a dialect called directly with no observation answering as before", () => {
    const nothing = { ok: true as const, value: undefined as never };
    expect(mcp.toToolResult(draw, nothing).content).toEqual([{ type: "text", text: "null" }]);
    expect(anthropic.toToolResult(draw, nothing).content).toBe("null");
  });

  it("MCP: the observation's text, then each part as the MCP content block it already is", async () => {
    const tools = igniteTools(chart([image, audio, link, pdf, notes]), mcp, {
      content: contentParts(),
    });
    const [answer] = await tools.answerToolCalls({ name: "draw", arguments: {} });
    expect(answer?.block).toEqual({
      content: [
        { type: "text", text: '{"snapshot":{"drawn":1},"events":[]}' },
        image,
        audio,
        link,
        pdf,
        notes,
      ],
      structuredContent: { snapshot: { drawn: 1 }, events: [] },
    });
  });

  it("MCP: a part over the size cap is named in its place, never cut", async () => {
    const big: ContentPart = { type: "image", data: "A".repeat(400), mimeType: "image/png" };
    const tools = igniteTools(chart([image, big]), mcp({ maxResultChars: 300 }), {
      content: contentParts(),
    });
    const [answer] = await tools.answerToolCalls({ name: "draw", arguments: {} });
    expect(answer?.block.content).toEqual([
      { type: "text", text: '{"snapshot":{"drawn":1},"events":[]}' },
      image,
      {
        type: "text",
        text: "[an image (image/png) was left out: over the size cap of this result]",
      },
    ]);
  });

  it("MCP with keepOverCap: a resource over the cap is handed over and linked to, an image named", async () => {
    const kept: unknown[] = [];
    const big: ContentPart = { type: "image", data: "A".repeat(400), mimeType: "image/png" };
    const written = { uri: "file:///out/report.txt", text: "B".repeat(400) };
    const report: ContentPart = { type: "resource", resource: written };
    const dialect = mcp({ maxResultChars: 300, keepOverCap: (resource) => kept.push(resource) });
    const tools = igniteTools(chart([report, big, pdf]), dialect, { content: contentParts() });
    const [answer] = await tools.answerToolCalls({ name: "draw", arguments: {} });
    expect(answer?.block.content).toEqual([
      { type: "text", text: '{"snapshot":{"drawn":1},"events":[]}' },
      { type: "resource_link", uri: "file:///out/report.txt", name: "report.txt" },
      {
        type: "text",
        text: "[an image (image/png) was left out: over the size cap of this result]",
      },
      pdf,
    ]);
    expect(kept).toEqual([written]);
    expect(() => mcp({ keepOverCap: "memory" as never })).toThrow(
      'mcp: keepOverCap must be a function, not "memory" (a string)',
    );
  });

  it("Anthropic: images and documents as its own blocks, what it cannot take named in a text", async () => {
    const heard: ToolWarning[] = [];
    const svg: ContentPart = { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" };
    const tools = igniteTools(chart([image, pdf, notes, svg, audio, link]), anthropic, {
      content: contentParts(),
      onWarning: (warning) => heard.push(warning),
    });
    const response = {
      role: "assistant" as const,
      content: [{ type: "tool_use" as const, id: "toolu_1", name: "draw", input: {} }],
    };
    const [answer] = await tools.answerToolCalls(response);
    expect(answer?.block.content).toEqual([
      { type: "text", text: '{"snapshot":{"drawn":1},"events":[]}' },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQK" },
        title: "q3.pdf",
      },
      {
        type: "document",
        source: { type: "text", media_type: "text/plain", data: "Sales rose." },
        title: "notes.txt",
      },
      {
        type: "text",
        text: "[an image (image/svg+xml) was left out: Anthropic takes images as JPEG, PNG, GIF or WebP]",
      },
      {
        type: "text",
        text: "[audio (audio/wav) was left out: this provider takes no such content in a tool result]",
      },
      { type: "text", text: "Resource: q3.pdf <file:///reports/q3.pdf>" },
    ]);
    // What the provider does not read, by kind or by MIME type, is told to the application too.
    expect(heard).toEqual([
      {
        code: "content-left-out",
        command: "draw",
        message:
          "draw: [an image (image/svg+xml) was left out: Anthropic takes images as JPEG, PNG, GIF or WebP]",
      },
      {
        code: "content-left-out",
        command: "draw",
        message:
          "draw: [audio (audio/wav) was left out: this provider takes no such content in a tool result]",
      },
    ]);
  });

  it("a text-only provider (OpenAI Chat Completions): texts in the JSON, bytes named, never sent", async () => {
    const tools = igniteTools(chart([image, notes, link]), openai, { content: contentParts() });
    const [answer] = await tools.answerToolCalls({
      choices: [
        {
          message: {
            role: "assistant",
            tool_calls: [
              { id: "c1", type: "function", function: { name: "draw", arguments: "{}" } },
            ],
          },
        },
      ],
    });
    expect(JSON.parse(answer?.block.content ?? "")).toEqual({
      snapshot: { drawn: 1 },
      events: [],
      content: [
        {
          type: "text",
          text: "[an image (image/png) was left out: this provider takes no such content in a tool result]",
        },
        { type: "text", text: "Sales rose." },
        { type: "text", text: "Resource: q3.pdf <file:///reports/q3.pdf>" },
      ],
    });
    expect(answer?.block.content).not.toContain(PNG);
  });
});
