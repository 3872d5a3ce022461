/**
 * The built-in tool search, the layer `toolSearch()`: one more tool, `search_tools`, declared
 * beside the component's commands and answered by the layer itself from the manifest — every
 * declared command ranked against the model's query (rank.ts), the best few answered with their
 * names and descriptions, and whether each is available now (or when it will be). With
 * `toolsOnDemand(anthropic, { search: "client" })` the answer is Anthropic's `tool_reference`
 * blocks, which load the deferred commands found; with any other dialect, the model reads the
 * names it may call.
 */

import type { BridgeParts, Layer, Run } from "../bridge/pipeline.js";
import { aBoolean, anObject, checkOptional, wholeNumber } from "../core/checks.js";
import { commandsOf } from "../core/manifest.js";
import { ok } from "../core/result.js";
import type {
  AgentSchema,
  CommandSchema,
  JsonSchema,
  NeutralManifest,
  NeutralTool,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
} from "../core/types.js";
import { CALL_TOOL, ON_DEMAND_THRESHOLD, SEARCH_TOOL } from "../wire/on-demand.js";
import { taken, throughCallTool } from "./call-tool.js";
import { onDemand } from "./on-demand.js";
import { type Ranking, rankingOf } from "./rank.js";

/** Options of `toolSearch`. */
export interface ToolSearchOptions {
  /**
   * How many commands one search answers at most.
   * @default 5
   */
  limit?: number;
  /**
   * Load the commands on demand, for any dialect: from `threshold` declared commands on, each
   * request offers the search and only the commands a search has found, appended in the order
   * found, so the list keeps the provider's prompt cache; a command no search found is answered
   * `UnknownCommand` with a hint to search. Where the dialect's list is fixed (`mcp`, and so the
   * MCP hosts) the list stays the search and `call_tool`, which calls a command found by its
   * name; the search then answers each command's input schema. See docs/tools-on-demand.md.
   * @default false
   */
  onDemand?: boolean;
  /**
   * With `onDemand`: from how many declared commands on the commands are loaded on demand; `0`
   * always.
   * @default ON_DEMAND_THRESHOLD (30)
   */
  threshold?: number;
}

/** The search layer for `igniteTools`' `search` option. */
export interface ToolSearch extends Layer<"search"> {
  readonly limit: number;
  /** The declared commands from which the commands are loaded on demand; absent when they are not. */
  readonly threshold: number | undefined;
}

/** One command a search found, as the model reads it. */
export interface FoundCommand {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Whether it can be called now; when not, `availableWhen` says when, if it says. */
  readonly available: boolean;
  readonly availableWhen?: string;
  /**
   * The JSON Schema of its input: answered where the commands found are called through
   * `call_tool` (an MCP server's tools on demand), whose tool list does not carry them.
   */
  readonly inputSchema?: JsonSchema;
}

/** What a search answers: the commands found, best first (none when nothing matched). */
export interface SearchAnswer {
  readonly found: readonly FoundCommand[];
}

/**
 * The built-in tool search: the bridge declares a `search_tools` tool (`{ query }`), answered
 * from the manifest with the best-matching commands — ranked with BM25 over their names, titles,
 * descriptions and `availableWhen` — as `{ found: [{ name, description, available }] }`. Give it
 * beside `toolsOnDemand(anthropic, { search: "client" })` to load Anthropic's deferred tools
 * through it. See docs/tools-on-demand.md.
 *
 * @example
 * ```ts
 * const tools = igniteTools(catalogue, toolsOnDemand(anthropic, { search: "client" }), {
 *   search: toolSearch(),
 * });
 * ```
 */
export function toolSearch(options?: ToolSearchOptions): ToolSearch {
  checkOptional("toolSearch", "options", options, anObject);
  const limit =
    checkOptional("toolSearch", "options.limit", options?.limit, wholeNumber(1, 50)) ?? 5;
  const deferred = checkOptional("toolSearch", "options.onDemand", options?.onDemand, aBoolean);
  const given = checkOptional("toolSearch", "options.threshold", options?.threshold, aThreshold);
  if (given !== undefined && !deferred) {
    throw new TypeError("toolSearch: options.threshold takes effect only with onDemand: true");
  }
  const threshold = deferred ? (given ?? ON_DEMAND_THRESHOLD) : undefined;
  return {
    layer: "search",
    limit,
    threshold,
    install: (parts) => install(parts, limit, threshold),
  };
}

const aThreshold = /* @__PURE__ */ wholeNumber(0);

/** The search tool's declaration. */
const DECLARED: CommandSchema = /* @__PURE__ */ Object.freeze({
  title: "Search the tools",
  description:
    "Finds the tools that do what you describe, among all this application's tools: answers the best matches' names and descriptions, and whether each can be called now.",
  readOnly: true,
  input: {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        description: "What the tool should do, in a few words (e.g. 'refund an order').",
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
});

/** Joins the search to one bridge: declared, beside the queue, answered, its answer kept whole. */
function install<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
  limit: number,
  threshold: number | undefined,
): void {
  const { pipeline } = parts;
  // Where the list is fixed (MCP), the commands found are called through `call_tool`, and the
  // search answers their input schemas; anywhere else they are offered from the next request on.
  const fixed = threshold !== undefined && parts.dialect?.fixedList === true;
  if (fixed) throughCallTool(parts, threshold);
  const load = threshold === undefined || fixed ? undefined : onDemand(parts, threshold);
  const { declare, beside, route, answer } = pipeline;
  pipeline.declare = (schema) => declared(declare(schema));
  pipeline.beside = (called) => called === SEARCH_TOOL || beside(called);
  const rank = rankingCache();
  pipeline.route = (resolved, call, schema, options, span) => {
    if (resolved.command !== SEARCH_TOOL) return route(resolved, call, schema, options, span);
    span?.phase("execute");
    const { run, found } = searched(parts, rank, resolved.input, limit, call, fixed);
    load?.(found);
    return run;
  };
  // The search's answer is no state of the component: `project` does not apply to it.
  if (answer) {
    pipeline.answer = (call, value) =>
      call.name === SEARCH_TOOL ? ok(value) : answer(call, value);
  }
}

/** `schema` with the search tool declared among its commands (a malformed schema as it is). */
function declared(schema: AgentSchema): AgentSchema {
  const commands = commandsOf(schema);
  if (commands === undefined) return schema;
  if (Object.hasOwn(commands, SEARCH_TOOL)) throw taken(SEARCH_TOOL);
  return { ...schema, commands: { ...commands, [SEARCH_TOOL]: DECLARED } };
}

/**
 * The ranking of the declared commands (the search tool left out), made again only when the
 * bridge's declared manifest changes — which the bridge decides, as it does for its tool list.
 */
function rankingCache() {
  let of: NeutralManifest | undefined;
  let ranking: Ranking<NeutralTool> = () => [];
  return (declared: NeutralManifest): Ranking<NeutralTool> => {
    if (declared !== of) {
      of = declared;
      ranking = rankingOf(
        declared.filter((tool) => tool.name !== SEARCH_TOOL && tool.name !== CALL_TOOL),
      );
    }
    return ranking;
  };
}

/** One search, answered as a call is (its route and the commands found), and the names found. */
function searched<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
  rank: (declared: NeutralManifest) => Ranking<NeutralTool>,
  input: unknown,
  limit: number,
  call: NeutralToolCall,
  withSchemas: boolean,
): { run: Run<S, E>; found: string[] } {
  const { query } = input as { query: string };
  const available = new Set(parts.manifest().map((tool) => tool.name));
  const found = rank(parts.declared())(query, limit).map(
    ({ name, title, description, availableWhen, inputSchema }): FoundCommand => ({
      name,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      available: available.has(name),
      ...(available.has(name) || availableWhen === undefined ? {} : { availableWhen }),
      ...(withSchemas ? { inputSchema } : {}),
    }),
  );
  // The answer stands where a command's state would: what the model reads of the search.
  const observation = { snapshot: { found }, events: [] } as unknown as Observation<S, E>;
  const run: Run<S, E> = { route: { command: call.name, input }, outcome: ok(observation) };
  return { run, found: found.map((command) => command.name) };
}
