/**
 * `openaiResponses`: the Responses API dialect: function tools, `function_call` output items,
 * results as `function_call_output` input items, reasoning items re-sent ahead of their calls.
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
import { textAndParts } from "../../wire/content-parts.js";
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
import {
  type OpenAIResponsesOutputContent,
  outputContent,
  RESPONSES_CARRIES,
  responsesRefuses,
} from "./content.js";
import { type OpenAIOptions, objectText, readArguments } from "./shared.js";

export type {
  OpenAIResponsesInputFile,
  OpenAIResponsesInputImage,
  OpenAIResponsesInputText,
  OpenAIResponsesOutputContent,
} from "./content.js";

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
  /**
   * The observation's JSON text; with content parts (`contentParts()`), a list: that text as
   * `input_text` first, then each part as `input_text`, `input_image` or `input_file`.
   */
  output: string | OpenAIResponsesOutputContent[];
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

/** A Responses output item as it goes back: a `function_call` with unreadable arguments fixed. */
function resentItem(item: OpenAIResponsesItem): OpenAIResponsesItem {
  if (item.type !== "function_call") return item;
  const text = objectText(item);
  return text === item.arguments ? item : { ...item, arguments: text };
}

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
    toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>) {
      const sent = textAndParts(call, result, maxChars);
      return {
        type: "function_call_output",
        call_id: call.id ?? "",
        output: sent
          ? outputContent(sent.text, sent.parts, maxChars)
          : resultText(call, result, maxChars),
      };
    },
    carries: RESPONSES_CARRIES,
    refuses: responsesRefuses,
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
