/**
 * The schema cache in front of any `InputValidator`: each distinct schema costs one check and one
 * compilation for the life of the validator, however often the component rebuilds its schema.
 */
import { describe } from "../core/errors.js";
import { escapePointer } from "../core/json.js";
import type { Result } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";
import type { InputCheck, InputValidator } from "./port.js";

/** A schema's cached verdict: why it is unusable, or (once compiled) its check. */
interface SchemaEntry {
  problem: string | undefined;
  check?: InputCheck | { compileError: string };
}

interface SchemaCache {
  byObject: WeakMap<object, SchemaEntry>;
  byContent: Map<string, SchemaEntry>;
}

const caches = new WeakMap<InputValidator, SchemaCache>();

/**
 * The most schemas kept by content per validator. Entries reached by identity live as long as
 * their schema object (a WeakMap); the content index is what a component that builds new schemas
 * every turn would grow without end, so it forgets the least recently used beyond this bound.
 */
export const MAX_CONTENT_ENTRIES = 4096;

/** How many schemas `validator`'s cache keeps by content (for tests and the bench). */
export function contentEntries(validator: InputValidator): number {
  return caches.get(validator)?.byContent.size ?? 0;
}

// Identity first (a component that returns the same schema object costs one WeakMap lookup);
// content second, so a `getSchema()` that builds a fresh, equal object every turn still hits.
function entryFor(validator: InputValidator, schema: JsonSchema): SchemaEntry {
  let cache = caches.get(validator);
  if (!cache) {
    cache = { byObject: new WeakMap(), byContent: new Map() };
    caches.set(validator, cache);
  }
  let entry = cache.byObject.get(schema);
  if (entry) return entry;
  let key: string;
  try {
    key = contentKey(schema);
  } catch (error) {
    // Not JSON data (a BigInt, a getter that throws): no validator can read it. Not cached, as
    // the object may be repaired in place.
    return { problem: describe(error) };
  }
  entry = cache.byContent.get(key);
  if (entry) {
    cache.byContent.delete(key); // most recently used last: a Map keeps insertion order
  } else {
    entry = { problem: validator.checkSchema(schema) };
    if (cache.byContent.size >= MAX_CONTENT_ENTRIES) {
      cache.byContent.delete(cache.byContent.keys().next().value as string);
    }
  }
  cache.byContent.set(key, entry);
  cache.byObject.set(schema, entry);
  return entry;
}

/** Why `schema` is not a usable JSON Schema, or `undefined`; cached by content. */
export function schemaProblem(validator: InputValidator, schema: JsonSchema): string | undefined {
  return entryFor(validator, schema).problem;
}

/**
 * Validates `input` against a schema that passed `schemaProblem`, compiling on first use.
 * Returns the compile error as text when the schema cannot be compiled.
 */
export function checkInput(
  validator: InputValidator,
  schema: JsonSchema,
  input: unknown,
): Result<unknown, ValidationIssue[]> | { compileError: string } {
  const entry = entryFor(validator, schema);
  if (!entry.check) {
    try {
      entry.check = validator.compile(schema);
    } catch (error) {
      entry.check = { compileError: describe(error) };
    }
  }
  return typeof entry.check === "function" ? entry.check(input) : entry.check;
}

/**
 * Serialises JSON-like data with object keys sorted (by code unit), so equal content gives equal
 * text: the canonical JSON a schema is cached by and a pending call's digest is taken over.
 */
export function contentKey(value: unknown, path = ""): string {
  if (Array.isArray(value)) {
    return `[${value.map((item, index) => contentKey(item, `${path}/${index}`)).join(",")}]`;
  }
  if (typeof value === "bigint") {
    throw new TypeError(`${path || "/"} is ${value}n: must be JSON data, which has no BigInt`);
  }
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries
    .map(
      ([key, item]) =>
        `${JSON.stringify(key)}:${contentKey(item, `${path}/${escapePointer(key)}`)}`,
    )
    .join(",")}}`;
}
