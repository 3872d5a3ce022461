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
