import { type Message, Ollama } from "ollama";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type OllamaToolMessage, ollama } from "../../tools/dialects/ollama/dialect.js";
import {
  type AgentComponent,
  type ContentPart,
  contentParts,
  type ExecuteResult,
  igniteTools,
  type ToolWarning,
} from "../../tools/index.js";
import { useRecordingServer } from "../clients/recording-server.js";
import { audio, image, link, notes, PNG, svg } from "./fixtures.js";

// Content parts in an Ollama `tool` message: Ollama's /api/chat takes `images` (base64) on every
// message, and its server hands the images of every message, a tool one included, to the model.

const OBSERVATION = '{"snapshot":{"drawn":1},"events":[]}';
const big: ContentPart = { type: "image", data: "A".repeat(400), mimeType: "image/png" };

/** A chart whose `draw` answers with `content`. */
function chart(content?: readonly ContentPart[]) {
  const component: AgentComponent<{ drawn: number }> = {
    getSchema: () => ({ commands: { draw: { description: "Draw the chart." } } }),
    execute: () =>
      ({ state: { drawn: 1 }, events: [], content }) as ExecuteResult<{ drawn: number }, never>,
  };
  return component;
}

const turn = {
  message: {
    role: "assistant",
    content: "",
    tool_calls: [{ function: { name: "draw", arguments: {} } }],
  },
  done: true,
  done_reason: "stop",
};

async function answer(content: readonly ContentPart[], maxResultChars = 20_000) {
  const warnings: ToolWarning[] = [];
  const tools = igniteTools(chart(content), ollama({ maxResultChars }), {
    content: contentParts(),
    onWarning: (warning) => warnings.push(warning),
  });
  const [block] = await tools.handleToolCalls(turn);
  return { block, warnings };
}

describe("content parts in an Ollama tool message (ollama)", () => {
  it("sends a JPEG or PNG image in the message's images, base64, and keeps it out of the JSON", async () => {
    const jpeg: ContentPart = { type: "image", data: "/9j/4AAQ", mimeType: "image/jpeg" };
    const { block, warnings } = await answer([image, jpeg]);
    expect(block).toEqual({
      role: "tool",
      content: OBSERVATION,
      tool_name: "draw",
      images: [PNG, "/9j/4AAQ"],
    });
    expect(warnings).toEqual([]);
  });

  it("keeps texts, text resources and links in the observation's JSON beside the images", async () => {
    const { block } = await answer([notes, image, link]);
    expect(block?.images).toEqual([PNG]);
    expect(JSON.parse(block?.content ?? "")).toEqual({
      snapshot: { drawn: 1 },
      events: [],
      content: [
        { type: "text", text: "Sales rose." },
        { type: "text", text: "Resource: q3.pdf <file:///reports/q3.pdf>" },
      ],
    });
  });

  it("names an image of another type and audio in their place, and tells the application", async () => {
    const { block, warnings } = await answer([svg, audio]);
    expect(block?.images).toBeUndefined();
    expect(JSON.parse(block?.content ?? "").content).toEqual([
      {
        type: "text",
        text: "[an image (image/svg+xml) was left out: Ollama takes images as JPEG or PNG]",
      },
      {
        type: "text",
        text: "[audio (audio/wav) was left out: this provider takes no such content in a tool result]",
      },
    ]);
    expect(warnings.map((warning) => warning.code)).toEqual([
      "content-left-out",
      "content-left-out",
    ]);
  });

  it("leaves an image over the size cap out with a line that names it, never half of it", async () => {
    const { block } = await answer([image, big], 256);
    expect(block).toEqual({
      role: "tool",
      content: `${OBSERVATION}\n[an image (image/png) was left out: over the size cap of this result]`,
      tool_name: "draw",
      images: [PNG],
    });
    const none = await answer([big], 128);
    expect(none.block).toEqual({
      role: "tool",
      content: `${OBSERVATION}\n[an image (image/png) was left out: over the size cap of this result]`,
      tool_name: "draw",
    });
  });

  it("sends a result without parts, or an error, as before: no images field", async () => {
    const plain = igniteTools(chart(), ollama);
    const [block] = await plain.handleToolCalls(turn);
    expect(block).toEqual({ role: "tool", content: OBSERVATION, tool_name: "draw" });
    const direct = ollama.toToolResult(
      { name: "draw" },
      {
        ok: false,
        error: { kind: "UnknownCommand", name: "draw", message: "Unknown command draw." },
      },
    );
    expect(direct).toEqual({
      role: "tool",
      content: "Error (UnknownCommand): Unknown command draw.",
      tool_name: "draw",
    });
  });

  it("answers with a message the ollama SDK's Message type takes", () => {
    expectTypeOf<OllamaToolMessage>().toMatchTypeOf<Message>();
  });
});

const server = useRecordingServer({
  fallback: { ...turn, message: { role: "assistant", content: "A rising line." } },
});

describe("the ollama SDK sends a command's image to /api/chat", () => {
  it("carries the tool message's images as they are, beside its JSON", async () => {
    const tools = igniteTools(chart([image]), ollama, { content: contentParts() });
    server.reply(turn);
    const client = new Ollama({ host: server.url });
    const messages: Message[] = [{ role: "user", content: "Draw the chart." }];
    const first = await client.chat({
      model: "llava",
      stream: false,
      messages,
      tools: tools.toToolDefs(),
    });
    const results = await tools.handleToolCalls(first);
    const final = await client.chat({
      model: "llava",
      stream: false,
      messages: tools.appendTurn(messages, first, results),
    });
    expect(final.message.content).toBe("A rising line.");
    const sent = { role: "tool", content: OBSERVATION, tool_name: "draw", images: [PNG] };
    expect(server.received.at(-1)?.body.messages).toEqual([...messages, first.message, sent]);
  });
});
