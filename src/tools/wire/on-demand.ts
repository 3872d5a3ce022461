/**
 * Tools loaded on demand, for the dialects whose provider searches deferred tools itself
 * (Anthropic's tool search tool, the Responses API's `tool_search`): when a component declares
 * many commands, every tool is sent marked `defer_loading: true` beside the provider's search
 * tool, so the model sees the search up front and loads only the definitions it finds. What the
 * two wrappers share: the options, their checks, and when the tools are deferred.
 */
import { anObject, badArgument, checkOptional, wholeNumber } from "../core/checks.js";
import type { NeutralManifest, ToolDefsContext } from "../core/types.js";

/**
 * From this many declared commands on, `toolsOnDemand` defers the tools: below it, every
 * definition costs fewer tokens than a search round trip would save, and a model chooses well
 * among a few dozen tools.
 */
export const ON_DEMAND_THRESHOLD = 30;

/**
 * The name of the built-in search tool (`toolSearch()`), which `toolsOnDemand(anthropic, {
 * search: "client" })` keeps loaded and answers with `tool_reference` blocks.
 */
export const SEARCH_TOOL = "search_tools";

/**
 * The name of the tool that calls a command the search found, where the tool list is fixed (an
 * MCP server's tools on demand): `call_tool({ name, arguments })`.
 */
export const CALL_TOOL = "call_tool";

/** Options of `toolsOnDemand`. */
export interface OnDemandOptions {
  /**
   * From how many declared commands on the tools are deferred; `0` defers them always.
   * @default ON_DEMAND_THRESHOLD (30)
   */
  threshold?: number;
}

/**
 * The threshold `where` was given (checked: a whole number from 0 up), after checking that
 * `dialect` is one (`which` says which dialects `where` takes).
 */
export function thresholdOf(
  where: string,
  dialect: { toToolDefs?: unknown } | undefined,
  which: string,
  options: OnDemandOptions | undefined,
): number {
  if (typeof dialect?.toToolDefs !== "function")
    throw badArgument(where, "dialect", dialect, which);
  checkOptional(where, "options", options, anObject);
  return (
    checkOptional(where, "options.threshold", options?.threshold, wholeNumber(0)) ??
    ON_DEMAND_THRESHOLD
  );
}

/** Whether this turn's tools are deferred: the declared commands reach the threshold. */
export function deferred(
  manifest: NeutralManifest,
  context: ToolDefsContext | undefined,
  threshold: number,
): boolean {
  return (context?.declared ?? manifest).length >= threshold;
}
