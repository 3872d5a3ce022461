import type {
  ChatCompletion,
  ChatCompletionChunk,
} from "openai/resources/chat/completions/completions";

/**
 * Chat Completions streams as the API documents them: `data:` events of `chat.completion.chunk`
 * objects, a tool call's `id`, `type` and `function.name` in its first chunk only (with empty
 * `arguments`), later chunks carrying its `index` and a piece of `arguments`, then a chunk with the
 * `finish_reason`, and with `stream_options.include_usage` a last chunk with `usage` and no
 * choices; every other chunk has `usage: null`. Typed as the SDK's own `ChatCompletionChunk`.
 */

const base = {
  id: "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
  object: "chat.completion.chunk",
  created: 1_741_570_283,
  model: "gpt-4o-2024-08-06",
  system_fingerprint: "fp_eb9dce56a8",
  service_tier: "default",
  usage: null,
} as const;

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(delta: Delta, finish_reason: ChatCompletionChunk.Choice["finish_reason"] = null) {
  return { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] };
}

/** The first chunk of a tool call: its id, type and name, and no arguments yet. */
export function opens(index: number, id: string, name: string): ChatCompletionChunk {
  return chunk({
    tool_calls: [{ index, id, type: "function", function: { name, arguments: "" } }],
  });
}

/** A later chunk of a tool call: its index and a piece of its arguments. */
export function piece(index: number, args: string): ChatCompletionChunk {
  return chunk({ tool_calls: [{ index, function: { arguments: args } }] });
}

const usage = {
  prompt_tokens: 82,
  completion_tokens: 58,
  total_tokens: 140,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 0,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
};

const finish = (reason: ChatCompletionChunk.Choice["finish_reason"]): ChatCompletionChunk[] => [
  chunk({}, reason),
  { ...base, choices: [], usage },
];

/**
 * Text, then three parallel calls whose chunks interleave by `index`: `increment` split inside a
 * token, the todo tool split inside an escape, and `reset` with `{}`.
 */
export function chatToolTurn(todo: string): ChatCompletionChunk[] {
  return [
    chunk({ role: "assistant", content: "", refusal: null }),
    chunk({ content: "On it" }),
    chunk({ content: "." }),
    opens(0, "call_DdmO9pD3xa9XTPNJ32zg2hcA", "increment"),
    opens(1, "call_ABcdEF0123456789ghijKLMN", todo),
    piece(0, '{"b'),
    piece(1, '{"value":"buy \\'),
    piece(0, 'y":2}'),
    opens(2, "call_Z9y8X7w6V5u4T3s2R1q0P9o8", "reset"),
    piece(1, '"oat\\" milk \\u00e9"'),
    piece(2, "{}"),
    piece(1, "}"),
    ...finish("tool_calls"),
  ];
}

/** The same turn as `chat.completions.create()` returns it without streaming. */
export function chatToolCompletion(todo: string): ChatCompletion {
  const { object: _, usage: __, ...fields } = base;
  return {
    ...fields,
    object: "chat.completion",
    usage,
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: "On it.",
          refusal: null,
          tool_calls: [
            {
              id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
              type: "function",
              function: { name: "increment", arguments: '{"by":2}' },
            },
            {
              id: "call_ABcdEF0123456789ghijKLMN",
              type: "function",
              function: { name: todo, arguments: '{"value":"buy \\"oat\\" milk \\u00e9"}' },
            },
            {
              id: "call_Z9y8X7w6V5u4T3s2R1q0P9o8",
              type: "function",
              function: { name: "reset", arguments: "{}" },
            },
          ],
        },
      },
    ],
  };
}

/** A turn `max_tokens` cut inside the second call's arguments: `finish_reason: "length"`. */
export const chatCutTurn: ChatCompletionChunk[] = [
  chunk({ role: "assistant", content: null, refusal: null }),
  opens(0, "call_1", "increment"),
  piece(0, '{"by":2}'),
  opens(1, "call_2", "increment"),
  piece(1, '{"by":'),
  ...finish("length"),
];

/**
 * Two parallel calls interleaved by `index`, the output limit reached while the first call's
 * arguments are still open and after the second's have closed: `finish_reason: "length"`.
 */
export function chatInterleavedCutTurn(todo: string): ChatCompletionChunk[] {
  return [
    chunk({ role: "assistant", content: null, refusal: null }),
    opens(0, "call_1", todo),
    opens(1, "call_2", "increment"),
    piece(0, '{"value":"buy oat'),
    piece(1, '{"by":2}'),
    ...finish("length"),
  ];
}

/** The model's answer after the tools ran. */
export const chatFinalTurn: ChatCompletionChunk[] = [
  chunk({ role: "assistant", content: "", refusal: null }),
  chunk({ content: "Done." }),
  ...finish("stop"),
];
