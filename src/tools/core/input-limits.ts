/**
 * Pure core: the size and nesting limits an input must meet before it is validated, so that a
 * hostile input (a 10 MB string, nesting 100 000 deep) costs one cheap walk and nothing more.
 */

import { escapePointer } from "./json.js";
import type { ValidationIssue } from "./types.js";

/** The largest input the bridge accepts. */
export interface InputLimits {
  /** Bytes of the input's JSON text (UTF-8). Default 1 MiB. */
  maxInputBytes?: number;
  /** Levels of array/object nesting. Default 64. */
  maxInputDepth?: number;
}

export const DEFAULT_MAX_INPUT_BYTES = 1_048_576;
export const DEFAULT_MAX_INPUT_DEPTH = 64;

/**
 * The limit `input` breaks, as an issue, or `undefined`. The walk is iterative and stops at the
 * first limit passed, so its cost is bounded by the limits, not by the input.
 */
export function limitIssue(input: unknown, limits: InputLimits = {}): ValidationIssue | undefined {
  const maxBytes = limits.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxDepth = limits.maxInputDepth ?? DEFAULT_MAX_INPUT_DEPTH;
  try {
    if (left(input, 0, maxDepth, maxBytes) >= 0) return undefined;
  } catch {
    // A read that throws, or a stack overflow under a very large maxInputDepth: walk exactly.
  }
  return exactIssue(input, maxBytes, maxDepth);
}

/**
 * The fast path, for every input within the limits: the bytes left of `budget` after `value`,
 * counting 3 bytes per UTF-16 unit (an upper bound that reads no character), or a negative
 * number when the bound passes the limit, an object nests too deep or a number is not finite.
 * Only then does `exactIssue` run, with the verdict it has always had: the bound never trails
 * the exact count, so an input this accepts, the exact walk accepts. Recursive, and so only as
 * deep as `maxDepth`; it stops as soon as the budget is spent.
 */
function left(value: unknown, depth: number, maxDepth: number, budget: number): number {
  if (typeof value === "string") return budget - 3 * value.length - 2;
  if (typeof value !== "object" || value === null) {
    return typeof value === "number" && !Number.isFinite(value) ? -1 : budget - 5;
  }
  if (depth >= maxDepth) return -1;
  let rest = budget - 2;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && rest >= 0; index++) {
      rest = left(value[index], depth + 1, maxDepth, rest - 1);
    }
    return rest;
  }
  // for…in allocates no key array; the inherited enumerable keys it may add only overcount.
  for (const key in value) {
    rest = left(Reflect.get(value, key), depth + 1, maxDepth, rest - 3 * key.length - 4);
    if (rest < 0) return rest;
  }
  return rest;
}

function exactIssue(
  input: unknown,
  maxBytes: number,
  maxDepth: number,
): ValidationIssue | undefined {
  let bytes = 0;
  const stack: unknown[] = [input];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const value = stack.pop();
    const depth = depths.pop() ?? 0;
    if (typeof value === "string") {
      bytes += value.length > maxBytes ? value.length : utf8Length(value) + 2;
    } else if (typeof value === "object" && value !== null) {
      if (depth >= maxDepth) {
        return {
          path: "",
          message: `nests deeper than the limit of ${maxDepth} levels`,
          keyword: "maxInputDepth",
        };
      }
      bytes += 2;
      if (Array.isArray(value)) {
        for (const item of value) {
          stack.push(item);
          depths.push(depth + 1);
          bytes += 1;
        }
      } else {
        for (const key of Object.keys(value)) {
          bytes += utf8Length(key) + 4;
          stack.push(Reflect.get(value, key));
          depths.push(depth + 1);
        }
      }
    } else {
      // JSON has no NaN or Infinity, and ajv counts them as numbers: refuse them here.
      if (typeof value === "number" && !Number.isFinite(value)) {
        return nonFinite(input, value, maxDepth);
      }
      bytes += 5; // numbers, booleans, null: a few bytes each; exact counts cost more than they tell
    }
    if (bytes > maxBytes) {
      return {
        path: "",
        message: `is larger than the limit of ${maxBytes} bytes of JSON`,
        keyword: "maxInputBytes",
      };
    }
  }
  return undefined;
}

// Rare, so the path is found by a second search instead of being tracked on every walk.
function nonFinite(input: unknown, value: number, maxDepth: number): ValidationIssue {
  const path = pathTo(input, (item) => Object.is(item, value), maxDepth) ?? "";
  return { path, message: `must be a finite number, not ${value}`, keyword: "finite" };
}

function pathTo(
  node: unknown,
  found: (item: unknown) => boolean,
  depth: number,
): string | undefined {
  if (found(node)) return "";
  if (typeof node !== "object" || node === null || depth < 0) return undefined;
  for (const key of Object.keys(node)) {
    const rest = pathTo(Reflect.get(node, key), found, depth - 1);
    if (rest !== undefined) return `/${escapePointer(key)}${rest}`;
  }
  return undefined;
}

function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}
