/**
 * A value now, or the promise of it: the bridge answers a call its component answers
 * synchronously without waiting a tick, and awaits everything else.
 */

/** A value now, or a promise of it. Only the shell's own promises are ever the second kind. */
export type Soon<T> = T | Promise<T>;

/** Whether `await value` would wait: a promise, or any object or function with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== "object" || value === null) && typeof value !== "function") return false;
  // Read once, as `await` reads it; a getter that throws is the caller's to catch.
  const then: unknown = Reflect.get(value, "then");
  return typeof then === "function";
}
