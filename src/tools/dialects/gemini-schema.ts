/**
 * Gemini's OpenAPI-subset `Schema`, for models and endpoints that lack `parametersJsonSchema`. A
 * JSON Schema is downgraded so that it only ever loosens what the model is told: every call is
 * still validated in the core against the component's full, original schema.
 */

import { isRecord } from "../core/json.js";
import type { JsonSchema } from "../core/types.js";

/**
 * A type name of Gemini's `Schema`: the SDK's `Type` enum values as plain strings (without
 * `TYPE_UNSPECIFIED` and `NULL`; `null` is expressed as `nullable: true`).
 */
export type GeminiType = "STRING" | "NUMBER" | "INTEGER" | "BOOLEAN" | "ARRAY" | "OBJECT";

/**
 * Gemini's OpenAPI-subset `Schema`, field for field the SDK's `Schema` except that `type` is a
 * string literal rather than the SDK's `Type` enum (see docs/dialects/gemini.md).
 */
export interface GeminiSchema {
  type?: GeminiType;
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  /** Gemini enums are strings only. */
  enum?: string[];
  items?: GeminiSchema;
  properties?: Record<string, GeminiSchema>;
  propertyOrdering?: string[];
  required?: string[];
  anyOf?: GeminiSchema[];
  minimum?: number;
  maximum?: number;
  /** Counts are int64 in the API, so they travel as decimal strings. */
  minLength?: string;
  maxLength?: string;
  minItems?: string;
  maxItems?: string;
  minProperties?: string;
  maxProperties?: string;
  pattern?: string;
  default?: unknown;
  example?: unknown;
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

// Keywords that say nothing about which values are valid.
const ANNOTATIONS = new Set(["title", "description", "default", "example"]);

/** How deep a schema is followed, and how many nodes it may expand to through `$ref`s. */
const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

interface Context {
  readonly root: JsonSchema;
  /** The `$ref`s being expanded on the way to this node: meeting one again is a cycle. */
  readonly refs: readonly string[];
  readonly depth: number;
  readonly budget: { nodes: number };
}

/**
 * `schema` as Gemini's OpenAPI-subset `Schema`: type names upper-cased, `[T, "null"]` as
 * `nullable`, local `$ref`s inlined (a cycle is cut where it repeats), `oneOf` as `anyOf`, `allOf`
 * merged, counts as strings, and every keyword Gemini lacks dropped. Never throws.
 */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  return convert(schema, { root: schema, refs: [], depth: 0, budget: { nodes: MAX_NODES } });
}

function convert(schema: unknown, context: Context): GeminiSchema {
  if (!isRecord(schema) || context.depth > MAX_DEPTH || context.budget.nodes-- <= 0) return {};
  const inner: Context = { ...context, depth: context.depth + 1 };
  let out: GeminiSchema = { ...types(schema), ...annotations(schema), ...bounds(schema) };
  out = { ...out, ...values(schema, out.type) };
  out = { ...out, ...format(schema, out.type) };
  if (isRecord(schema.items)) out.items = convert(schema.items, inner);
  if (isRecord(schema.properties)) {
    const entries = Object.entries(schema.properties).filter(([, property]) => property !== false);
    out.properties = Object.fromEntries(
      entries.map(([name, property]) => [name, convert(property, inner)]),
    );
  }
  const required = strings(schema.required);
  if (required) out.required = required;
  const ordering = strings(schema.propertyOrdering);
  if (ordering) out.propertyOrdering = ordering;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : schema.oneOf;
  if (Array.isArray(branches)) out = withBranches(out, branches, inner);
  // A `$ref` with siblings is the conjunction of both: the siblings win where they overlap.
  for (const part of conjuncts(schema, context)) {
    out = merge(out, convert(part.schema, part.context));
  }
  return finish(out);
}

function annotations(schema: Record<string, unknown>): GeminiSchema {
  const out: GeminiSchema = {};
  if (typeof schema.title === "string") out.title = schema.title;
  if (typeof schema.description === "string") out.description = schema.description;
  if (typeof schema.pattern === "string") out.pattern = schema.pattern;
  // The SDK drops null-valued fields before sending, so a null default or example is not kept.
  if (schema.default !== undefined && schema.default !== null) out.default = schema.default;
  const example = Array.isArray(schema.examples) ? schema.examples[0] : schema.example;
  if (example !== undefined && example !== null) out.example = example;
  for (const key of COUNTS) {
    const count = schema[key];
    if (typeof count === "number" && Number.isSafeInteger(count) && count >= 0) {
      out[key] = String(count);
    }
  }
  return out;
}

/** Exclusive bounds become inclusive ones: `x > 0` is told as `x >= 0`. */
function bounds(schema: Record<string, unknown>): GeminiSchema {
  const out: GeminiSchema = {};
  const lower = [schema.minimum, schema.exclusiveMinimum].filter(isFiniteNumber);
  const upper = [schema.maximum, schema.exclusiveMaximum].filter(isFiniteNumber);
  if (lower.length > 0) out.minimum = Math.max(...lower);
  if (upper.length > 0) out.maximum = Math.min(...upper);
  return out;
}

function types(schema: Record<string, unknown>): GeminiSchema {
  const names: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out: GeminiSchema = {};
  if (names.includes("null") || schema.nullable === true) out.nullable = true;
  const known = [...new Set(names.flatMap((name) => TYPES.get(name) ?? []))];
  if (known.length === 1) out.type = known[0];
  if (known.length > 1) out.anyOf = known.map((type) => ({ type }));
  return out;
}

/** `const` is a one-value `enum`. Only string values can be told; any other enum is dropped. */
function values(schema: Record<string, unknown>, type: GeminiType | undefined): GeminiSchema {
  const all = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  const out: GeminiSchema = all.includes(null) ? { nullable: true } : {};
  const rest = all.filter((value) => value !== null);
  const texts = rest.filter((value): value is string => typeof value === "string");
  if (texts.length === 0 || texts.length < rest.length) return out;
  if (type !== undefined && type !== "STRING") return out;
  return { ...out, type: "STRING", enum: [...new Set(texts)] };
}

function format(schema: Record<string, unknown>, type: GeminiType | undefined): GeminiSchema {
  const allowed = type === undefined ? undefined : FORMATS.get(type);
  const value = schema.format;
  return typeof value === "string" && allowed?.includes(value) ? { format: value } : {};
}

/** `anyOf` (or `oneOf`, told as `anyOf`): a `null` branch becomes `nullable`. */
function withBranches(out: GeminiSchema, branches: unknown[], context: Context): GeminiSchema {
  const converted = branches.filter((branch) => branch !== false).map((b) => convert(b, context));
  const nullable = converted.filter(isNullOnly).length > 0;
  const kept = converted.filter((branch) => !isNullOnly(branch));
  const base: GeminiSchema = nullable ? { ...out, nullable: true } : out;
  // A branch that accepts anything makes the whole union accept anything.
  if (kept.length === 0 || kept.some(isUnconstrained)) return base;
  const [only] = kept;
  if (kept.length === 1 && only) return merge(base, only);
  return base.anyOf === undefined ? { ...base, anyOf: kept } : base;
}

function conjuncts(schema: Record<string, unknown>, context: Context) {
  const inner: Context = { ...context, depth: context.depth + 1 };
  const parts = (Array.isArray(schema.allOf) ? schema.allOf : []).map((part: unknown) => ({
    schema: part,
    context: inner,
  }));
  const ref = schema.$ref;
  if (typeof ref !== "string" || context.refs.includes(ref)) return parts;
  const target = resolve(ref, context.root);
  if (target === undefined) return parts;
  return [{ schema: target, context: { ...inner, refs: [...context.refs, ref] } }, ...parts];
}

/** Both schemas at once, as far as Gemini can tell it; where they disagree, `into` wins. */
function merge(into: GeminiSchema, from: GeminiSchema): GeminiSchema {
  const merged: GeminiSchema = { ...from, ...into };
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

function finish(schema: GeminiSchema): GeminiSchema {
  const { anyOf, required, propertyOrdering, ...out } = schema;
  const declared = (names: string[] | undefined) => {
    const kept = names?.filter((name) => out.properties && Object.hasOwn(out.properties, name));
    return kept && kept.length > 0 ? [...new Set(kept)] : undefined;
  };
  const requiredKept = declared(required);
  const orderingKept = declared(propertyOrdering);
  return {
    ...out,
    // The SDK throws on a schema with both `type` and `anyOf`; the type is the surer of the two.
    ...(anyOf && out.type === undefined ? { anyOf } : {}),
    ...(requiredKept ? { required: requiredKept } : {}),
    ...(orderingKept ? { propertyOrdering: orderingKept } : {}),
  };
}

/** The node a local JSON Pointer reference (`#`, `#/$defs/Name`, ...) points to. */
function resolve(ref: string, root: JsonSchema): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const segment of ref === "#" ? [] : ref.slice(2).split("/")) {
    const key = decodeSegment(segment).replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else node = isRecord(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}

/** A URI fragment's percent-encoding undone; a malformed one is taken as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A branch that allows only `null` (`{ type: "null" }`, `{ const: null }`). */
function isNullOnly(schema: GeminiSchema): boolean {
  return (
    schema.nullable === true &&
    Object.keys(schema).every((key) => key === "nullable" || ANNOTATIONS.has(key))
  );
}

function isUnconstrained(schema: GeminiSchema): boolean {
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key));
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item) => typeof item === "string") : undefined;
}
