/**
 * The Anthropic Messages API dialect: tools as `tools[]` entries with an `input_schema`, calls
 * read from the `tool_use` blocks of a message, and every result of a turn answered as
 * `tool_result` blocks in one user message.
 */

import { isRecord } from "../../core/json.js";
import type { Result } from "../../core/result.js";
import type {
  LoopDialect,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolError,
} from "../../core/types.js";
import { CUT_OFF, objectRequired } from "../../wire/arguments.js";
import { textAndParts } from "../../wire/content-parts.js";
import { shapeError } from "../../wire/describe-value.js";
import { ANTHROPIC_NAMES } from "../../wire/names.js";
import {
  configurable,
  descriptionOf,
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireOptions,
} from "../../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText } from "../../wire/result-text.js";
import { ANTHROPIC_STRICT, type StrictRule } from "../../wire/strict.js";
import { strictOf } from "../../wire/strict-option.js";

export type { StrictRule } from "../../wire/strict.js";

import { ANTHROPIC_CARRIES, anthropicRefuses, resultContent } from "./content.js";

import type {
  AnthropicContentBlockParam,
  AnthropicMessage,
  AnthropicTextBlockParam,
  AnthropicTool,
  AnthropicToolResult,
} from "./messages.js";

export type { OnDemandOptions } from "../../wire/on-demand.js";
export { ON_DEMAND_THRESHOLD } from "../../wire/on-demand.js";
export type * from "./messages.js";
export * from "./on-demand.js";

import type { OnDemand } from "./on-demand.js";

/** Options of the `anthropic` dialect. */
export interface AnthropicOptions extends ResultOptions {
  /**
   * Send `strict: true` (guaranteed schema conformance) on every tool whose schema Anthropic's
   * strict mode can express; any other tool is sent as it is, without the flag. Give
   * `anthropicStrict` (from this entrypoint) to carry strict mode in a browser or worker bundle:
   * there `true` is refused, so that a bundle without strict mode carries none of its code.
   */
  strict?: boolean | StrictRule;
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

/** A Messages API response (the SDK's `Message` is assignable to it); `content` is read. */
export interface AnthropicResponse {
  readonly content: readonly AnthropicContentBlock[];
  /**
   * `"max_tokens"` or `"model_context_window_exceeded"` when the output was cut off, `null` while
   * a streamed message is unfinished: then a `tool_use` that is the last block is answered as cut
   * off, never run, since its `input` may hold only part of what the model wrote.
   */
  readonly stop_reason?: string | null;
}

/** The Anthropic dialect: tool defs, response, result block and message types. */
export type AnthropicDialect = LoopDialect<
  AnthropicTool[],
  AnthropicResponse,
  AnthropicToolResult,
  AnthropicMessage
>;

/** `toolsOnDemand(anthropic)`: the dialect, its tools deferred beside Anthropic's tool search. */
export type AnthropicOnDemandDialect = OnDemand<AnthropicDialect>;

function make(options: AnthropicOptions = {}): AnthropicDialect {
  const maxChars = maxCharsOf("anthropic", options);
  // Anthropic's strict mode accepts fewer keywords than OpenAI's: its own rule decides per tool.
  const wireOptions: WireOptions = {
    names: ANTHROPIC_NAMES,
    strict: strictOf(options.strict, "anthropic", "anthropic"),
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
      // Blocks stream one after another, so only the last one can have been cut.
      const cut = CUT_REASONS.includes(response.stop_reason) ? content.length - 1 : -1;
      const calls: NeutralToolCall[] = [];
      content.forEach((block, index) => {
        if (!isRecord(block) || block.type !== "tool_use") return;
        calls.push(toNeutralCall(wire, toProviderCall(block, index === cut)));
      });
      return calls;
    },

    toToolResult(
      call: NeutralToolCall,
      result: Result<Observation, ToolError>,
    ): AnthropicToolResult {
      const sent = textAndParts(call, result, maxChars);
      return {
        type: "tool_result",
        // The SDK requires a string; every call parsed from an API response carries its id.
        tool_use_id: call.id ?? "",
        content: sent
          ? resultContent(sent.text, sent.parts, maxChars)
          : resultText(call, result, maxChars),
        ...(result.ok ? {} : { is_error: true }),
      };
    },

    carries: ANTHROPIC_CARRIES,
    refuses: anthropicRefuses,

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

    appendNote(messages, note) {
      // Anthropic documents text after the tool_result blocks of a user message: the note goes
      // there, beside the results it follows; elsewhere it is a user message of its own.
      const last = messages[messages.length - 1];
      const text: AnthropicTextBlockParam = { type: "text", text: note };
      if (last?.role === "user" && Array.isArray(last.content) && last.content.some(isResult)) {
        return [...messages.slice(0, -1), { role: "user", content: [...last.content, text] }];
      }
      return [...messages, { role: "user", content: [text] }];
    },
  };
}

function isResult(block: unknown): boolean {
  return isRecord(block) && block.type === "tool_result";
}

const CUT_REASONS: unknown[] = ["max_tokens", "model_context_window_exceeded", null];

function toProviderCall(block: Record<string, unknown>, cutOff: boolean): ProviderCall {
  const { id, name, input } = block;
  return {
    ...(typeof id === "string" ? { id } : {}),
    name: typeof name === "string" ? name : "",
    // A cut block's input is whatever part arrived (the SDK's stream helper even guesses the
    // rest): it is never read as the model's input.
    ...(cutOff
      ? { args: undefined, argsError: CUT_OFF }
      : isRecord(input)
        ? { args: input }
        : objectRequired(input)),
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

/**
 * Anthropic's strict tool use, as a value: `anthropic({ strict: anthropicStrict })` carries it in
 * any build, a browser's included.
 */
export const anthropicStrict: StrictRule = ANTHROPIC_STRICT;
