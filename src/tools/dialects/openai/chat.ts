/**
 * `openai`: the Chat Completions dialect (and so every OpenAI-compatible server): function tools,
 * calls read from `choices[0].message.tool_calls`, results as `tool` messages.
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
import { shapeError } from "../../wire/describe-value.js";
import { OPENAI_NAMES } from "../../wire/names.js";
import {
  configurable,
  descriptionOf,
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../../wire/provider-tools.js";
import { maxCharsOf, resultText } from "../../wire/result-text.js";
import { strictOf } from "../../wire/strict-option.js";
import { type OpenAIOptions, objectText, readArguments } from "./shared.js";

/** A Chat Completions function tool (assignable to the SDK's `ChatCompletionFunctionTool`). */
export interface OpenAIChatTool {
  type: "function";
  function: {
    name: string;
    description?: string;
    /** Always object-rooted: scalar, array and root-union inputs are wrapped as `{ value }`. */
    parameters: JsonSchema;
    /** Sent only with `openai({ strict })`: `true` where the strict form exists, else `false`. */
    strict?: boolean;
  };
}

/**
 * A tool call in an assistant message: a function call, or a call to a custom tool.
 * `extra_content` carries what some compatible servers attach to a call and want back (Gemini's
 * OpenAI endpoint puts its thought signature there).
 */
export type OpenAIChatToolCall =
  | {
      id: string;
      type: "function";
      function: { name: string; arguments: string };
      extra_content?: unknown;
    }
  | {
      id: string;
      type: "custom";
      custom: { name: string; input: string };
      extra_content?: unknown;
    };

/** A text part of a message's content. */
export interface OpenAIChatTextPart {
  type: "text";
  text: string;
}

/** A part of a user message's content. */
export type OpenAIChatContentPart =
  | OpenAIChatTextPart
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }
  | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string } };

/** An assistant message, as a response carries it and as a request re-sends it. */
export interface OpenAIChatAssistantMessage {
  role: "assistant";
  content?: string | Array<OpenAIChatTextPart | { type: "refusal"; refusal: string }> | null;
  refusal?: string | null;
  name?: string;
  audio?: { id: string } | null;
  function_call?: { name: string; arguments: string } | null;
  tool_calls?: OpenAIChatToolCall[];
  /** The reasoning some compatible servers return (DeepSeek, vLLM) and want back with its calls. */
  reasoning_content?: string | null;
  /** The reasoning Ollama's and OpenRouter's OpenAI endpoints return. */
  reasoning?: unknown;
  /** OpenRouter's structured reasoning, which it asks to have sent back unchanged. */
  reasoning_details?: unknown;
}

/**
 * A Chat Completions response (the SDK's `ChatCompletion` is assignable to it). Only the first
 * choice is read.
 */
export interface OpenAIChatResponse {
  readonly choices: readonly {
    readonly message: OpenAIChatAssistantMessage;
    readonly finish_reason?: string | null;
  }[];
}

/** A `tool` message answering one tool call (assignable to `ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/**
 * A Chat Completions request message; mutually assignable with the SDK's
 * `ChatCompletionMessageParam`, so a history typed either way can be passed to `appendTurn`.
 */
export type OpenAIChatMessage =
  | { role: "system" | "developer"; content: string | OpenAIChatTextPart[]; name?: string }
  | { role: "user"; content: string | OpenAIChatContentPart[]; name?: string }
  | OpenAIChatAssistantMessage
  | { role: "tool"; tool_call_id: string; content: string | OpenAIChatTextPart[] }
  | { role: "function"; name: string; content: string | null };

/** The `openai` dialect's type: Chat Completions tools, responses, results and messages. */
export type OpenAIChatDialect = LoopDialect<
  OpenAIChatTool[],
  OpenAIChatResponse,
  OpenAIChatToolMessage,
  OpenAIChatMessage
>;

const CHAT_SHAPE = "a Chat Completions response (the parsed JSON with a `choices` array)";

function chatTurn(response: OpenAIChatResponse, where: string) {
  if (!isRecord(response) || !Array.isArray(response.choices)) {
    throw shapeError(`openai.${where}`, CHAT_SHAPE, response);
  }
  const choice: unknown = response.choices[0];
  return isRecord(choice) && isRecord(choice.message)
    ? { message: choice.message, truncated: choice.finish_reason === "length" }
    : undefined;
}

function chatCall(call: unknown, cutOff: boolean): ProviderCall {
  if (!isRecord(call)) return { name: "", args: undefined };
  const id = typeof call.id === "string" ? { id: call.id } : {};
  // Some compatible servers omit `type` on function calls.
  if ((call.type === "function" || call.type === undefined) && isRecord(call.function)) {
    const { name } = call.function;
    // Assigned field by field rather than spread: this runs once per call, on the hot path.
    const { args, argsError } = readArguments(call.function, cutOff);
    const read: ProviderCall = { name: typeof name === "string" ? name : "", args };
    if (typeof call.id === "string") read.id = call.id;
    if (argsError !== undefined) read.argsError = argsError;
    return read;
  }
  // Not ours (custom tools take free text), but every tool call must be answered.
  const custom = isRecord(call.custom) ? call.custom.name : undefined;
  return {
    ...id,
    name: typeof custom === "string" ? custom : "",
    args: undefined,
    argsError: "only function tools are handled here; call one of the function tools offered",
  };
}

function makeOpenAI(options: OpenAIOptions = {}): OpenAIChatDialect {
  const maxChars = maxCharsOf("openai", options);
  const wireOptions: WireOptions = {
    names: OPENAI_NAMES,
    strict: strictOf(options.strict, "openai", "openai"),
  };
  return {
    toToolDefs: (manifest: NeutralManifest, context?: ToolDefsContext) =>
      toWire(manifest, wireOptions, context).tools.map((tool) => ({
        type: "function",
        function: {
          name: tool.name,
          ...descriptionOf(tool),
          parameters: tool.parameters,
          ...(wireOptions.strict ? { strict: tool.strict } : {}),
        },
      })),
    parseToolCalls(response, manifest): NeutralToolCall[] {
      const turn = chatTurn(response, "parseToolCalls");
      const calls: unknown = turn?.message.tool_calls;
      if (!turn || !Array.isArray(calls)) return [];
      const wire = toWire(manifest, wireOptions);
      return calls.map((call: unknown, index) =>
        toNeutralCall(wire, chatCall(call, turn.truncated && index === calls.length - 1)),
      );
    },
    toToolResult: (call: NeutralToolCall, result: Result<Observation, ToolError>) => ({
      role: "tool",
      tool_call_id: call.id ?? "",
      content: resultText(call, result, maxChars),
    }),
    appendTurn(messages, response, results) {
      const turn = chatTurn(response, "appendTurn");
      const message = response.choices[0]?.message;
      return [...messages, ...(turn && message ? [requestMessage(message)] : []), ...results];
    },
    // A user message may follow the tool messages that answer the assistant's calls.
    appendNote: (messages, note) => [...messages, { role: "user", content: note }],
  };
}

/**
 * The assistant message of a response as a request message: only the fields a request message
 * defines, set — no `refusal: null`, no `annotations`, `audio` as its `{ id }` — and the reasoning
 * compatible servers want back. Arguments that are not a JSON object go back as `"{}"`: servers
 * that re-read earlier arguments (Ollama's `/v1`, vLLM, llama.cpp) refuse every later request
 * otherwise, while the call's own answer already told the model to send it again.
 */
function requestMessage(message: OpenAIChatAssistantMessage): OpenAIChatAssistantMessage {
  const { content, refusal, name, audio, function_call, tool_calls } = message;
  const out: OpenAIChatAssistantMessage = { role: "assistant" };
  if (content !== undefined) out.content = content;
  if (typeof refusal === "string") out.refusal = refusal;
  if (typeof name === "string") out.name = name;
  if (isRecord(audio) && typeof audio.id === "string") out.audio = { id: audio.id };
  if (isRecord(function_call)) out.function_call = function_call;
  if (Array.isArray(tool_calls) && tool_calls.length > 0)
    out.tool_calls = tool_calls.map(resentCall);
  if (message.reasoning_content != null) out.reasoning_content = message.reasoning_content;
  if (message.reasoning != null) out.reasoning = message.reasoning;
  if (message.reasoning_details != null) out.reasoning_details = message.reasoning_details;
  return out;
}

function resentCall(call: OpenAIChatToolCall): OpenAIChatToolCall {
  if (!isRecord(call) || call.type === "custom" || !isRecord(call.function)) return call;
  const { id, function: fn, extra_content } = call;
  return {
    id,
    // Some compatible servers leave `type` out of a response; a request must carry it.
    type: "function",
    function: { name: fn.name, arguments: objectText(fn) },
    ...(extra_content === undefined ? {} : { extra_content }),
  };
}

/**
 * The OpenAI Chat Completions dialect, also for OpenAI-compatible servers (vLLM, LM Studio,
 * Ollama's `/v1`). Use it as is, or configured: `openai({ strict: true })`.
 */
export const openai = /* @__PURE__ */ configurable(makeOpenAI);
