/**
 * Pure core: the input a call carries, taken once as plain JSON data, so that what was validated
 * is exactly what `execute` receives — whatever getters, proxies or later mutations the caller's
 * object has.
 */

import { setOwn } from "./json.js";

/**
 * `value` as JSON would carry it, every property read exactly once: objects become plain objects
 * of their own enumerable string keys (`__proto__` included, as an own key, as `JSON.parse` makes
 * it), arrays plain arrays, `toJSON` is applied, and `undefined`, functions and symbols are left
 * out of objects and are `null` in arrays, as `JSON.stringify` does. Other primitives are kept as
 * they are, so the validator still names a `BigInt` or a non-finite number for what it is. The
 * copy shares nothing with `value`. Throws whatever a getter or a proxy trap throws.
 *
 * Recursive: call it on input that passed the input limits, whose depth is bounded.
 */
export function jsonSnapshot(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return copy(value);
}

function copy(value: object): unknown {
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return item(toJSON.call(value, ""));
  if (Array.isArray(value)) {
    const length = value.length;
    const out: unknown[] = new Array(length);
    for (let index = 0; index < length; index++) {
      const entry = item(value[index]);
      out[index] = entry === undefined ? null : entry;
    }
    return out;
  }
  if (value instanceof String || value instanceof Number || value instanceof Boolean) {
    return item(value.valueOf());
  }
  // A spread reads each own enumerable property once (getters and proxy traps included) and
  // keeps `__proto__` an own key, as JSON.parse does: the fastest copy there is. What JSON would
  // not carry is then taken out of the copy, and nested objects are copied in turn.
  const out: Record<string | symbol, unknown> = { ...value };
  const symbols = Object.getOwnPropertySymbols(out);
  for (let index = 0; index < symbols.length; index++) delete out[symbols[index] as symbol];
  for (const key in out) {
    const entry = out[key];
    if (typeof entry === "object" && entry !== null) {
      // for…in (no key array to allocate) also visits inherited keys: only own ones are copied.
      if (!Object.hasOwn(out, key)) continue;
      const copied = copy(entry);
      setOwn(out, key, copied);
    } else if (entry === undefined || typeof entry === "function" || typeof entry === "symbol") {
      delete out[key]; // a no-op for an inherited key
    }
  }
  return out;
}

/** One value inside an object or array: `undefined` for what JSON leaves out. */
function item(value: unknown): unknown {
  if (typeof value === "object" && value !== null) return copy(value);
  return typeof value === "function" || typeof value === "symbol" ? undefined : value;
}
