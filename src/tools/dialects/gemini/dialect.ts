/**
 * The Google Gemini `generateContent` dialect: tools as one `functionDeclarations` tool, calls read
 * from the `functionCall` parts of the first candidate, and every result of a turn answered as a
 * `functionResponse` part of one user turn.
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
import { objectArguments } from "../../wire/arguments.js";
import { withoutParts } from "../../wire/content-parts.js";
import { describeValue } from "../../wire/describe-value.js";
import { GEMINI_NAMES } from "../../wire/names.js";
import {
  descriptionOf,
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireOptions,
  type WireTool,
} from "../../wire/provider-tools.js";
import {
  cappedLine,
  errorText,
  maxCharsOf,
  type ResultOptions,
  toJsonValue,
  truncated,
} from "../../wire/result-text.js";
import { type Warn, warnerOf } from "../../wire/warnings.js";
import {
  GEMINI_CARRIES,
  type GeminiFunctionResponseMedia,
  geminiRefuses,
  responseContent,
} from "./content.js";
import { downgrade } from "./downgrade.js";
import { type GeminiSchema, restoreNumbers } from "./schema.js";

export type { GeminiFunctionResponseMedia } from "./content.js";
export type { GeminiSchema, GeminiType } from "./schema.js";

/** Options of the `gemini` dialect. */
export interface GeminiOptions extends ResultOptions {
  /**
   * How parameters are declared: `"json"` (the default) sends the full JSON Schema as
   * `parametersJsonSchema`; `"openapi"` sends `parameters`, the schema downgraded to Gemini's
   * OpenAPI subset, for models and endpoints that lack `parametersJsonSchema`.
   */
  schema?: "json" | "openapi";
}

/** A function declaration with a JSON Schema (assignable to the SDK's `FunctionDeclaration`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Always object-rooted: scalar, array and root-union inputs are wrapped as `{ value }`. */
  parametersJsonSchema: JsonSchema;
}

/** One entry of `config.tools` (assignable to the SDK's `Tool`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A function declaration with Gemini's OpenAPI-subset schema; absent for a no-argument command. */
export interface GeminiOpenApiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
}

/**
 * One entry of `config.tools` in OpenAPI mode. The SDK types `Schema.type` as its `Type` enum, so
 * this is not assignable to its `Tool` without `as Tool[]` (see docs/dialects/gemini.md).
 */
export interface GeminiOpenApiTool {
  functionDeclarations: GeminiOpenApiFunctionDeclaration[];
}

/** A function call as the model wrote it; at runtime every field is checked before use. */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/** A function response, as sent back to the model. */
export interface GeminiFunctionResponse {
  id?: string;
  name?: string;
  response?: Record<string, unknown>;
}

/**
 * A part of a turn, as loose as the API's `Part` (assignable both ways with the SDK's): only
 * `functionCall` is read, and every other field (thought signatures included) is passed through.
 */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

/** A turn of the conversation (the SDK's `Content` is assignable to it, and it to `Content`). */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** One candidate of a response; only `content` is read. */
export interface GeminiCandidate {
  readonly content?: GeminiContent;
  readonly finishReason?: string;
}

/**
 * A `generateContent` response: the SDK's `GenerateContentResponse` instance or its parsed JSON.
 * Only the first candidate is read; a response without candidates (a blocked prompt) has no calls.
 */
export interface GeminiResponse {
  readonly candidates?: readonly GeminiCandidate[];
  readonly promptFeedback?: { readonly blockReason?: string };
}

/** A `functionResponse` part answering one call (assignable to the SDK's `Part`). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    /** Present only when the model's call carried an id of its own. */
    id?: string;
    name: string;
    /** `{ output }` on success, `{ error }` on failure: Gemini has no error flag. */
    response: Record<string, unknown>;
    /** The images and files of the call's content parts (`contentParts()`), when it has any. */
    parts?: GeminiFunctionResponseMedia[];
  };
}

/** The Gemini dialect for one kind of tool definitions. */
export type GeminiDialect<ToolDefs = GeminiTool[]> = LoopDialect<
  ToolDefs,
  GeminiResponse,
  GeminiFunctionResponsePart,
  GeminiContent
>;

const WIRE: WireOptions = { names: GEMINI_NAMES };

/**
 * Gemini may leave out call ids. A call without one gets `call_<index>` (its position among the
 * function calls of the response); results echo only ids the model itself sent, because Gemini
 * pairs id-less responses with calls by order and name.
 */
const SYNTHETIC_ID = /^call_\d+$/;

function make(options?: ResultOptions & { schema?: "json" }): GeminiDialect<GeminiTool[]>;
function make(options: ResultOptions & { schema: "openapi" }): GeminiDialect<GeminiOpenApiTool[]>;
function make(options?: GeminiOptions): GeminiDialect<GeminiTool[] | GeminiOpenApiTool[]>;
function make(options: GeminiOptions = {}): GeminiDialect<GeminiTool[] | GeminiOpenApiTool[]> {
  const openapi = options.schema === "openapi";
  const maxChars = maxCharsOf("gemini", options);
  return {
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext) {
      const tools = toWire(manifest, WIRE, context).tools;
      // An empty `functionDeclarations` is rejected: no commands means no tool at all.
      if (tools.length === 0) return [];
      if (!openapi) return [{ functionDeclarations: tools.map(jsonDeclaration) }];
      const warn = warnerOf(context);
      return [{ functionDeclarations: tools.map((tool) => openApiDeclaration(tool, warn)) }];
    },

    parseToolCalls(response: GeminiResponse, manifest: NeutralManifest): NeutralToolCall[] {
      const parts: unknown = contentOf(response, "parseToolCalls")?.parts;
      if (!Array.isArray(parts)) return [];
      const wire = toWire(manifest, WIRE);
      const calls: NeutralToolCall[] = [];
      for (const part of parts) {
        if (!isRecord(part) || !isRecord(part.functionCall)) continue;
        const call = toProviderCall(part.functionCall, calls.length);
        const tool = openapi ? wire.byName.get(call.name) : undefined;
        // An enum of numbers was offered as their texts: the model answers with a text.
        const told = tool ? downgrade(tool.parameters) : undefined;
        if (told?.numbersAsText) call.args = restoreNumbers(told.schema, call.args);
        calls.push(toNeutralCall(wire, call));
      }
      return calls;
    },

    toToolResult(
      call: NeutralToolCall,
      result: Result<Observation, ToolError>,
    ): GeminiFunctionResponsePart {
      const id = typeof call.id === "string" && !SYNTHETIC_ID.test(call.id) ? { id: call.id } : {};
      const name = call.toolName ?? call.name;
      // `?.`: called directly, a dialect may be handed what is no observation; it answers that too.
      const content = result.ok ? result.value?.content : undefined;
      if (result.ok && content) {
        const base = output(withoutParts(result.value), maxChars);
        const sent = responseContent(base, content, maxChars);
        const parts = sent.parts.length > 0 ? { parts: sent.parts } : {};
        return { functionResponse: { ...id, name, response: { output: sent.output }, ...parts } };
      }
      return {
        functionResponse: {
          ...id,
          name,
          response: result.ok
            ? { output: output(result.value, maxChars) }
            : { error: cappedLine(errorText(call, result.error), maxChars) },
        },
      };
    },

    carries: GEMINI_CARRIES,
    refuses: geminiRefuses,

    appendTurn(messages, response, results) {
      const content = contentOf(response, "appendTurn");
      // Gemini requires one function response per function call, all in the next user turn; a
      // turn without calls gets no user turn, since an empty `parts` is rejected.
      return [
        ...messages,
        ...(content === undefined ? [] : [content]),
        ...(results.length === 0 ? [] : [{ role: "user", parts: [...results] }]),
      ];
    },

    appendNote(messages, note) {
      // A text part may follow the functionResponse parts of a user turn (Google's own clients
      // send parts beside them there), which keeps user and model turns alternating.
      const last = messages[messages.length - 1];
      const parts = last?.role === "user" ? last.parts : undefined;
      if (last && parts?.some((part) => isRecord(part) && part.functionResponse !== undefined)) {
        return [...messages.slice(0, -1), { ...last, parts: [...parts, { text: note }] }];
      }
      return [...messages, { role: "user", parts: [{ text: note }] }];
    },
  };
}

const WRAPPED = "/properties/value";

function jsonDeclaration(tool: WireTool): GeminiFunctionDeclaration {
  return { name: tool.name, ...descriptionOf(tool), parametersJsonSchema: tool.parameters };
}

function openApiDeclaration(tool: WireTool, warn: Warn): GeminiOpenApiFunctionDeclaration {
  const { schema: parameters, dropped: all, more } = downgrade(tool.parameters);
  // Gemini rejects an OBJECT without properties; a function without parameters leaves them unset.
  const empty = Object.keys(parameters.properties ?? {}).length === 0;
  // Paths are reported in the command's own schema: the `{ value }` wrapper is the dialect's, and
  // a closed object without properties is told exactly by leaving the parameters out.
  const dropped = all.filter(({ keyword, path }) =>
    tool.wrapped ? path.startsWith(WRAPPED) : !(empty && keyword === "additionalProperties"),
  );
  if (dropped.length > 0) {
    const where = (path: string) =>
      (tool.wrapped ? path.slice(WRAPPED.length) : path) || "the root";
    const list = dropped.map(({ keyword, path }) => `${keyword} at ${where(path)}`);
    if (more > 0) list.push(`${more} more`);
    warn(
      "schema-downgraded",
      tool.tool.name,
      `${JSON.stringify(tool.tool.name)}: Gemini's OpenAPI schema cannot carry ${list.join(", ")}; ` +
        "the model is told a looser schema, and every call is still validated against the full one.",
    );
  }
  return { name: tool.name, ...descriptionOf(tool), ...(empty ? {} : { parameters }) };
}

function toProviderCall(call: Record<string, unknown>, index: number): ProviderCall {
  const { id, name, args } = call;
  return {
    id: typeof id === "string" && id !== "" ? id : `call_${index}`,
    name: typeof name === "string" ? name : "",
    // Gemini leaves `args` out for a call without arguments.
    ...objectArguments(args, "empty"),
  };
}

/**
 * The observation as JSON data; when its JSON text is longer than `maxChars`, the object that
 * says it was cut and carries its start (`{ truncated, partial }`). Whatever a `project` function
 * returned (`undefined` included), this answers.
 */
function output(observation: Observation, maxChars: number): unknown {
  const value = toJsonValue(observation) ?? null;
  const text = JSON.stringify(value);
  return text.length > maxChars ? truncated(text, maxChars) : value;
}

// Whatever the SDK or a JSON parser can hand over for a response; a fetch `Response` has none.
const RESPONSE_KEYS = [
  "promptFeedback",
  "usageMetadata",
  "modelVersion",
  "responseId",
  "sdkHttpResponse",
  "functionCalls",
];

/** The first candidate's content, or `undefined` when there is none (a blocked prompt). */
function contentOf(response: GeminiResponse, method: string): GeminiContent | undefined {
  if (!isResponse(response)) {
    throw new TypeError(
      `gemini.${method} expects a generateContent response (the SDK's GenerateContentResponse, ` +
        `or the parsed JSON body with a \`candidates\` array), got ${wrong(response)}`,
    );
  }
  const content = response.candidates?.[0]?.content;
  return isRecord(content) ? content : undefined;
}

function isResponse(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (value.candidates !== undefined) return Array.isArray(value.candidates);
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    prototype === Object.prototype || prototype === null || RESPONSE_KEYS.some((k) => k in value)
  );
}

function wrong(value: unknown): string {
  if (isRecord(value) && value.candidates !== undefined) return "`candidates` that is not an array";
  // Plain objects are all responses, so an object here is an instance of some other class.
  return describeValue(value);
}

/**
 * The Gemini `generateContent` dialect. Use it as it is, `igniteTools(component, gemini)`, or
 * configured, `igniteTools(component, gemini({ schema: "openapi" }))`.
 */
export const gemini: typeof make & GeminiDialect<GeminiTool[]> = Object.assign(make, make());
export * from "./allowed.js";
