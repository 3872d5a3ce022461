/**
 * The Ollama dialect (`ignite-element/tools/ollama`): the native `/api/chat` API. Tools go out as
 * OpenAI-like function definitions, calls are read from `message.tool_calls` (arguments arrive
 * as an object) and each result is a `tool` message naming the tool it answers.
 */

import { isRecord } from "../../core/json.js";
import type { Result } from "../../core/result.js";
import type {
  JsonSchema,
  LoopDialect,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolError,
} from "../../core/types.js";
import { decodeArguments } from "../../wire/arguments.js";
import { shapeError } from "../../wire/describe-value.js";
import { OPENAI_NAMES } from "../../wire/names.js";
import {
  configurable,
  descriptionOf,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText } from "../../wire/result-text.js";
import { OLLAMA_CARRIES, ollamaRefuses, withImages } from "./content.js";

/** One entry of a chat request's `tools`: assignable to the SDK's `Tool`. */
export interface OllamaTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    parameters: JsonSchema;
  };
}

/** A tool call in an assistant message. Ollama's own type has no `id`; newer servers may send one. */
export interface OllamaToolCall {
  id?: string;
  function: {
    name: string;
    /** An object on the native API; a JSON string from some compatible servers is read too. */
    arguments: Record<string, unknown>;
  };
}

/** A chat message, as sent and received: assignable to and from the SDK's `Message`. */
export interface OllamaMessage {
  role: string;
  content: string;
  thinking?: string;
  images?: Uint8Array[] | string[];
  tool_calls?: OllamaToolCall[];
  tool_name?: string;
}

/** A non-streaming `/api/chat` response; the SDK's `ChatResponse` is accepted as it is. */
export interface OllamaChatResponse {
  message: OllamaMessage;
  /** `"stop"`, or `"length"` when the output was cut off: the calls that are there are read. */
  done_reason?: string;
}

/** The answer to one call: a `tool` message, assignable to the SDK's `Message`. */
export interface OllamaToolMessage {
  role: "tool";
  content: string;
  /** The tool's name as the model knows it: Ollama pairs results with calls by name and order. */
  tool_name: string;
  /**
   * The JPEG and PNG images the command returned as content parts (`contentParts()`), base64:
   * Ollama gives a vision model the images of every message, a `tool` one included.
   */
  images?: string[];
}

/** The Ollama dialect, conversation included. */
export type OllamaDialect = LoopDialect<
  OllamaTool[],
  OllamaChatResponse,
  OllamaToolMessage,
  OllamaMessage
>;

/** Options of `ollama(...)`; none yet, reserved so the export has the same shape as the others. */
export interface OllamaOptions extends ResultOptions {}

const WIRE: WireOptions = { names: OPENAI_NAMES };

function make(options: OllamaOptions = {}): OllamaDialect {
  const maxChars = maxCharsOf("ollama", options);
  return {
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): OllamaTool[] {
      return toWire(manifest, WIRE, context).tools.map((tool) => ({
        type: "function",
        function: {
          name: tool.name,
          ...descriptionOf(tool),
          parameters: tool.parameters,
        },
      }));
    },

    parseToolCalls(response: OllamaChatResponse, manifest: NeutralManifest): NeutralToolCall[] {
      const calls = toolCallsOf(response, "parseToolCalls");
      const wire = toWire(manifest, WIRE);
      return calls.flatMap((call, index) => {
        // Only function calls exist on this API; anything else is not a call we could answer.
        if (!isRecord(call) || !isRecord(call.function)) return [];
        const { name, arguments: args } = call.function;
        return [
          toNeutralCall(wire, {
            // Ollama sends no ids; one from the position lets results be paired with calls.
            id: typeof call.id === "string" && call.id !== "" ? call.id : `call_${index}`,
            name: typeof name === "string" ? name : "",
            // Some servers send JSON text; a Go server writes "no arguments" as `null` (a nil
            // map) or leaves them out, which read as the empty text: `{}`.
            ...decodeArguments(args ?? ""),
          }),
        ];
      });
    },

    toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): OllamaToolMessage {
      const tool_name = call.toolName ?? call.name;
      const sent = withImages(call, result, maxChars);
      if (!sent) return { role: "tool", content: resultText(call, result, maxChars), tool_name };
      const { content, images } = sent;
      return images.length
        ? { role: "tool", content, tool_name, images }
        : { role: "tool", content, tool_name };
    },

    carries: OLLAMA_CARRIES,
    refuses: ollamaRefuses,

    appendTurn(
      messages: readonly OllamaMessage[],
      response: OllamaChatResponse,
      results: readonly OllamaToolMessage[],
    ): OllamaMessage[] {
      toolCallsOf(response, "appendTurn");
      // The assistant message goes back as received: `thinking` and `tool_calls` included.
      return [...messages, response.message, ...results];
    },

    appendNote: (messages: readonly OllamaMessage[], note: string): OllamaMessage[] => [
      ...messages,
      { role: "user", content: note },
    ],
  };
}

/** Bridges a component to Ollama's native chat API: `igniteTools(c, ollama)` or `ollama()`. */
export const ollama = /* @__PURE__ */ configurable<OllamaOptions, OllamaDialect>(make);

const SHAPE = "an /api/chat response (parsed JSON with a `message` object)";

function toolCallsOf(response: unknown, method: string): readonly unknown[] {
  const message = isRecord(response) ? response.message : undefined;
  // A message without calls is an answer in text: no calls.
  const calls = isRecord(message) ? (message.tool_calls ?? []) : undefined;
  if (!Array.isArray(calls)) throw shapeError(`ollama.${method}`, SHAPE, response);
  return calls;
}
