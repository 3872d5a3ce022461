import { describe, expect, it } from "vitest";
import {
  type AnthropicMessage,
  type AnthropicResponse,
  anthropic,
} from "../../tools/dialects/anthropic/dialect.js";
import {
  type AnthropicStreamEvent,
  anthropicStream,
} from "../../tools/dialects/anthropic/stream.js";
import {
  type AgentComponent,
  approval,
  approveCall,
  contentParts,
  igniteTools,
  resumeToolLoop,
  runToolLoop,
} from "../../tools/index.js";
import { PNG } from "./fixtures.js";

// Content parts through the agent loop: the image a command answered with reaches the model's
// next request as Anthropic's own image block, in a plain run and in one paused for a person and
// resumed from its JSON state.

const chart: AgentComponent<{ drawn: boolean }> = {
  getSchema: () => ({ commands: { draw: { description: "Draw the chart.", destructive: true } } }),
  execute: () => ({
    state: { drawn: true },
    events: [],
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  }),
};

const drawTurn: AnthropicResponse = {
  content: [{ type: "tool_use", id: "toolu_1", name: "draw", input: {} }],
};
const doneTurn: AnthropicResponse = { content: [{ type: "text", text: "Drawn." }] };

/** A model that draws, then answers; it keeps every request's messages. */
function model() {
  const seen: AnthropicMessage[][] = [];
  const turns = [drawTurn, doneTurn];
  return {
    seen,
    model: async ({ messages }: { messages: AnthropicMessage[] }) => {
      seen.push(messages);
      return turns.shift() ?? doneTurn;
    },
  };
}

const imageBlock = {
  type: "image",
  source: { type: "base64", media_type: "image/png", data: PNG },
};

describe("content parts in runToolLoop and resumeToolLoop", () => {
  it("reach the model's next request as the provider's own blocks", async () => {
    const { seen, model: ask } = model();
    const result = await runToolLoop({
      tools: igniteTools(chart, anthropic, { content: contentParts() }),
      messages: [{ role: "user", content: "Draw it." }],
      model: ask,
    });

    expect(result.stop).toBe("done");
    expect(seen[1]?.[2]).toMatchObject({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text" }, imageBlock] },
      ],
    });
  });

  it("reach the next request of a streamed run too", async () => {
    const seen: AnthropicMessage[][] = [];
    const events = (turn: AnthropicResponse): AnthropicStreamEvent[] => [
      { type: "message_start", message: { role: "assistant", content: [] } },
      ...turn.content.flatMap((block, index): AnthropicStreamEvent[] => [
        { type: "content_block_start", index, content_block: block },
        { type: "content_block_stop", index },
      ]),
      {
        type: "message_delta",
        delta: { stop_reason: turn === drawTurn ? "tool_use" : "end_turn" },
      },
      { type: "message_stop" },
    ];
    const turns = [drawTurn, doneTurn];
    const result = await runToolLoop({
      tools: igniteTools(chart, anthropic, { content: contentParts() }),
      stream: anthropicStream,
      messages: [{ role: "user", content: "Draw it." }],
      async *model({ messages }) {
        seen.push(messages);
        yield* events(turns.shift() ?? doneTurn);
      },
    });

    expect(result.stop).toBe("done");
    expect(seen[1]?.[2]).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", content: [{ type: "text" }, imageBlock] }],
    });
  });

  it("survive a pause for a person: the resumed call's image is in the request after it", async () => {
    const tools = igniteTools(chart, anthropic, {
      content: contentParts(),
      approve: approval(() => "ask"),
    });
    const first = model();
    const paused = await runToolLoop({
      tools,
      messages: [{ role: "user", content: "Draw it." }],
      model: first.model,
    });
    expect(paused.stop).toBe("approval");
    if (paused.stop !== "approval") return;

    const second = model();
    const resumed = await resumeToolLoop({
      tools,
      model: async ({ messages }) => {
        second.seen.push(messages);
        return doneTurn;
      },
      state: JSON.parse(JSON.stringify(paused.state)),
      decisions: paused.pending.map((call) => approveCall(call)),
    });

    expect(resumed.stop).toBe("done");
    expect(second.seen[0]?.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", content: [{ type: "text" }, imageBlock] }],
    });
  });
});
