/**
 * The commands available now, as the model reads them in a wait's answer and in a change note:
 * one list, made the same way for both, the layers' own tools (the wait) left out.
 */
import type { BridgeParts } from "../bridge/pipeline.js";
import type { RuntimeEvent } from "../core/types.js";

/**
 * The names of the component's commands available now, or `undefined` when its schema cannot be
 * read now (the next call or request reports it).
 */
export function availableNow<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
): string[] | undefined {
  try {
    const { beside } = parts.pipeline;
    return parts.manifest().flatMap((tool) => (beside(tool.name) ? [] : [tool.name]));
  } catch {
    return undefined;
  }
}
