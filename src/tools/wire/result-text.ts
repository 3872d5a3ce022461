/**
 * What the model reads back: one shared rule for turning any observation or error into text,
 * which never throws and never leaks a stack trace.
 */
import { setOwn } from "../core/json.js";
import type { Result } from "../core/result.js";
import type { NeutralToolCall, Observation, ToolError } from "../core/types.js";

/** Options every dialect takes. */
export interface ResultOptions {
  /** The cap on the text of one result, in characters; default 20 000 (about 5 000 tokens). */
  maxResultChars?: number;
}

const MAX_DEPTH = 64;

/**
 * Any JavaScript value as JSON-compatible data, by one rule: JSON's own (`toJSON`, `undefined`
 * and functions dropped, non-finite numbers as `null`), plus `BigInt` as its decimal string,
 * `Map` as an object keyed by `String(key)`, `Set` as an array, an `Error` as `{ name, message }`
 * (never its stack), a circular reference as `"[Circular]"`, nesting past 64 levels as
 * `"[Too deep]"`, and anything that throws while being read as `"[Unreadable]"`.
 */
export function toJsonValue(value: unknown): unknown {
  return encode(value, [], 0);
}

function encode(value: unknown, ancestors: object[], depth: number): unknown {
  try {
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (typeof value !== "object" || value === null) {
      return typeof value === "function" || typeof value === "symbol" ? undefined : value;
    }
    if (ancestors.includes(value)) return "[Circular]";
    if (depth >= MAX_DEPTH) return "[Too deep]";
    if (value instanceof Error) return { name: value.name, message: value.message };
    const toJSON: unknown = Reflect.get(value, "toJSON");
    if (typeof toJSON === "function") return encode(toJSON.call(value), ancestors, depth);
    ancestors.push(value);
    try {
      if (Array.isArray(value) || value instanceof Set) {
        return Array.from(value, (item) => encode(item, ancestors, depth + 1) ?? null);
      }
      const entries = value instanceof Map ? value.entries() : Object.entries(value);
      const out: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        const encoded = encode(item, ancestors, depth + 1);
        if (encoded !== undefined) setOwn(out, String(key), encoded);
      }
      return out;
    } finally {
      ancestors.pop();
    }
  } catch {
    return "[Unreadable]";
  }
}

/** `toJsonValue` as compact JSON text; `undefined` encodes as `null`. */
export function toJsonText(value: unknown): string {
  // Plain JSON data, the common case, comes out of the rule above exactly as JSON.stringify
  // writes it: one walk that allocates nothing instead of a copy. Anything else, or a read that
  // throws, takes the full encoding (where a throwing read becomes "[Unreadable]").
  try {
    if (isPlainJson(value, 0)) return JSON.stringify(value);
  } catch {}
  return JSON.stringify(toJsonValue(value) ?? null);
}

/**
 * Whether `value` is only plain objects and arrays (without `toJSON`), strings, booleans, `null`
 * and finite numbers, nested less than `MAX_DEPTH` deep. A cycle fails the depth test. `for…in`
 * (no key array to allocate) also visits inherited enumerable keys: stricter, never looser.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  // Not recursive itself, so the engine inlines it into `isPlainTree`: a leaf costs no call.
  return typeof value === "object" && value !== null
    ? isPlainTree(value, depth)
    : value === null ||
        typeof value === "string" ||
        typeof value === "boolean" ||
        (typeof value === "number" && Number.isFinite(value));
}

/** `isPlainJson` of an array or object. */
function isPlainTree(value: object, depth: number): boolean {
  if (depth >= MAX_DEPTH) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || "toJSON" in value) return false;
    for (let index = 0; index < value.length; index++) {
      if (!isPlainJson(value[index], depth + 1)) return false;
    }
    return true;
  }
  if ((prototype !== Object.prototype && prototype !== null) || "toJSON" in value) return false;
  // A keyed load inside for…in takes V8's enum-cache fast path, which `Reflect.get` does not.
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (!isPlainJson(object[key], depth + 1)) return false;
  }
  return true;
}

/** What `plainCopy` gives for a value that is not plain JSON data. */
export const NOT_PLAIN: unique symbol = Symbol("not plain JSON");

/**
 * A copy of `value` when it is plain JSON data (as `isPlainJson` tells it), equal to
 * `JSON.parse(JSON.stringify(value))` and made in one walk, without writing and reading text;
 * `NOT_PLAIN` for anything else, which `toJsonValue` then encodes.
 */
export function plainCopy(value: unknown): unknown {
  try {
    return copyOf(value, 0);
  } catch {
    return NOT_PLAIN; // a getter or a proxy trap threw
  }
}

function copyOf(value: unknown, depth: number): unknown {
  // Not recursive itself, so the engine inlines it into `copyTree`: a leaf costs no call.
  if (typeof value === "object" && value !== null) return copyTree(value, depth);
  if (typeof value === "string" || typeof value === "boolean" || value === null) return value;
  // JSON has no -0: the text would read it back as 0.
  if (typeof value === "number") return Number.isFinite(value) ? value + 0 : NOT_PLAIN;
  return NOT_PLAIN;
}

/** `copyOf` an array or object. */
function copyTree(value: object, depth: number): unknown {
  if (depth >= MAX_DEPTH) return NOT_PLAIN;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || "toJSON" in value) return NOT_PLAIN;
    const out: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copyOf(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[index] = item;
    }
    return out;
  }
  if ((prototype !== Object.prototype && prototype !== null) || "toJSON" in value) {
    return NOT_PLAIN;
  }
  const out: Record<string, unknown> = {};
  // Own keys only, as JSON.stringify writes them.
  for (const key of Object.keys(value)) {
    const item = copyOf(Reflect.get(value, key), depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    setOwn(out, key, item);
  }
  return out;
}

/**
 * The text a model reads for an error: a clear first line, then the issues it can fix. The
 * message already quotes the tool name the model called (the core builds it from the call), so
 * it is used as it is.
 */
export function errorText(_call: NeutralToolCall, error: ToolError): string {
  const first = `Error (${error.kind}): ${error.message}`;
  return error.kind === "InvalidInput" ? `${first}\nIssues: ${toJsonText(error.issues)}` : first;
}

/** The default cap on the text of one result: about 5 000 tokens. */
export const DEFAULT_MAX_RESULT_CHARS = 20_000;

/** The smallest cap a dialect takes: room for the truncation notice and some of the result. */
export const MIN_RESULT_CHARS = 128;

/**
 * `maxResultChars` from a dialect's options, checked: a whole number of at least
 * `MIN_RESULT_CHARS`, or `Infinity` for no cap. Anything else is the application's bug, a
 * `TypeError` when the dialect is made.
 */
export function maxCharsOf(dialect: string, options: ResultOptions | undefined): number {
  const value = options?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  if (
    value === Number.POSITIVE_INFINITY ||
    (Number.isSafeInteger(value) && value >= MIN_RESULT_CHARS)
  ) {
    return value;
  }
  throw new TypeError(
    `${dialect}({ maxResultChars }) must be an integer ≥ ${MIN_RESULT_CHARS} or Infinity, not ${value}`,
  );
}

/**
 * The text a model reads for a call's outcome, at most `maxChars` long: a success as compact
 * JSON, or as the JSON object `cappedJson` makes when it is longer; an error as its text, cut
 * with a marker when it is longer. Every character costs tokens on every later turn.
 */
export function resultText(
  call: NeutralToolCall,
  result: Result<Observation, ToolError>,
  maxChars = DEFAULT_MAX_RESULT_CHARS,
): string {
  return result.ok
    ? cappedJson(toJsonText(result.value), maxChars)
    : cappedLine(errorText(call, result.error), maxChars);
}

/** What the model reads instead of a result too long to send whole. */
export interface Truncated {
  /** Says the result was cut, and how much of it is shown. */
  readonly truncated: string;
  /** The start of the result's JSON text. */
  readonly partial: string;
}

/**
 * `json` as it is when it fits in `maxChars`; otherwise the JSON text of a `Truncated` object —
 * `{"truncated":"the result was cut: showing the first N of M characters","partial":"{\"snap…"}`
 * — which is still valid JSON, never longer than `maxChars`, and which no whole result is (a
 * whole one is `{"snapshot":…,"events":[…]}`).
 */
export function cappedJson(json: string, maxChars: number): string {
  return json.length <= maxChars ? json : JSON.stringify(truncated(json, maxChars));
}

/**
 * The `Truncated` object for `text`, whose JSON text is at most `maxChars` long (for a cap of at
 * least `MIN_RESULT_CHARS`): as much of `text` as fits once escaped, never half a surrogate pair.
 */
export function truncated(text: string, maxChars: number): Truncated {
  const notice = (shown: number) => `the result was cut: ${showing(shown, text.length)}`;
  const room = maxChars - JSON.stringify({ truncated: notice(text.length), partial: "" }).length;
  // The longest start whose escaped text fits. Each candidate is measured as it is sent, so the
  // one kept always fits, whatever escaping costs.
  let low = 0;
  let high = Math.min(text.length, room);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (JSON.stringify(text.slice(0, middle)).length - 2 <= room) low = middle;
    else high = middle - 1;
  }
  const end = isHighSurrogate(text.charCodeAt(low - 1)) ? low - 1 : low;
  return { truncated: notice(end), partial: text.slice(0, end) };
}

function showing(shown: number, total: number): string {
  return `showing the first ${shown} of ${total} characters`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `text` as it is when it fits in `maxChars`; otherwise cut, never inside a surrogate pair, and
 * ended by a marker — `… [truncated: showing the first N of M characters]` — the whole never
 * longer than `maxChars`. For error lines, which are text, not JSON.
 */
export function cappedLine(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (shown: number) => `… [truncated: ${showing(shown, text.length)}]`;
  const room = Math.max(0, maxChars - marker(text.length).length);
  const end = isHighSurrogate(text.charCodeAt(room - 1)) ? room - 1 : room;
  return `${text.slice(0, end)}${marker(end)}`;
}
