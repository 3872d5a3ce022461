/**
 * The built-in search's tools on demand (`toolSearch({ onDemand: true })`), for any dialect:
 * from `threshold` declared commands on, a request offers the search (and any other tool of a
 * layer's own, the wait) and then only the commands a search has found, in the order they were
 * first found — so each request's tool list starts with the previous one's, byte for byte, and a
 * provider's prompt cache keeps it. A call to a command no search found is answered, as a value,
 * with a hint to search; a held call a person approved on resume still runs, since it was
 * offered when it was made.
 */

import { isApproved } from "../bridge/approved.js";
import type { BridgeParts } from "../bridge/pipeline.js";
import { err } from "../core/result.js";
import type { NeutralManifest, NeutralTool, RuntimeEvent, ToolError } from "../core/types.js";
import { SEARCH_TOOL } from "../wire/on-demand.js";

/**
 * Loads one bridge's commands on demand: wraps its offer and call stages, and returns what a
 * search calls with the names it found, to offer them from the next request on.
 */
export function onDemand<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
  threshold: number,
): (found: readonly string[]) => void {
  const { pipeline } = parts;
  const { offer, call } = pipeline;
  // Every command found so far, in the order first found: the tail of every tool list.
  const loaded: string[] = [];
  const known = new Set<string>();
  // Whether the last list was on demand: decided where the tools are offered, by how many are
  // declared, so that a call costs no pass over the declarations.
  let deferring = false;
  let last: { from: NeutralManifest; count: number; offered: NeutralManifest } | undefined;

  pipeline.offer = (offered, declared) => {
    const from = offer(offered, declared);
    // The search itself is declared too: the component's commands are the others.
    deferring = declared.length - 1 >= threshold;
    if (!deferring) return from;
    if (last?.from === from && last.count === loaded.length) return last.offered;
    const own = from.filter((tool) => pipeline.beside(tool.name));
    const byName = new Map(from.map((tool) => [tool.name, tool]));
    const found = loaded.flatMap((name): NeutralTool[] => {
      const tool = byName.get(name);
      return tool && !pipeline.beside(name) ? [tool] : [];
    });
    last = { from, count: loaded.length, offered: Object.freeze([...own, ...found]) };
    return last.offered;
  };

  pipeline.call = (called, options, span) =>
    deferring && !known.has(called.name) && !pipeline.beside(called.name) && !isApproved(options)
      ? { outcome: err(notLoaded(called.name, called.toolName ?? called.name)) }
      : call(called, options, span);

  return (found) => {
    for (const name of found) {
      if (known.has(name)) continue;
      known.add(name);
      loaded.push(name);
    }
  };
}

/** The answer to a call of a command no search found: what to do instead. */
function notLoaded(name: string, called: string): ToolError {
  return {
    kind: "UnknownCommand",
    name,
    message: `Unknown command ${JSON.stringify(called.slice(0, 80))}: it is not among the tools loaded. Call ${SEARCH_TOOL} to find the tools for what you want to do, then call one it found.`,
  };
}
