/**
 * The downgrade of a JSON Schema to Gemini's OpenAPI-subset `Schema` (gemini-schema.ts), keyword
 * by keyword. It only ever loosens what the model is told: every call is still validated in the
 * core against the component's full, original schema. Local `$ref`s are inlined (a cycle cut
 * where it repeats), `allOf` merged, `oneOf` told as `anyOf`, and each keyword that could not be
 * carried as it was is listed, so the dialect can report it.
 */

import { escapePointer, isRecord } from "../../core/json.js";
import type { JsonSchema } from "../../core/types.js";
import { resolveRef } from "../../wire/schema-refs.js";
import {
  ANNOTATIONS,
  type DroppedKeyword,
  drop,
  type GeminiSchema,
  type GeminiType,
  type Node,
  type Reporting,
  seal,
} from "./schema.js";

/** A JSON Schema as Gemini's `Schema`, with what it lost on the way. */
export interface GeminiDowngrade {
  readonly schema: GeminiSchema;
  /** The first keywords dropped (`MAX_REPORTED` of gemini-schema.ts), in the order met. */
  readonly dropped: readonly DroppedKeyword[];
  /** How many more were dropped (a schema whose `$ref`s expand many times repeats its losses). */
  readonly more: number;
  /** Some enum of numbers is told as strings: read calls back through `restoreNumbers`. */
  readonly numbersAsText: boolean;
}

const TYPES = new Map<unknown, GeminiType>([
  ["string", "STRING"],
  ["number", "NUMBER"],
  ["integer", "INTEGER"],
  ["boolean", "BOOLEAN"],
  ["array", "ARRAY"],
  ["object", "OBJECT"],
]);

// Older endpoints answer any other format with a 400 ("only 'enum' and 'date-time' are supported
// for STRING type"), so only these survive, and only on their own type.
const FORMATS: ReadonlyMap<GeminiType, readonly string[]> = new Map([
  ["STRING", ["enum", "date-time"]],
  ["NUMBER", ["float", "double"]],
  ["INTEGER", ["int32", "int64"]],
]);

const COUNTS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
] as const;

// What the conversion reads, and what says nothing about validity: anything else on a node is
// reported as dropped.
const READ = new Set([
  ...COUNTS,
  ...ANNOTATIONS,
  "type",
  "nullable",
  "enum",
  "const",
  "format",
  "items",
  "properties",
  "required",
  "propertyOrdering",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "examples",
  "$schema",
  "$id",
  "$anchor",
  "$comment",
  "$defs",
  "definitions",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);

/** How deep a schema is followed, and how many nodes it may expand to through `$ref`s. */
const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

interface Context extends Reporting {
  readonly root: JsonSchema;
  /** The `$ref`s being expanded on the way to this node: meeting one again is a cycle. */
  readonly refs: readonly string[];
  readonly depth: number;
  readonly budget: { nodes: number; cut: boolean };
}

const cache = new WeakMap<JsonSchema, GeminiDowngrade>();

/**
 * `schema` as Gemini's OpenAPI-subset `Schema`: type names upper-cased, `[T, "null"]` as
 * `nullable`, local `$ref`s inlined (a cycle is cut where it repeats, to a node of the type it
 * points to), `oneOf` as `anyOf`, `allOf` merged, counts as strings, an enum of numbers as their
 * texts, and every keyword Gemini lacks dropped. Never throws.
 */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  return downgrade(schema).schema;
}

/** `toGeminiSchema`, with the keywords it dropped. Cached per schema object. */
export function downgrade(schema: JsonSchema): GeminiDowngrade {
  let done = cache.get(schema);
  if (!done) {
    const dropped: Context["dropped"] = { list: [], more: 0 };
    const context = {
      root: schema,
      refs: [],
      depth: 0,
      path: undefined,
      budget: { nodes: MAX_NODES, cut: false },
    };
    const built = convert(schema, { ...context, dropped });
    const flag = { numbers: false };
    const sealed = seal(built, { ...context, dropped }, flag);
    const { list, more } = dropped;
    done = { schema: sealed, dropped: list, more, numbersAsText: flag.numbers };
    cache.set(schema, done);
  }
  return done;
}

function convert(schema: unknown, context: Context): Node {
  if (schema === false) drop(context, "false");
  // `true` (or no schema) allows anything: told as any value when the tree is sealed.
  if (!isRecord(schema)) return {};
  if (context.depth > MAX_DEPTH || context.budget.nodes-- <= 0) {
    // Reported once: past the limit, every node left is cut the same way.
    if (!context.budget.cut) drop(context, "(schema cut at its size or depth limit)");
    context.budget.cut = true;
    return stub(schema, context.root);
  }
  const inner = (key: string): Context => ({
    ...context,
    depth: context.depth + 1,
    path: { parent: context.path, key },
  });
  for (const key of Object.keys(schema)) {
    if (!READ.has(key) && !key.startsWith("x-")) drop(context, key);
  }
  let out: Node = { ...types(schema, context), ...annotations(schema, context) };
  out = { ...out, ...bounds(schema, context), ...format(schema, out.type, context) };
  const told = values(schema, out.type, context);
  // An enum of numbers told as texts: the enum is exact, bounds and number formats would not fit.
  if (told.numbers) {
    const { minimum: _min, maximum: _max, format: _format, ...rest } = out;
    out = rest;
  }
  out = { ...out, ...told };
  if (isRecord(schema.items)) out.items = convert(schema.items, inner("items"));
  else if (schema.items !== undefined) drop(context, "items");
  if (isRecord(schema.properties)) {
    // A property that may not be present (`false`) is simply not offered.
    const entries = Object.entries(schema.properties).filter(([, property]) => property !== false);
    out.properties = Object.fromEntries(
      entries.map(([name, property]) => [
        name,
        convert(property, inner(`properties/${escapePointer(name)}`)),
      ]),
    );
  }
  const required = strings(schema.required);
  if (required) out.required = required;
  const ordering = strings(schema.propertyOrdering);
  if (ordering) out.propertyOrdering = ordering;
  if (Array.isArray(schema.anyOf)) out = withBranches(out, schema.anyOf, inner("anyOf"));
  else if (Array.isArray(schema.oneOf)) {
    drop(context, "oneOf (told as anyOf)");
    out = withBranches(out, schema.oneOf, inner("oneOf"));
  }
  // A `$ref` with siblings is the conjunction of both: the siblings win where they overlap.
  for (const part of conjuncts(schema, context)) {
    const merged = merge(out, part.node);
    if (out.type && part.node.type && merged.type === undefined) drop(context, "allOf");
    out = merged;
  }
  return finish(out, context);
}

function annotations(schema: Record<string, unknown>, context: Context): Node {
  const out: Node = {};
  if (typeof schema.title === "string") out.title = schema.title;
  if (typeof schema.description === "string") out.description = schema.description;
  if (typeof schema.pattern === "string") out.pattern = schema.pattern;
  // The SDK drops null-valued fields before sending, so a null default or example is not kept.
  if (schema.default !== undefined && schema.default !== null) out.default = schema.default;
  const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
  if (example !== undefined && example !== null) out.example = example;
  for (const key of COUNTS) {
    const count = schema[key];
    if (count === undefined) continue;
    if (typeof count === "number" && Number.isSafeInteger(count) && count >= 0) {
      out[key] = String(count);
    } else drop(context, key);
  }
  return out;
}

/** Exclusive bounds become inclusive ones: `x > 0` is told as `x >= 0`. */
function bounds(schema: Record<string, unknown>, context: Context): Node {
  const out: Node = {};
  for (const key of ["exclusiveMinimum", "exclusiveMaximum"]) {
    if (schema[key] !== undefined && schema[key] !== false) drop(context, key);
  }
  const lower = [schema.minimum, schema.exclusiveMinimum].filter(isFiniteNumber);
  const upper = [schema.maximum, schema.exclusiveMaximum].filter(isFiniteNumber);
  if (lower.length > 0) out.minimum = Math.max(...lower);
  if (upper.length > 0) out.maximum = Math.min(...upper);
  return out;
}

function types(schema: Record<string, unknown>, context: Context): Node {
  const names: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out: Node = {};
  if (names.includes("null") || schema.nullable === true) out.nullable = true;
  const known = [...new Set(names.flatMap((name) => TYPES.get(name) ?? []))];
  if (known.length === 1) out.type = known[0];
  if (known.length > 1) out.anyOf = known.map((type) => ({ type }));
  if (schema.type !== undefined && known.length === 0 && !out.nullable) drop(context, "type");
  return out;
}

/**
 * `enum`, and `const` as a one-value enum. Gemini's enums are strings: an enum of strings is
 * kept; one of numbers (or of numbers and strings) is sent as their decimal texts, read back as
 * numbers by `restoreNumbers`; an enum of booleans leaves `BOOLEAN`; anything else is dropped.
 */
function values(
  schema: Record<string, unknown>,
  type: GeminiType | undefined,
  context: Context,
): Node {
  const keyword = Array.isArray(schema.enum) ? "enum" : "const" in schema ? "const" : undefined;
  if (keyword === undefined) return {};
  const all: unknown[] = Array.isArray(schema.enum) ? schema.enum : [schema.const];
  const out: Node = all.includes(null) ? { nullable: true } : {};
  const rest = all.filter((value) => value !== null);
  if (rest.length === 0) return out;
  if (rest.every((value) => typeof value === "boolean")) {
    if (new Set(rest).size < 2) drop(context, keyword);
    return type === undefined || type === "BOOLEAN" ? { ...out, type: "BOOLEAN" } : out;
  }
  const texts = new Map<string, string | number>();
  for (const value of rest) {
    const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
    const seen = typeof text === "string" ? texts.get(text) : undefined;
    // Only strings and numbers, and no number whose text is also a string of the enum.
    if (typeof text !== "string" || (seen !== undefined && seen !== value)) {
      drop(context, keyword);
      return out;
    }
    texts.set(text, typeof value === "number" ? value : text);
  }
  const numeric = rest.some((value) => typeof value === "number");
  if (type !== undefined && type !== "STRING" && !(numeric && isNumeric(type))) {
    drop(context, keyword);
    return out;
  }
  const numbers: Record<string, number> = {};
  for (const [text, value] of texts) if (typeof value === "number") numbers[text] = value;
  return { ...out, type: "STRING", enum: [...texts.keys()], ...(numeric ? { numbers } : {}) };
}

function isNumeric(type: GeminiType): boolean {
  return type === "NUMBER" || type === "INTEGER";
}

function format(schema: Record<string, unknown>, type: GeminiType | undefined, context: Context) {
  const value = schema.format;
  if (value === undefined) return {};
  const allowed = type === undefined ? undefined : FORMATS.get(type);
  if (typeof value === "string" && allowed?.includes(value)) return { format: value };
  drop(context, "format");
  return {};
}

/** `anyOf` (or `oneOf`, told as `anyOf`): a `null` branch becomes `nullable`. */
function withBranches(out: Node, branches: unknown[], context: Context): Node {
  const converted = branches
    .map((branch, index) =>
      branch === false
        ? undefined
        : convert(branch, { ...context, path: { parent: context.path, key: String(index) } }),
    )
    .filter((branch) => branch !== undefined);
  const nullable = converted.some(isNullOnly);
  const kept = converted.filter((branch) => !isNullOnly(branch));
  const base: Node = nullable ? { ...out, nullable: true } : out;
  // A branch that accepts anything makes the whole union accept anything.
  if (kept.length === 0 || kept.some(isUnconstrained)) return base;
  const [only] = kept;
  if (kept.length === 1 && only) return merge(base, only);
  return { ...base, anyOf: base.anyOf ?? kept };
}

/** The converted `allOf` branches and `$ref` target of a node, each to merge into it. */
function conjuncts(schema: Record<string, unknown>, context: Context): { node: Node }[] {
  const inner = (key: string): Context => ({
    ...context,
    depth: context.depth + 1,
    path: { parent: context.path, key },
  });
  const parts = (Array.isArray(schema.allOf) ? schema.allOf : []).map((part: unknown, index) => ({
    node: convert(part, inner(`allOf/${index}`)),
  }));
  const ref = schema.$ref;
  if (ref === undefined) return parts;
  if (typeof ref !== "string") {
    drop(context, "$ref");
    return parts;
  }
  const target = resolveRef(ref, context.root);
  if (target === undefined) {
    drop(context, "$ref (not a local reference)");
    return parts;
  }
  if (context.refs.includes(ref)) {
    // A recursive schema: told down to here, and as a node of the right type from here on.
    drop(context, "$ref (recursion cut)");
    return [{ node: stub(target, context.root) }, ...parts];
  }
  const through = { ...context, depth: context.depth + 1, refs: [...context.refs, ref] };
  return [{ node: convert(target, through) }, ...parts];
}

/** Both schemas at once, as far as Gemini can tell it; where they disagree, `into` wins. */
function merge(into: Node, from: Node): Node {
  const merged: Node = { ...from, ...into };
  if (into.enum === undefined && from.numbers) merged.numbers = from.numbers;
  else if (into.enum !== undefined && !into.numbers) delete merged.numbers;
  if (into.properties && from.properties) {
    merged.properties = { ...from.properties, ...into.properties };
  }
  if (into.required && from.required) {
    merged.required = [...new Set([...into.required, ...from.required])];
  }
  if (into.type === undefined || from.type === undefined || into.type === from.type) return merged;
  const numbers = new Set([into.type, from.type]);
  if (numbers.has("INTEGER") && numbers.has("NUMBER")) return { ...merged, type: "INTEGER" };
  const { type: _conflict, ...untyped } = merged; // contradictory types: tell neither
  return untyped;
}

/** The node with only declared properties `required` and ordered, and never both a type and `anyOf`. */
function finish(schema: Node, context: Context): Node {
  const { anyOf, required, propertyOrdering, ...out } = schema;
  const declared = (names: string[] | undefined, keyword: string) => {
    const kept = names?.filter((name) => out.properties && Object.hasOwn(out.properties, name));
    if (keyword === "required" && kept && names && kept.length < new Set(names).size) {
      drop(context, keyword);
    }
    return kept && kept.length > 0 ? [...new Set(kept)] : undefined;
  };
  const requiredKept = declared(required, "required");
  const orderingKept = declared(propertyOrdering, "propertyOrdering");
  // The SDK throws on a schema with both `type` and `anyOf`; the type is the surer of the two.
  if (anyOf && out.type !== undefined) drop(context, "anyOf");
  return {
    ...out,
    ...(anyOf && out.type === undefined ? { anyOf } : {}),
    ...(requiredKept ? { required: requiredKept } : {}),
    ...(orderingKept ? { propertyOrdering: orderingKept } : {}),
  };
}

/**
 * A node of `schema`'s own type and nothing more, where the conversion stops (a cycle, the
 * depth or size limit): an object, an array of anything, a scalar — or, untyped, any value.
 */
function stub(schema: unknown, root: JsonSchema, hops = 0): Node {
  if (!isRecord(schema)) return {};
  // A bare reference has the type of what it points to (followed a few steps, never in circles).
  if (schema.type === undefined && typeof schema.$ref === "string" && hops < 8) {
    return stub(resolveRef(schema.$ref, root), root, hops + 1);
  }
  const names: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const known = [...new Set(names.flatMap((name) => TYPES.get(name) ?? []))];
  const [type] = known;
  const description =
    typeof schema.description === "string" ? { description: schema.description } : {};
  return known.length === 1 && type !== undefined ? { type, ...description } : description;
}

/** A branch that allows only `null` (`{ type: "null" }`, `{ const: null }`). */
function isNullOnly(schema: Node): boolean {
  return (
    schema.nullable === true &&
    Object.keys(schema).every((key) => key === "nullable" || ANNOTATIONS.has(key))
  );
}

function isUnconstrained(schema: Node): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : undefined;
}
