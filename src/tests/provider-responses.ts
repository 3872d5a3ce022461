import { isRecord } from "../tools/core/json.js";
import { anthropic } from "../tools/dialects/anthropic/dialect.js";
import { gemini } from "../tools/dialects/gemini/dialect.js";
import { ollama } from "../tools/dialects/ollama/dialect.js";
import { openai, openaiResponses } from "../tools/dialects/openai/dialect.js";
import type { LoopDialect } from "../tools/index.js";

/** A tool call as a provider carries it. */
export interface SentCall {
  id?: string;
  name: string;
  /** The arguments as the provider carries them: JSON text or an object. */
  args: unknown;
}

/** How to write a recorded response for one provider dialect, and read its result text back. */
export interface ProviderCase {
  name: string;
  dialect: LoopDialect<unknown, never, unknown, unknown>;
  /** Whether the provider sends arguments as JSON text. */
  text: boolean;
  /** A response in the provider's documented shape with these calls (and `text` beside them). */
  respond(calls: SentCall[], text?: string): unknown;
  /** The text the model reads in a result block. */
  textOf(block: unknown): string;
  /** What of a response must be re-sent as messages of the conversation. */
  turnOf(response: unknown): unknown[];
}

const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/** Arguments in the provider's carriage: JSON text where it sends text. */
export function argsFor(provider: ProviderCase, args: unknown): unknown {
  return provider.text ? JSON.stringify(args) : args;
}

/** Every shipped dialect that carries a conversation, with its recorded response shape. */
export const providers: ProviderCase[] = [
  {
    name: "anthropic",
    dialect: anthropic,
    text: false,
    respond: (calls, text) => ({
      content: [
        ...(text ? [{ type: "text", text }] : []),
        ...calls.map(({ id, name, args }) => ({ type: "tool_use", id, name, input: args })),
      ],
      stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    }),
    textOf: (block) => String(record(block).content),
    turnOf: (response) => [{ role: "assistant", content: record(response).content }],
  },
  {
    name: "openai",
    dialect: openai,
    text: true,
    respond: (calls, text) => ({
      choices: [
        {
          finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          message: {
            role: "assistant",
            content: text ?? null,
            refusal: null,
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map(({ id, name, args }) => ({
                    id,
                    type: "function",
                    function: { name, arguments: args },
                  })),
                }),
          },
        },
      ],
    }),
    textOf: (block) => String(record(block).content),
    // Re-sent as a request message: the response's `refusal: null` is left out.
    turnOf: (response) => {
      const { refusal, ...message } = record(record(choices(response)[0]).message);
      return [refusal === null ? message : { ...message, refusal }];
    },
  },
  {
    name: "openaiResponses",
    dialect: openaiResponses,
    text: true,
    respond: (calls, text) => ({
      status: "completed",
      output: [
        { type: "reasoning", id: "rs_1", summary: [] },
        ...calls.map(({ id, name, args }) => ({
          type: "function_call",
          call_id: id,
          name,
          arguments: args,
        })),
        ...(text
          ? [
              {
                type: "message",
                id: "msg_1",
                role: "assistant",
                status: "completed",
                content: [{ type: "output_text", text, annotations: [] }],
              },
            ]
          : []),
      ],
    }),
    textOf: (block) => String(record(block).output),
    turnOf: (response) => list(record(response).output),
  },
  {
    name: "gemini",
    dialect: gemini,
    text: false,
    respond: (calls, text) => ({
      candidates: [
        {
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              ...(text ? [{ text }] : []),
              ...calls.map(({ id, name, args }, index) => ({
                functionCall: { id, name, args },
                // Gemini signs the first function call of a thinking model's turn.
                ...(index === 0 ? { thoughtSignature: "c2lnbmF0dXJl" } : {}),
              })),
            ],
          },
        },
      ],
    }),
    textOf: (block) => JSON.stringify(record(record(block).functionResponse).response),
    turnOf: (response) => [record(list(record(response).candidates)[0]).content],
  },
  {
    name: "ollama",
    dialect: ollama,
    text: false,
    respond: (calls, text) => ({
      model: "llama3.2",
      done: true,
      done_reason: "stop",
      message: {
        role: "assistant",
        content: text ?? "",
        ...(calls.length === 0
          ? {}
          : {
              tool_calls: calls.map(({ id, name, args }) => ({
                id,
                function: { name, arguments: args },
              })),
            }),
      },
    }),
    textOf: (block) => String(record(block).content),
    turnOf: (response) => [record(response).message],
  },
];

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function choices(response: unknown): unknown[] {
  return list(record(response).choices);
}
