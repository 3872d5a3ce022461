import type { ChatResponse, Message } from "ollama";

/**
 * `/api/chat` streams as Ollama documents them: newline-delimited JSON objects, each with `model`,
 * `created_at`, a `message` holding the content, thinking or whole tool calls generated since the
 * last one, and `done: false`; the last one has `done: true`, `done_reason` and the timings. With
 * `stream: false` the server answers one object: the last one's fields, with the content and the
 * thinking joined and every tool call in order. The SDK types `created_at` as a `Date` and the
 * timings as on every chunk; on the wire `created_at` is a string (what the SDK hands over) and
 * the timings come on the last chunk only.
 */
export type OllamaChunk = Pick<ChatResponse, "model" | "message" | "done"> &
  Partial<Omit<ChatResponse, "model" | "message" | "done" | "created_at">> & { created_at: string };

const timings = {
  done_reason: "stop",
  total_duration: 1_200_000,
  load_duration: 100_000,
  prompt_eval_count: 42,
  prompt_eval_duration: 300_000,
  eval_count: 21,
  eval_duration: 800_000,
};

function chunk(message: Partial<Message>, at: number): OllamaChunk {
  return {
    model: "qwen3",
    created_at: `2025-06-01T12:00:0${at}.000Z`,
    message: { role: "assistant", content: "", ...message },
    done: false,
  };
}

/** Thinking, text, then three whole calls in two chunks, then the closing chunk. */
export function ollamaToolTurn(todo: string): OllamaChunk[] {
  return [
    chunk({ thinking: "Count, note," }, 1),
    chunk({ thinking: " reset." }, 2),
    chunk({ content: "On " }, 3),
    chunk({ content: "it." }, 4),
    chunk({ tool_calls: [{ function: { name: "increment", arguments: { by: 2 } } }] }, 5),
    chunk(
      {
        tool_calls: [
          { function: { name: todo, arguments: { value: 'buy "oat" milk é' } } },
          { function: { name: "reset", arguments: {} } },
        ],
      },
      6,
    ),
    { ...chunk({}, 7), done: true, ...timings },
  ];
}

/** The same turn as `/api/chat` answers it with `stream: false`. */
export function ollamaToolResponse(todo: string): OllamaChunk {
  return {
    ...chunk(
      {
        content: "On it.",
        thinking: "Count, note, reset.",
        tool_calls: [
          { function: { name: "increment", arguments: { by: 2 } } },
          { function: { name: todo, arguments: { value: 'buy "oat" milk é' } } },
          { function: { name: "reset", arguments: {} } },
        ],
      },
      7,
    ),
    done: true,
    ...timings,
  };
}

/** The model's answer after the tools ran. */
export const ollamaFinalTurn: OllamaChunk[] = [
  chunk({ content: "Done." }, 1),
  { ...chunk({}, 2), done: true, ...timings },
];
