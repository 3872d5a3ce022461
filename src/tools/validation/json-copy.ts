/**
 * A structural copy of JSON-like data that keeps `__proto__` an own key, as `JSON.parse` does,
 * so copying never changes a prototype nor drops a property a model sent.
 */

import { setOwn } from "../core/json.js";

/** Copies the arrays and plain objects of `value`; everything else is shared. */
export function cloneJson<T>(value: T): T;
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, cloneJson(Reflect.get(value, key)));
  return copy;
}
