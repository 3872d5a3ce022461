/**
 * The component's life between calls: one subscription to its `subscribe` and `onEvent`, held
 * only while someone listens, whose changes reach every listener in the order they happened,
 * each once, with the snapshot they led to. `observe`, `until`, the model's wait and the loop's
 * change notes are all listeners of it. Made for a bridge the first time one of them needs it:
 * a bridge nobody observes carries none of this.
 */

import { withDeadline } from "../bridge/deadline.js";
import type { BridgeParts } from "../bridge/pipeline.js";
import { aFunction, anObject, aSignal, aTimeLimit, check, checkOptional } from "../core/checks.js";
import { describe } from "../core/errors.js";
import type { AbortSignalLike, LiveChange, NeutralToolCall, RuntimeEvent } from "../core/types.js";

/** Options of `until`. */
export interface UntilOptions {
  /**
   * Aborting rejects the wait with an `AbortError` (its `cause` the signal's reason).
   *
   * @default undefined — only a match or the timeout ends the wait
   */
  signal?: AbortSignalLike;
  /**
   * How long to wait, in milliseconds, before rejecting with a `TimeoutError`.
   *
   * @default undefined — no limit
   */
  timeoutMs?: number;
}

/** What the bridge keeps of a component that reports its changes. */
export interface Live<S, E extends RuntimeEvent> {
  /** See `observe`. */
  observe(listener: (change: LiveChange<S, E>) => void): () => void;
  /** See `until`. */
  until(
    match: (change: LiveChange<S, E>) => boolean,
    options?: UntilOptions,
  ): Promise<LiveChange<S, E>>;
  /** The component's snapshot now (`getSnapshot()`); throws what it throws. */
  snapshot(): S;
}

// One live state per bridge, made at its first use.
const lives = new WeakMap<object, Live<never, never> | null>();

/**
 * The live state of the bridge made of `parts`, or `undefined` when its component cannot report
 * one: it needs both `subscribe` (to hear that something may have changed) and `getSnapshot` (to
 * see what). Made once per bridge; from then on, what happens while one of its calls runs is
 * that call's (`LiveChange.call`).
 */
export function liveOf<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
): Live<S, E> | undefined {
  const known = lives.get(parts);
  // Kept without its types (a WeakMap holds one type); given back with the bridge's own.
  if (known !== undefined) return (known ?? undefined) as Live<S, E> | undefined;
  const live = made(parts);
  lives.set(parts, (live ?? null) as Live<never, never> | null);
  return live;
}

function made<S, E extends RuntimeEvent>({
  component,
  warn,
  pipeline,
}: BridgeParts<S, E>): Live<S, E> | undefined {
  const { subscribe, getSnapshot, onEvent } = component;
  if (typeof subscribe !== "function" || typeof getSnapshot !== "function") return undefined;

  const listeners = new Set<(change: LiveChange<S, E>) => void>();
  let stop: (() => void) | undefined;
  let last: S;
  let running: NeutralToolCall | undefined;

  // Changes wait here while earlier ones are delivered: a listener that changes the component
  // again is heard after every listener heard the change before it, so all hear one order.
  const queued: LiveChange<S, E>[] = [];
  let delivering = false;
  const deliver = (change: LiveChange<S, E>) => {
    queued.push(change);
    if (delivering) return;
    delivering = true;
    try {
      for (let next = queued.shift(); next !== undefined; next = queued.shift()) {
        // A copy: a listener added while a change is delivered hears the changes after it.
        for (const listener of [...listeners]) {
          if (!listeners.has(listener)) continue; // stopped by an earlier listener
          try {
            listener(next);
          } catch (error) {
            warn({
              code: "observer-threw",
              message: `A listener of observe() threw (${describe(error)}); the others heard the change.`,
            });
          }
        }
      }
    } finally {
      delivering = false;
      queued.length = 0;
    }
  };

  const read = (): { value: S } | undefined => {
    try {
      return { value: getSnapshot.call(component) };
    } catch (error) {
      warn({
        code: "getSnapshot-threw",
        message: `getSnapshot() threw (${describe(error)}): the change was not reported.`,
      });
      return undefined;
    }
  };
  const changeOf = (snapshot: S, event?: E): LiveChange<S, E> => {
    const call = running;
    if (event === undefined) return call ? { snapshot, call } : { snapshot };
    return call ? { snapshot, event, call } : { snapshot, event };
  };
  // A notification whose snapshot is the one last reported is a repeat, not a change.
  const changed = () => {
    const now = read();
    if (now === undefined || Object.is(now.value, last)) return;
    last = now.value;
    deliver(changeOf(now.value));
  };
  // An event carries the snapshot at the time it is heard: a change of state it came with is
  // reported with it, once.
  const emitted = (event: E) => {
    const now = read();
    if (now !== undefined) last = now.value;
    deliver(changeOf(last, event));
  };

  const attach = () => {
    last = getSnapshot.call(component);
    const unsubscribe = subscribe.call(component, changed);
    let unlisten: (() => void) | undefined;
    try {
      unlisten = typeof onEvent === "function" ? onEvent.call(component, emitted) : undefined;
    } catch (error) {
      unsubscribe();
      throw error;
    }
    stop = () => {
      stop = undefined;
      unsubscribe();
      unlisten?.();
    };
  };

  const observe = (listener: (change: LiveChange<S, E>) => void) => {
    check("observe", "listener", listener, aFunction);
    // The first listener subscribes, the last one to leave unsubscribes: nobody listening, no
    // subscription held.
    if (listeners.size === 0) attach();
    const own = (change: LiveChange<S, E>) => listener(change);
    listeners.add(own);
    return () => {
      if (!listeners.delete(own) || listeners.size > 0) return;
      stop?.();
    };
  };

  const until = async (
    match: (change: LiveChange<S, E>) => boolean,
    options: UntilOptions = {},
  ): Promise<LiveChange<S, E>> => {
    // Every argument before anything starts: no subscription, no timer behind a bad one.
    check("until", "match", match, aFunction);
    check("until", "options", options satisfies unknown, anObject);
    const { signal, timeoutMs } = options;
    checkOptional("until", "timeoutMs", timeoutMs, aTimeLimit);
    checkOptional("until", "signal", signal, aSignal);
    if (signal?.aborted) throw aborted(signal);
    let unobserve: (() => void) | undefined;
    const hit = new Promise<LiveChange<S, E>>((resolve, reject) => {
      const test = (change: LiveChange<S, E>) => {
        try {
          if (match(change)) resolve(change);
          else return;
        } catch (error) {
          reject(error);
        }
        unobserve?.();
      };
      unobserve = observe(test);
      // Subscribed first, then the state now: nothing can happen between the two unheard.
      test({ snapshot: last });
    });
    try {
      const waited = await withDeadline(
        hit,
        timeoutMs === Number.POSITIVE_INFINITY ? undefined : timeoutMs,
        signal,
      );
      if (waited.done) return waited.value;
      if (waited.stop === "aborted" && signal) throw aborted(signal);
      throw named("TimeoutError", `until: nothing matched within ${timeoutMs} ms`);
    } finally {
      unobserve?.();
    }
  };

  // What happens while a command runs is its call's, until it is answered; marked only while
  // someone observes, so a call costs nothing more when nobody does.
  const execute = pipeline.execute;
  const leave = (call: NeutralToolCall) => {
    if (running === call) running = undefined;
  };
  pipeline.execute = (route, call, options, span) => {
    if (listeners.size === 0) return execute(route, call, options, span);
    running = call;
    const outcome = execute(route, call, options, span);
    if (!(outcome instanceof Promise)) {
      leave(call);
      return outcome;
    }
    return outcome.finally(() => leave(call));
  };

  return { observe, until, snapshot: () => getSnapshot.call(component) };
}

function named(name: string, message: string, cause?: unknown): Error {
  const error = cause === undefined ? new Error(message) : new Error(message, { cause });
  error.name = name;
  return error;
}

function aborted(signal: AbortSignalLike): Error {
  return named("AbortError", "until: aborted before anything matched", signal.reason);
}
