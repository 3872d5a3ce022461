/**
 * The small helpers every layer shares. Defined once, here.
 */

/** Whether `value` is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON Pointer segment for `segment` (`~` and `/` escaped). */
export function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * `target[key] = value` as an own data property, as `JSON.parse` makes one, even for `__proto__`,
 * which assigning would take as a new prototype; every other key is assigned, which keeps the
 * object fast.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== "__proto__") target[key] = value;
  else
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
}

/** A JSON value, as `JSON.parse` gives one. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Whether `value` is JSON through and through: an object whose every value is a JSON value. */
export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return isRecord(value) && Object.values(value).every(isJsonValue);
}

function isJsonValue(value: unknown): value is JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) ? value.every(isJsonValue) : isJsonObject(value);
}
