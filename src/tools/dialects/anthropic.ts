/**
 * The Anthropic Messages API dialect: tools as `tools[]` entries with an `input_schema`, calls
 * read from the `tool_use` blocks of a message, and every result of a turn answered as
 * `tool_result` blocks in one user message.
 */

import { isRecord } from "../core/json.js";
import type { Result } from "../core/result.js";
import type {
  LoopDialect,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolError,
} from "../core/types.js";
import { objectRequired } from "../wire/arguments.js";
import { shapeError } from "../wire/describe-value.js";
import { ANTHROPIC_NAMES } from "../wire/names.js";
import {
  configurable,
  descriptionOf,
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText } from "../wire/result-text.js";
import { ANTHROPIC_STRICT } from "../wire/strict.js";
import type {
  AnthropicContentBlockParam,
  AnthropicMessage,
  AnthropicToolResult,
} from "./anthropic-messages.js";

export type * from "./anthropic-messages.js";

/** Options of the `anthropic` dialect. */
export interface AnthropicOptions extends ResultOptions {
  /**
   * Send `strict: true` (guaranteed schema conformance) on every tool whose schema Anthropic's
   * strict mode can express; any other tool is sent as it is, without the flag.
   */
  strict?: boolean;
}

/** One entry of the Messages API `tools` array (assignable to the SDK's `Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  /** Always object-rooted: scalar, array and root-union inputs are wrapped as `{ value }`. */
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
}

/**
 * A content block of a response, as loose as the API's block union: only `tool_use` blocks are
 * read (`id`, `name`, `input`), and every other block (text, thinking, server tools, types added
 * later) is passed through. The other fields are listed, unread, so a recorded response can be
 * written as an object literal.
 */
export interface AnthropicContentBlock {
  readonly type: string;
  readonly id?: unknown;
  readonly name?: unknown;
  readonly input?: unknown;
  readonly caller?: unknown;
  readonly text?: unknown;
  readonly citations?: unknown;
  readonly thinking?: unknown;
  readonly signature?: unknown;
  readonly data?: unknown;
}

/** A Messages API response (the SDK's `Message` is assignable to it); only `content` is read. */
export interface AnthropicResponse {
  readonly content: readonly AnthropicContentBlock[];
}

/** The Anthropic dialect: tool defs, response, result block and message types. */
export type AnthropicDialect = LoopDialect<
  AnthropicTool[],
  AnthropicResponse,
  AnthropicToolResult,
  AnthropicMessage
>;

function make(options: AnthropicOptions = {}): AnthropicDialect {
  const maxChars = maxCharsOf("anthropic", options);
  // Anthropic's strict mode accepts fewer keywords than OpenAI's: its own rule decides per tool.
  const wireOptions: WireOptions = {
    names: ANTHROPIC_NAMES,
    strict: options.strict ? ANTHROPIC_STRICT : undefined,
  };

  return {
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): AnthropicTool[] {
      return toWire(manifest, wireOptions, context).tools.map((tool) => ({
        name: tool.name,
        ...descriptionOf(tool),
        input_schema: { ...tool.parameters, type: "object" as const },
        ...(tool.strict ? { strict: true } : {}),
      }));
    },

    parseToolCalls(response: AnthropicResponse, manifest: NeutralManifest): NeutralToolCall[] {
      const content = contentOf(response, "parseToolCalls");
      const wire = toWire(manifest, wireOptions);
      const calls: NeutralToolCall[] = [];
      for (const block of content) {
        if (!isRecord(block) || block.type !== "tool_use") continue;
        calls.push(toNeutralCall(wire, toProviderCall(block)));
      }
      return calls;
    },

    toToolResult(
      call: NeutralToolCall,
      result: Result<Observation, ToolError>,
    ): AnthropicToolResult {
      return {
        type: "tool_result",
        // The SDK requires a string; every call parsed from an API response carries its id.
        tool_use_id: call.id ?? "",
        content: resultText(call, result, maxChars),
        ...(result.ok ? {} : { is_error: true }),
      };
    },

    appendTurn(messages, response, results) {
      // The API accepts back every block it returns (the SDK types its ContentBlock as assignable
      // to ContentBlockParam). Mirroring that whole union here would tie this file to one SDK
      // version, so the blocks are re-sent as they are under the param type.
      const turn = [...contentOf(response, "appendTurn")] as AnthropicContentBlockParam[];
      const assistant: AnthropicMessage = { role: "assistant", content: turn };
      // Every tool_use must be answered in the next user message, so all results go in one.
      if (results.length === 0) return [...messages, assistant];
      return [...messages, assistant, { role: "user", content: [...results] }];
    },
  };
}

function toProviderCall(block: Record<string, unknown>): ProviderCall {
  const { id, name, input } = block;
  return {
    ...(typeof id === "string" ? { id } : {}),
    name: typeof name === "string" ? name : "",
    ...(isRecord(input) ? { args: input } : objectRequired(input)),
  };
}

const SHAPE =
  "a Messages API response (the parsed JSON with a `content` array, as `client.messages.create()` resolves it)";

function contentOf(response: unknown, method: string): readonly unknown[] {
  if (isRecord(response) && Array.isArray(response.content)) return response.content;
  throw shapeError(`anthropic.${method}`, SHAPE, response);
}

/**
 * The Anthropic Messages API dialect. Use it as it is, `igniteTools(component, anthropic)`, or
 * configured, `igniteTools(component, anthropic({ strict: true }))`.
 */
export const anthropic = /* @__PURE__ */ configurable(make);
