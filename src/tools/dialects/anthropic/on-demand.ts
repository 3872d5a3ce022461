/**
 * `toolsOnDemand(anthropic)`: a component's commands loaded on demand through Anthropic's tool
 * search tool. From `threshold` declared commands on, every tool is sent with
 * `defer_loading: true` beside the server-side search tool (BM25 or regex): the model starts
 * with the search tool alone, Anthropic searches the deferred tools' names and descriptions and
 * loads the definitions it finds, and the model's calls come back as `tool_use` blocks, answered
 * as any other. The search's own blocks (`server_tool_use`, `tool_search_tool_result`) are
 * Anthropic's: `appendTurn` sends them back as they came. A function of its own, so a bundle
 * that does not use it carries none of it.
 */

import { badArgument } from "../../core/checks.js";
import { isRecord } from "../../core/json.js";
import type { Result } from "../../core/result.js";
import type {
  NeutralManifest,
  NeutralToolCall,
  Observation,
  ToolDefsContext,
  ToolError,
} from "../../core/types.js";
import { ANTHROPIC_NAMES, isSafe } from "../../wire/names.js";
import { deferred, type OnDemandOptions, SEARCH_TOOL, thresholdOf } from "../../wire/on-demand.js";
import type { AnthropicTool, AnthropicToolResult } from "./messages.js";

/** Anthropic's server-side tool search tool (the SDK's `ToolSearchToolBm25_20251119` or regex). */
export type AnthropicToolSearchTool =
  | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25" }
  | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };

/** A tool the model loads through the search: `defer_loading: true`. */
export interface AnthropicDeferredTool extends AnthropicTool {
  defer_loading: true;
}

/**
 * What `toolsOnDemand(anthropic)` sends as `tools`: the search tool first, then every tool
 * deferred — or, with `search: "client"`, every tool deferred but the built-in `search_tools`.
 */
export type AnthropicOnDemandTools =
  | AnthropicTool[]
  | [AnthropicToolSearchTool, ...AnthropicDeferredTool[]]
  | (AnthropicTool | AnthropicDeferredTool)[];

/** Options of `toolsOnDemand(anthropic)`. */
export interface AnthropicOnDemandOptions extends OnDemandOptions {
  /**
   * Which search the model searches with: Anthropic's, `"bm25"` (natural-language queries) or
   * `"regex"` (patterns over names and descriptions) — or `"client"`, the bridge's own
   * `search_tools` (`search: toolSearch()`), whose answers are `tool_reference` blocks that load
   * the commands found.
   * @default "bm25"
   */
  search?: "bm25" | "regex" | "client";
}

/** A dialect whose tools are Anthropic's: `anthropic`, or one made by `anthropic(options)`. */
interface AnthropicToolsDialect {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): AnthropicTool[];
  toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): AnthropicToolResult;
}

/** `dialect`, its tools deferred beside the search tool (`AnthropicOnDemandDialect` for `anthropic`). */
export type OnDemand<Dialect extends AnthropicToolsDialect> = Omit<Dialect, "toToolDefs"> & {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): AnthropicOnDemandTools;
};

const SEARCH: Record<"bm25" | "regex", AnthropicToolSearchTool> = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
};

/**
 * `dialect` with its tools loaded on demand through Anthropic's tool search, once the component
 * declares `threshold` commands or more (30 by default; below, the tools are sent as they are).
 * Availability still gates: a call to a command unavailable now is answered `Unavailable`.
 *
 * @example
 * ```ts
 * const tools = igniteTools(catalogue, toolsOnDemand(anthropic));
 * await client.messages.create({ model, max_tokens, messages, tools: tools.toToolDefs() });
 * ```
 */
export function toolsOnDemand<Dialect extends AnthropicToolsDialect>(
  dialect: Dialect,
  options?: AnthropicOnDemandOptions,
): OnDemand<Dialect> {
  const threshold = thresholdOf("toolsOnDemand", dialect, "anthropic", options);
  const search = options?.search ?? "bm25";
  if (search === "client") return clientSearch(dialect, threshold);
  if (search !== "bm25" && search !== "regex") {
    throw badArgument("toolsOnDemand", "options.search", search, '"bm25", "regex" or "client"');
  }
  return {
    ...dialect,
    toToolDefs(manifest, context) {
      const tools = dialect.toToolDefs(manifest, context);
      if (!deferred(manifest, context, threshold)) return tools;
      const loaded = tools.map((tool): AnthropicDeferredTool => ({ ...tool, defer_loading: true }));
      return [SEARCH[search], ...loaded];
    },
  };
}

/**
 * `dialect` with its tools deferred but the built-in search, whose answers load what it found:
 * each command found, by a name Anthropic takes as it is, as a `tool_reference` block — the
 * custom tool search Anthropic documents. Without the search tool in the list (no `toolSearch()`
 * layer), nothing is deferred: the model could load nothing.
 */
function clientSearch<Dialect extends AnthropicToolsDialect>(
  dialect: Dialect,
  threshold: number,
): OnDemand<Dialect> {
  return {
    ...dialect,
    toToolDefs(manifest, context) {
      const tools = dialect.toToolDefs(manifest, context);
      const searching = tools.some((tool) => tool.name === SEARCH_TOOL);
      if (!searching || !deferred(manifest, context, threshold)) return tools;
      return tools.map((tool) =>
        tool.name === SEARCH_TOOL ? tool : { ...tool, defer_loading: true as const },
      );
    },
    toToolResult(call, result) {
      const block = dialect.toToolResult(call, result);
      const names = call.name === SEARCH_TOOL && result.ok ? foundNames(result.value) : [];
      if (names.length === 0) return block;
      return {
        ...block,
        content: names.map((name) => ({ type: "tool_reference" as const, tool_name: name })),
      };
    },
  };
}

/** The names a search answer found that Anthropic takes as tool names, best first. */
function foundNames(value: Observation): string[] {
  const answer = value.snapshot;
  if (!isRecord(answer) || !Array.isArray(answer.found)) return [];
  return answer.found.flatMap((found: unknown) =>
    isRecord(found) && typeof found.name === "string" && isSafe(found.name, ANTHROPIC_NAMES)
      ? [found.name]
      : [],
  );
}
