/**
 * Live state for the application: `observe(tools, listener)` and `until(tools, match)`, on any
 * bridge whose component says what its state is now (`getSnapshot`) and when it changes
 * (`subscribe`). Importing them is what brings live state into a bundle.
 */
import { partsOf } from "../bridge/pipeline.js";
import type { ToolBridge } from "../bridge/types.js";
import type { LiveChange, RuntimeEvent } from "../core/types.js";
import { type Live, liveOf, type UntilOptions } from "./live.js";

/**
 * Calls `listener` with every change of the component's state and every event it emits, from
 * now on — between calls and during them — in the order they happened, each once, with the
 * snapshot it led to; returns the function that stops it. A change made while one of the
 * bridge's commands runs carries that call (`change.call`). A listener that throws is reported
 * (`onWarning`, `observer-threw`) and the others still hear the change. The component is
 * subscribed to only while someone observes. Needs a bridge made by `igniteTools` over a
 * component with `subscribe` and `getSnapshot` (a `TypeError` otherwise).
 *
 * @example
 * ```ts
 * const stop = observe(tools, ({ event, snapshot, call }) => {
 *   if (!call) console.log("outside a call:", event?.type ?? "state", snapshot);
 * });
 * ```
 */
export function observe<S, E extends RuntimeEvent>(
  tools: ToolBridge<S, E>,
  listener: (change: LiveChange<S, E>) => void,
): () => void {
  return liveFor(tools, "observe").observe(listener);
}

/**
 * Resolves with the first change `match` accepts, the state now first (as `{ snapshot }`).
 * Rejects with an `AbortError` when `signal` aborts, a `TimeoutError` after `timeoutMs`, or what
 * `match` throws; its subscription is released in every case. Needs what `observe` needs (it
 * rejects with a `TypeError` otherwise).
 *
 * @example
 * ```ts
 * const { snapshot } = await until(tools, ({ snapshot }) => snapshot.temperature >= 180, {
 *   timeoutMs: 60_000,
 * });
 * ```
 */
export async function until<S, E extends RuntimeEvent>(
  tools: ToolBridge<S, E>,
  match: (change: LiveChange<S, E>) => boolean,
  options?: UntilOptions,
): Promise<LiveChange<S, E>> {
  return liveFor(tools, "until").until(match, options);
}

/** The live state of `tools`, or a `TypeError` (by `who`) saying why there is none. */
function liveFor<S, E extends RuntimeEvent>(tools: ToolBridge<S, E>, who: string): Live<S, E> {
  const live = liveOf(partsOf<S, E>(tools, who));
  if (live) return live;
  throw new TypeError(
    `${who} needs a component with subscribe() and getSnapshot(): it cannot see the state without them`,
  );
}
