/**
 * `toolsOnDemand(openaiResponses)`: a component's commands loaded on demand through the
 * Responses API's hosted tool search. From `threshold` declared commands on, every function is
 * sent with `defer_loading: true` beside `{ type: "tool_search" }`: the model sees each
 * function's name and description, searches, and OpenAI loads the parameters of what it found
 * at the end of the context (the cached prefix stays as it was); the calls come back as
 * `function_call` items, answered as any other. The search's own items (`tool_search_call`,
 * `tool_search_output`) are OpenAI's: `appendTurn` sends them back as they came. Chat Completions
 * has no tool search. A function of its own, so a bundle that does not use it carries none of it.
 */
import type { NeutralManifest, ToolDefsContext } from "../../core/types.js";
import { deferred, type OnDemandOptions, thresholdOf } from "../../wire/on-demand.js";
import type { OpenAIResponsesDialect, OpenAIResponsesTool } from "./responses.js";

/** The Responses API's hosted tool search (the SDK's `ToolSearchTool`, executed by the server). */
export interface OpenAIToolSearchTool {
  type: "tool_search";
}

/** A function the model loads through the search: `defer_loading: true`. */
export interface OpenAIResponsesDeferredTool extends OpenAIResponsesTool {
  defer_loading: true;
}

/** What `toolsOnDemand(openaiResponses)` sends as `tools`: the search first, then every function deferred. */
export type OpenAIResponsesOnDemandTools =
  | OpenAIResponsesTool[]
  | [OpenAIToolSearchTool, ...OpenAIResponsesDeferredTool[]];

/** `toolsOnDemand(openaiResponses)`: the dialect, its functions deferred beside the search. */
export type OpenAIResponsesOnDemandDialect = Omit<OpenAIResponsesDialect, "toToolDefs"> & {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): OpenAIResponsesOnDemandTools;
};

const SEARCH: OpenAIToolSearchTool = { type: "tool_search" };

/**
 * `dialect` (`openaiResponses`) with its functions loaded on demand through OpenAI's hosted tool
 * search, once the component declares `threshold` commands or more (30 by default; below, the
 * functions are sent as they are). Availability still gates: a call to a command unavailable now
 * is answered `Unavailable`. OpenAI documents tool search for `gpt-5.4` and later.
 *
 * @example
 * ```ts
 * const tools = igniteTools(catalogue, toolsOnDemand(openaiResponses));
 * await client.responses.create({ model: "gpt-5.4", input, tools: tools.toToolDefs() });
 * ```
 */
export function toolsOnDemand(
  dialect: OpenAIResponsesDialect,
  options?: OnDemandOptions,
): OpenAIResponsesOnDemandDialect {
  const threshold = thresholdOf("toolsOnDemand", dialect, "openaiResponses", options);
  return {
    ...dialect,
    toToolDefs(manifest, context) {
      const tools = dialect.toToolDefs(manifest, context);
      if (!deferred(manifest, context, threshold)) return tools;
      const loaded = tools.map(
        (tool): OpenAIResponsesDeferredTool => ({ ...tool, defer_loading: true }),
      );
      return [SEARCH, ...loaded];
    },
  };
}
