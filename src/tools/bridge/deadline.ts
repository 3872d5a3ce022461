/**
 * Waiting with a way out: a promise raced against a timeout and an abort signal, with the timer
 * and the listener removed however it ends, so 100 000 calls leave nothing behind. A signal shared
 * by any number of waits carries one listener, and a timeout means what it says at any length.
 */
import type { AbortSignalLike } from "../core/types.js";

// Every runtime has timers, but the ES library types do not; declared here rather than pulling
// a platform's types (DOM or Node) into the package.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

/** How a wait ended: with the value, or stopped by the deadline or the signal. */
export type Waited<T> = { done: true; value: T } | { done: false; stop: "timeout" | "aborted" };

/** The longest delay a timer takes as it is: longer ones fire at once (after 1 ms) everywhere. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once, `ms` milliseconds from now, and returns what cancels it. Any finite
 * length works: a delay past the timers' 2³¹−1 ms limit is waited in steps. (No limit at all is
 * no timer at all: the shell turns `timeoutMs: Infinity` into none before it gets here.)
 */
export function after(ms: number, callback: () => void): () => void {
  let handle: unknown;
  const arm = (left: number) => {
    handle =
      left > MAX_TIMER_MS
        ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS)
        : setTimeout(callback, left);
  };
  arm(ms);
  return () => clearTimeout(handle);
}

/** The one listener a signal carries, and everyone waiting on it. */
interface Watch {
  readonly waiting: Set<() => void>;
  readonly fire: () => void;
}

// Keyed weakly by signal: a signal nobody holds any more takes its entry with it.
const watches = new WeakMap<AbortSignalLike, Watch>();

/**
 * Calls `callback` once when `signal` aborts, and returns what stops waiting for it. However
 * many waits share a signal, it carries one `abort` listener (so Node never warns of a leak),
 * removed when the last wait ends.
 */
export function onAbort(signal: AbortSignalLike, callback: () => void): () => void {
  let watch = watches.get(signal);
  if (!watch) {
    const waiting = new Set<() => void>();
    const fire = () => {
      signal.removeEventListener("abort", fire);
      watches.delete(signal);
      for (const waiter of waiting) waiter();
    };
    watch = { waiting, fire };
    watches.set(signal, watch);
    signal.addEventListener("abort", fire);
  }
  // A wrapper per wait, so one callback registered twice still counts twice.
  const once = () => callback();
  watch.waiting.add(once);
  const { waiting, fire } = watch;
  return () => {
    if (!waiting.delete(once) || waiting.size > 0) return;
    signal.removeEventListener("abort", fire);
    if (watches.get(signal)?.fire === fire) watches.delete(signal);
  };
}

/** Waits for `work`, unless `timeoutMs` passes or `signal` aborts first. Never rejects on its own. */
export function withDeadline<T>(
  work: Promise<T>,
  timeoutMs: number | undefined,
  signal: AbortSignalLike | undefined,
): Promise<Waited<T>> {
  if (signal?.aborted) return Promise.resolve({ done: false, stop: "aborted" });
  return new Promise<Waited<T>>((resolve, reject) => {
    // The signal first: were it to throw, no timer would be left armed behind it.
    const stopWatching = signal === undefined ? undefined : onAbort(signal, () => stop("aborted"));
    const stopTimer = timeoutMs === undefined ? undefined : after(timeoutMs, () => stop("timeout"));
    const finish = () => {
      stopTimer?.();
      stopWatching?.();
    };
    const stop = (why: "timeout" | "aborted") => {
      finish();
      resolve({ done: false, stop: why });
    };
    work.then(
      (value) => {
        finish();
        resolve({ done: true, value });
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}
