/**
 * The two OpenAI dialects. `openai` speaks Chat Completions (and so every OpenAI-compatible
 * server): function tools, calls read from `choices[0].message.tool_calls`, results as `tool`
 * messages. `openaiResponses` speaks the Responses API: function tools, `function_call` output
 * items, results as `function_call_output` input items.
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
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText, toJsonText } from "../../wire/result-text.js";
import { OPENAI_STRICT, type StrictRule } from "../../wire/strict.js";
import { strictOf } from "../../wire/strict-option.js";

export type { StrictRule } from "../../wire/strict.js";

/** Options of the `openai` and `openaiResponses` dialects. */
export interface OpenAIOptions extends ResultOptions {
  /**
   * Structured outputs: send every tool whose schema strict mode can express in strict form with
   * `strict: true`; any other tool falls back to `strict: false`. Give `openaiStrict` (from this
   * entrypoint) to carry strict mode in a browser or worker bundle: there `true` is refused, so
   * that a bundle without strict mode carries none of its code.
   *
   * @example
   * ```ts
   * igniteTools(component, openai({ strict: openaiStrict }));
   * ```
   */
  strict?: boolean | StrictRule;
}

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

/** A Responses API function tool (assignable to the SDK's `FunctionTool`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description?: string;
  /** Always object-rooted: scalar, array and root-union inputs are wrapped as `{ value }`. */
  parameters: JsonSchema;
  /** Always sent: when it is omitted the Responses API applies strict mode by default. */
  strict: boolean;
}

/** Any other output item (built-in tool calls, future kinds): passed through, never read. */
export interface OpenAIResponsesOtherItem {
  readonly type: string;
  readonly status?: string | null;
}

/**
 * An item of a response's `output`. Only `function_call` items are read; every other item is
 * passed through.
 */
export type OpenAIResponsesOutputItem =
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesReasoning
  | OpenAIResponsesOutputMessage
  | OpenAIResponsesOtherItem;

/** A Responses API response (the SDK's `Response` is assignable to it). */
export interface OpenAIResponsesResponse {
  readonly output: readonly OpenAIResponsesOutputItem[];
  /** `"incomplete"` when the output was cut off; the last item may then be partial. */
  readonly status?: string | null;
}

/** A `function_call_output` item answering one call (assignable to `FunctionCallOutput`). */
export interface OpenAIResponsesToolResult {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** A `function_call` item: a call the model made. */
export interface OpenAIResponsesFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: "in_progress" | "completed" | "incomplete";
}

/** A `reasoning` item; the API requires it back ahead of the calls that followed it. */
export interface OpenAIResponsesReasoning {
  type: "reasoning";
  id: string;
  summary: { type: "summary_text"; text: string }[];
  content?: { type: "reasoning_text"; text: string }[];
  encrypted_content?: string | null;
  status?: "in_progress" | "completed" | "incomplete";
}

/** An assistant output message, re-sent as it came. */
export interface OpenAIResponsesOutputMessage {
  type: "message";
  id: string;
  role: "assistant";
  status: "in_progress" | "completed" | "incomplete";
  content: Array<
    | { type: "output_text"; text: string; annotations: OpenAIResponsesAnnotation[] }
    | { type: "refusal"; refusal: string }
  >;
}

/** A citation in an output text. */
export type OpenAIResponsesAnnotation =
  | { type: "url_citation"; url: string; title: string; start_index: number; end_index: number }
  | { type: "file_citation"; file_id: string; filename: string; index: number }
  | { type: "file_path"; file_id: string; index: number }
  | {
      type: "container_file_citation";
      container_id: string;
      file_id: string;
      filename: string;
      start_index: number;
      end_index: number;
    };

/** A message you write: an instruction, a user turn or an assistant turn. */
export interface OpenAIResponsesInputMessage {
  type?: "message";
  role: "user" | "assistant" | "system" | "developer";
  content:
    | string
    | Array<
        | { type: "input_text"; text: string }
        | {
            type: "input_image";
            detail: "low" | "high" | "auto" | "original";
            image_url?: string | null;
            file_id?: string | null;
          }
      >;
}

/**
 * An item of a Responses API `input` (assignable to the SDK's `ResponseInputItem`). `appendTurn`
 * re-sends every output item unchanged, including kinds not listed here (built-in tool calls).
 */
export type OpenAIResponsesItem =
  | OpenAIResponsesInputMessage
  | OpenAIResponsesOutputMessage
  | OpenAIResponsesReasoning
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesToolResult;

/** The `openaiResponses` dialect's type: Responses API tools, responses, results and items. */
export type OpenAIResponsesDialect = LoopDialect<
  OpenAIResponsesTool[],
  OpenAIResponsesResponse,
  OpenAIResponsesToolResult,
  OpenAIResponsesItem
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

/** A Responses output item as it goes back: a `function_call` with unreadable arguments fixed. */
function resentItem(item: OpenAIResponsesItem): OpenAIResponsesItem {
  if (item.type !== "function_call") return item;
  const text = objectText(item);
  return text === item.arguments ? item : { ...item, arguments: text };
}

// The argument texts `parseToolCalls` read as an object's JSON, by the object that holds them:
// `appendTurn` sends each back, and would otherwise parse it a second time (a tenth of a turn).
const objectTexts = new WeakMap<object, string>();

/** The arguments `holder` carries, decoded; a text that is an object's JSON is remembered. */
function readArguments(holder: { arguments?: unknown }, cutOff: boolean) {
  const text = holder.arguments;
  const read = decodeArguments(text, { cutOff });
  // A blank text reads as `{}` but is not an object's JSON.
  if (typeof text === "string" && isRecord(read.args) && text.trim() !== "") {
    objectTexts.set(holder, text);
  }
  return read;
}

/** `holder.arguments` as the JSON text of an object: as it is when it is one, else `"{}"`. */
function objectText(holder: { arguments?: unknown }): string {
  const args = holder.arguments;
  if (typeof args === "string" && objectTexts.get(holder) === args) return args;
  if (typeof args !== "string") return isRecord(args) ? toJsonText(args) : "{}";
  try {
    return isRecord(JSON.parse(args)) ? args : "{}";
  } catch {
    return "{}";
  }
}

/**
 * The OpenAI Chat Completions dialect, also for OpenAI-compatible servers (vLLM, LM Studio,
 * Ollama's `/v1`). Use it as is, or configured: `openai({ strict: true })`.
 */
export const openai = /* @__PURE__ */ configurable(makeOpenAI);

const RESPONSES_SHAPE = "a Responses API response (the parsed JSON with an `output` array)";

function responsesOutput(response: OpenAIResponsesResponse, where: string) {
  if (!isRecord(response) || !Array.isArray(response.output)) {
    throw shapeError(`openaiResponses.${where}`, RESPONSES_SHAPE, response);
  }
  return response.output;
}

function makeOpenAIResponses(options: OpenAIOptions = {}): OpenAIResponsesDialect {
  const maxChars = maxCharsOf("openaiResponses", options);
  const wireOptions: WireOptions = {
    names: OPENAI_NAMES,
    strict: strictOf(options.strict, "openai", "openaiResponses"),
  };
  return {
    toToolDefs: (manifest: NeutralManifest, context?: ToolDefsContext) =>
      toWire(manifest, wireOptions, context).tools.map((tool) => ({
        type: "function",
        name: tool.name,
        ...descriptionOf(tool),
        parameters: tool.parameters,
        strict: tool.strict,
      })),
    parseToolCalls(response, manifest): NeutralToolCall[] {
      const output = responsesOutput(response, "parseToolCalls");
      const incomplete = response.status === "incomplete";
      const wire = toWire(manifest, wireOptions);
      return output.flatMap((item: unknown, index) => {
        if (!isRecord(item) || item.type !== "function_call") return [];
        const cutOff = item.status === "incomplete" || (incomplete && index === output.length - 1);
        const { call_id: id, name } = item;
        const { args, argsError } = readArguments(item, cutOff);
        const read: ProviderCall = { name: typeof name === "string" ? name : "", args };
        if (typeof id === "string") read.id = id;
        if (argsError !== undefined) read.argsError = argsError;
        return toNeutralCall(wire, read);
      });
    },
    toToolResult: (call: NeutralToolCall, result: Result<Observation, ToolError>) => ({
      type: "function_call_output",
      call_id: call.id ?? "",
      output: resultText(call, result, maxChars),
    }),
    appendTurn(messages, response, results) {
      // The API takes every output item back as input. Only the pass-through item type is too
      // loose to say so; the kinds a function-calling turn produces are typed exactly.
      const output = responsesOutput(response, "appendTurn") as readonly OpenAIResponsesItem[];
      return [...messages, ...output.map(resentItem), ...results];
    },
    appendNote: (messages, note) => [
      ...messages,
      { type: "message", role: "user", content: [{ type: "input_text", text: note }] },
    ],
  };
}

/**
 * The OpenAI Responses API dialect. Use it as is, or configured: `openaiResponses({ strict })`.
 */
export const openaiResponses = /* @__PURE__ */ configurable(makeOpenAIResponses);

/**
 * OpenAI's strict mode (structured outputs), as a value: `openai({ strict: openaiStrict })` and
 * `openaiResponses({ strict: openaiStrict })` carry it in any build, a browser's included.
 */
export const openaiStrict: StrictRule = OPENAI_STRICT;
