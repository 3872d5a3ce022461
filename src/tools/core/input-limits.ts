/**
 * Pure core: the size and nesting limits an input must meet before it is validated, so that a
 * hostile input (a 10 MB string, nesting 100 000 deep, `new Array(1e9)`) costs one cheap walk
 * and nothing more.
 *
 * The size is the input's JSON text in UTF-8 bytes, exactly: for data that came from
 * `JSON.parse` (every dialect's input), the count is the byte length of `JSON.stringify(input)`,
 * escapes included, so an input is refused exactly when its JSON is longer than the limit. For
 * other JavaScript values the count is of what a validator reads: own enumerable properties, an
 * array's every index up to its length, `undefined`, functions and symbols as `null`.
 */

import { escapePointer } from "./json.js";
import type { ValidationIssue } from "./types.js";

/** The largest input the bridge accepts. */
export interface InputLimits {
  /**
   * Bytes of the input's JSON text (UTF-8, exactly as `JSON.stringify` writes it).
   * @default 1048576 (1 MiB)
   */
  maxInputBytes?: number;
  /**
   * Levels of array/object nesting.
   * @default 64
   */
  maxInputDepth?: number;
}

export const DEFAULT_MAX_INPUT_BYTES = 1_048_576;
export const DEFAULT_MAX_INPUT_DEPTH = 64;

/**
 * The limit `input` breaks, as an issue, or `undefined`. Its cost is bounded by the limits,
 * whatever the input: every step of the walk spends at least one byte of `maxInputBytes` (an
 * array's length is checked against the bytes left before any item is read), and it holds one
 * frame per level, at most `maxInputDepth`.
 */
export function limitIssue(input: unknown, limits: InputLimits = {}): ValidationIssue | undefined {
  const maxBytes = limits.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxDepth = limits.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH;
  try {
    if (bound(input, 0, maxDepth, maxBytes) >= 0) return undefined;
  } catch {
    // A read that throws, or a stack overflow under a very large maxInputDepth: walk exactly.
  }
  return exactIssue(input, maxBytes, maxDepth);
}

/**
 * The fast path, for every input well within the limits: the bytes left of `budget` after an
 * upper bound of `value`'s JSON that reads no character (6 bytes per UTF-16 unit, the longest
 * escape; 25 per number, the longest a double prints as), or a negative number when that bound
 * passes the limit, an object nests too deep or a number is not finite. Only then does the exact
 * walk run: the bound never trails the exact count, so what this accepts, the exact walk accepts.
 * Recursive, and so only as deep as `maxDepth`; it stops as soon as the budget is spent.
 */
function bound(value: unknown, depth: number, maxDepth: number, budget: number): number {
  // Not recursive itself, so the engine inlines it into `nested`: a leaf costs no call.
  return typeof value === "object" && value !== null
    ? nested(value, depth, maxDepth, budget)
    : scalar(value, budget);
}

/** `bound` of a value that is not an object. */
function scalar(value: unknown, budget: number): number {
  // One `typeof`, switched on: the walk runs before every validation, and this is its hot line.
  switch (typeof value) {
    case "string":
      return budget - 6 * value.length - 2;
    case "number":
      return Number.isFinite(value) ? budget - 25 : -1;
    default:
      return budget - 25;
  }
}

/** `bound` of an array or object. */
function nested(value: object, depth: number, maxDepth: number, budget: number): number {
  if (depth >= maxDepth) return -1;
  let rest = budget - 2;
  if (Array.isArray(value)) {
    if (2 * value.length > rest) return -1; // a sparse `new Array(1e9)` is refused unread
    for (let index = 0; index < value.length && rest >= 0; index++) {
      rest = bound(value[index], depth + 1, maxDepth, rest - 1);
    }
    return rest;
  }
  // for…in allocates no key array; the inherited enumerable keys it may add only overcount.
  // A keyed load inside for…in takes V8's enum-cache fast path; `Reflect.get` does not (it was
  // a third of the walk). The object is only read.
  const object = value as Record<string, unknown>;
  for (const key in object) {
    rest = bound(object[key], depth + 1, maxDepth, rest - 6 * key.length - 4);
    if (rest < 0) return rest;
  }
  return rest;
}

/** One open array or object of the exact walk: its keys (objects) and the next item to read. */
interface Frame {
  /** The array or object. */
  of: object;
  keys: string[] | undefined;
  next: number;
  size: number;
}

/**
 * The exact walk, in document order, iterative: the UTF-8 length of the JSON text, stopping at
 * the first limit passed (or the first number JSON cannot carry, with its path).
 */
function exactIssue(
  input: unknown,
  maxBytes: number,
  maxDepth: number,
): ValidationIssue | undefined {
  const frames: Frame[] = [];
  let bytes = 0;
  let value = input;
  for (;;) {
    if (typeof value === "object" && value !== null) {
      if (frames.length >= maxDepth) {
        return issue(`nests deeper than the limit of ${maxDepth} levels`, "maxInputDepth");
      }
      const keys = Array.isArray(value) ? undefined : Object.keys(value);
      const length = keys ? keys.length : (value as unknown[]).length;
      // Brackets and commas now; each item (at least one byte, `"":0` for a property) later.
      bytes += length === 0 ? 2 : length + 1;
      if (bytes + (keys ? 4 : 1) * length > maxBytes) return tooLarge(maxBytes);
      frames.push({ of: value, keys, next: 0, size: length });
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      // JSON has no NaN or Infinity, and validators count them as numbers: refuse them here.
      return issue(`must be a finite number, not ${value}`, "finite", pathOf(frames));
    } else {
      bytes += scalarBytes(value, maxBytes - bytes);
      if (bytes > maxBytes) return tooLarge(maxBytes);
    }
    let frame = frames.at(-1);
    while (frame && frame.next === frame.size) {
      frames.pop();
      frame = frames.at(-1);
    }
    if (!frame) return undefined;
    const key = frame.keys ? frame.keys[frame.next] : frame.next;
    frame.next++;
    if (typeof key === "string") {
      bytes += scalarBytes(key, maxBytes - bytes) + 1;
      if (bytes > maxBytes) return tooLarge(maxBytes);
    }
    value = Reflect.get(frame.of, key ?? "");
  }
}

function issue(message: string, keyword: string, path = ""): ValidationIssue {
  return { path, message, keyword };
}

function tooLarge(maxBytes: number): ValidationIssue {
  return issue(`is larger than the limit of ${maxBytes} bytes of JSON`, "maxInputBytes");
}

/** The JSON Pointer of the item the walk is reading. */
function pathOf(frames: Frame[]): string {
  return frames
    .map(({ keys, next }) => `/${escapePointer(String(keys ? keys[next - 1] : next - 1))}`)
    .join("");
}

/**
 * Bytes of a value that is not an array or object, in JSON text: exact, except that a string
 * longer than `left` (in UTF-16 units, each at least one byte) is counted by its length alone.
 */
function scalarBytes(value: unknown, left: number): number {
  if (typeof value === "string" && value.length + 2 > left) return value.length + 2;
  // JSON.stringify writes the escapes (and escapes lone surrogates): what is left to count is
  // the UTF-8 width of each code unit, a surrogate pair being one four-byte code point.
  const text = typeof value === "bigint" ? String(value) : (JSON.stringify(value) ?? "null");
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
