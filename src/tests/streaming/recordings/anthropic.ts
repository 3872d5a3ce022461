import type {
  ContentBlock,
  Message,
  RawContentBlockDelta,
  RawMessageStreamEvent,
  StopReason,
} from "@anthropic-ai/sdk/resources/messages";

/**
 * Messages API streams as the API documents them ("Streaming Messages"): `message_start`, then per
 * content block `content_block_start`, its deltas and `content_block_stop`, then `message_delta`
 * with the stop reason and `message_stop`. Typed as the SDK's own stream events.
 */

const usage = {
  cache_creation: null,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  inference_geo: null,
  input_tokens: 512,
  output_tokens: 1,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: "standard",
  speed: null,
} as const;

const start: Message = {
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-6",
  container: null,
  diagnostics: null,
  stop_details: null,
  stop_reason: null,
  stop_sequence: null,
  content: [],
  usage,
};

/** One content block, streamed: its start, a delta per piece, its stop. */
function block(
  index: number,
  opened: ContentBlock,
  deltas: RawContentBlockDelta[],
): RawMessageStreamEvent[] {
  return [
    { type: "content_block_start", index, content_block: opened },
    ...deltas.map(
      (delta): RawMessageStreamEvent => ({ type: "content_block_delta", index, delta }),
    ),
    { type: "content_block_stop", index },
  ];
}

const json = (...pieces: string[]): RawContentBlockDelta[] =>
  pieces.map((partial_json) => ({ type: "input_json_delta", partial_json }));
const text = (...pieces: string[]): RawContentBlockDelta[] =>
  pieces.map((piece) => ({ type: "text_delta", text: piece }));

function toolUse(index: number, id: string, name: string, ...pieces: string[]) {
  return block(
    index,
    { type: "tool_use", id, name, input: {}, caller: { type: "direct" } },
    json(...pieces),
  );
}

function end(stop_reason: StopReason, output_tokens: number): RawMessageStreamEvent[] {
  return [
    {
      type: "message_delta",
      delta: { stop_reason, stop_sequence: null, container: null, stop_details: null },
      usage: {
        cache_creation_input_tokens: null,
        cache_read_input_tokens: null,
        input_tokens: null,
        output_tokens,
        output_tokens_details: null,
        server_tool_use: null,
      },
    },
    { type: "message_stop" },
  ];
}

/**
 * A thinking turn that calls three tools: `increment` with its input split inside a token, the
 * todo tool with a string split inside an escape, and `reset`, a tool without input, whose only
 * `input_json_delta` is empty.
 */
export function anthropicToolTurn(todo: string): RawMessageStreamEvent[] {
  return [
    { type: "message_start", message: start },
    ...block(0, { type: "thinking", thinking: "", signature: "" }, [
      { type: "thinking_delta", thinking: "Increment by two, note the" },
      { type: "thinking_delta", thinking: " errand, then reset." },
      {
        type: "signature_delta",
        signature: "EuYBCkQYAiJAgCs1le6/Pol5Z4/JMomVOouGrWdhYNsH3ukzUECbB6iW",
      },
    ]),
    ...block(1, { type: "text", text: "", citations: null }, text("I'll do ", "all three.")),
    ...toolUse(2, "toolu_01A09q90qw90lq917835lq9", "increment", "", '{"b', 'y": 2}'),
    ...toolUse(
      3,
      "toolu_01B2c3d4e5f6g7h8i9j0k1l2",
      todo,
      '{"value": "buy \\',
      '"oat\\" milk \\u00e9',
      '"}',
    ),
    ...toolUse(4, "toolu_01M3n4o5p6q7r8s9t0u1v2w3", "reset", ""),
    ...end("tool_use", 148),
  ];
}

/** The same turn as `messages.create` returns it without streaming. */
export function anthropicToolMessage(todo: string): Message {
  return {
    ...start,
    stop_reason: "tool_use",
    usage: { ...usage, output_tokens: 148 },
    content: [
      {
        type: "thinking",
        thinking: "Increment by two, note the errand, then reset.",
        signature: "EuYBCkQYAiJAgCs1le6/Pol5Z4/JMomVOouGrWdhYNsH3ukzUECbB6iW",
      },
      { type: "text", text: "I'll do all three.", citations: null },
      {
        type: "tool_use",
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "increment",
        input: { by: 2 },
        caller: { type: "direct" },
      },
      {
        type: "tool_use",
        id: "toolu_01B2c3d4e5f6g7h8i9j0k1l2",
        name: todo,
        input: { value: 'buy "oat" milk é' },
        caller: { type: "direct" },
      },
      {
        type: "tool_use",
        id: "toolu_01M3n4o5p6q7r8s9t0u1v2w3",
        name: "reset",
        input: {},
        caller: { type: "direct" },
      },
    ],
  };
}

/** A turn the output limit cut inside the second call's input: `max_tokens`. */
export function anthropicCutTurn(todo: string): RawMessageStreamEvent[] {
  return [
    { type: "message_start", message: start },
    ...toolUse(0, "toolu_01", "increment", '{"by": 2}'),
    ...toolUse(1, "toolu_02", todo, '{"value": "buy oat', ' mi", "'),
    ...end("max_tokens", 64),
  ];
}

/** The model's answer after the tools ran: text only. */
export const anthropicFinalTurn: RawMessageStreamEvent[] = [
  { type: "message_start", message: { ...start, id: "msg_02" } },
  ...block(0, { type: "text", text: "", citations: null }, text("Done: count 2, ", "milk noted.")),
  ...end("end_turn", 9),
];

/**
 * A turn of Anthropic's server-side tool search (`toolsOnDemand(anthropic)`): the search's
 * `server_tool_use` block, its input streamed; the `tool_search_tool_result` block whole, loading
 * `found`; then the model's call of it, its input streamed.
 */
export function anthropicSearchTurn(found: string, input: string): RawMessageStreamEvent[] {
  return [
    { type: "message_start", message: { ...start, id: "msg_search" } },
    ...block(
      0,
      {
        type: "server_tool_use",
        id: "srvtoolu_01",
        name: "tool_search_tool_bm25",
        input: {},
        caller: { type: "direct" },
      },
      json('{"query": "reserve', ' product 12"}'),
    ),
    ...block(
      1,
      {
        type: "tool_search_tool_result",
        tool_use_id: "srvtoolu_01",
        content: {
          type: "tool_search_tool_search_result",
          tool_references: [{ type: "tool_reference", tool_name: found }],
        },
      },
      [],
    ),
    ...toolUse(2, "toolu_01", found, input.slice(0, 4), input.slice(4)),
    ...end("tool_use", 40),
  ];
}
