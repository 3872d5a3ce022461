/**
 * Waiting with a way out: a promise raced against a timeout and an abort signal, with the timer
 * and the listener removed however it ends, so 100 000 calls leave nothing behind.
 */
import type { AbortSignalLike } from "../core/types.js";

// Every runtime has timers, but the ES library types do not; declared here rather than pulling
// a platform's types (DOM or Node) into the package.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

/** How a wait ended: with the value, or stopped by the deadline or the signal. */
export type Waited<T> = { done: true; value: T } | { done: false; stop: "timeout" | "aborted" };

/** Waits for `work`, unless `timeoutMs` passes or `signal` aborts first. Never rejects on its own. */
export function withDeadline<T>(
  work: Promise<T>,
  timeoutMs: number | undefined,
  signal: AbortSignalLike | undefined,
): Promise<Waited<T>> {
  if (signal?.aborted) return Promise.resolve({ done: false, stop: "aborted" });
  if (timeoutMs === undefined && signal === undefined) {
    return work.then((value) => ({ done: true, value }));
  }
  return new Promise<Waited<T>>((resolve, reject) => {
    let timer: unknown;
    const finish = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      resolve({ done: false, stop: "aborted" });
    };
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        finish();
        resolve({ done: false, stop: "timeout" });
      }, timeoutMs);
    }
    signal?.addEventListener("abort", onAbort);
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
