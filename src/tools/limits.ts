/**
 * Pure core: the size and nesting limits an input must meet before it is validated, so that a
 * hostile input (a 10 MB string, nesting 100 000 deep) costs one cheap walk and nothing more.
 */
import type { ValidationIssue } from "./types.js";
import { escapePointer } from "./validation.js";

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
