/**
 * Strict mode (OpenAI structured outputs, Anthropic `strict`): every object closed, every
 * property required, optional properties made nullable — and the nulls of originally optional
 * properties mapped back to absent, so the component sees exactly its own schema. One mechanism,
 * with a `StrictRule` per provider for the keywords its strict mode accepts.
 */
import { isRecord } from "../core/json.js";
import type { JsonSchema } from "../core/types.js";

/** What one provider's strict mode accepts. */
export interface StrictKeywords {
  readonly keywords: ReadonlySet<string>;
  readonly formats: ReadonlySet<string>;
  /** The largest `minItems` accepted, when the provider limits it. */
  readonly maxMinItems?: number;
}

/**
 * One provider's strict mode, as `toWire` uses it. A tool whose strict form uses a keyword (or
 * format) the provider does not accept is sent non-strict, so a strict request is never refused
 * for its schema. Only dialects with a strict mode import this module, so the others do not
 * carry it.
 */
export interface StrictRule {
  /** `schema` in strict form, or `undefined` when this strict mode cannot express it. */
  toStrict(schema: JsonSchema): JsonSchema | undefined;
  /** `input` with the `null`s sent for optional properties of `schema` removed. */
  restore(schema: JsonSchema, input: unknown): unknown;
}

/** The strict mode that accepts `accepted`. */
export function strictRule(accepted: StrictKeywords): StrictRule {
  const cache = new WeakMap<JsonSchema, JsonSchema | null>();
  return {
    toStrict(schema) {
      let strict = cache.get(schema);
      if (strict === undefined) {
        const converted = strictOf(schema);
        strict = isRecord(converted) && fits(converted, accepted, 0) ? converted : null;
        cache.set(schema, strict);
      }
      return strict ?? undefined;
    },
    restore: dropOptionalNulls,
  };
}

const COMMON = ["type", "properties", "required", "additionalProperties", "items", "enum"];
const MORE = ["const", "anyOf", "$ref", "$defs", "description", "title", "format", "minItems"];
const FORMATS = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6"];

/** OpenAI structured outputs (Chat Completions and Responses), as its documentation lists them. */
export const OPENAI_STRICT: StrictRule = strictRule({
  keywords: new Set([
    ...COMMON,
    ...MORE,
    "definitions",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
  ]),
  formats: new Set([...FORMATS, "uuid"]),
});

/** Anthropic's strict tool use: the keywords its SDK's strict-schema transform keeps. */
export const ANTHROPIC_STRICT: StrictRule = strictRule({
  keywords: new Set([...COMMON, ...MORE]),
  formats: new Set([...FORMATS, "uuid", "uri"]),
  maxMinItems: 1,
});

const NOT_STRICT = Symbol("not strict");

// Schemas reaching here passed meta-schema validation, so keyword values have their JSON Schema
// types (`anyOf` is an array, `$defs` an object). Keywords the provider does not accept are
// copied as they are and refused afterwards by `fits`.
function strictOf(schema: unknown): unknown {
  if (!isRecord(schema)) return NOT_STRICT;
  // Closing each branch of an allOf separately would make branches with different properties
  // unsatisfiable together.
  if ("allOf" in schema) return NOT_STRICT;
  const { $schema: _dialect, ...out } = schema;
  for (const key of ["$defs", "definitions"] as const) {
    const defs = schema[key];
    if (!isRecord(defs)) continue;
    const converted: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(defs)) {
      const strict = strictOf(def);
      if (strict === NOT_STRICT) return NOT_STRICT;
      converted[name] = strict;
    }
    out[key] = converted;
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.map(strictOf);
    if (branches.includes(NOT_STRICT)) return NOT_STRICT;
    out.anyOf = branches;
  }
  if (schema.type === "array" && schema.items === undefined) return NOT_STRICT;
  if (schema.items !== undefined) {
    const items = strictOf(schema.items);
    if (items === NOT_STRICT) return NOT_STRICT;
    out.items = items;
  }
  if (schema.type === "object" || schema.properties !== undefined) {
    // An open map (additional properties allowed, or no declared properties) has no strict form.
    if (schema.additionalProperties !== false || !isRecord(schema.properties)) return NOT_STRICT;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const strict = strictOf(property);
      if (strict === NOT_STRICT) return NOT_STRICT;
      properties[name] = required.has(name) ? strict : { anyOf: [strict, { type: "null" }] };
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function fits(schema: unknown, rule: StrictKeywords, depth: number): boolean {
  if (!isRecord(schema) || depth > 64) return false;
  const inner = (value: unknown) => fits(value, rule, depth + 1);
  return Object.entries(schema).every(([keyword, value]) => {
    if (!rule.keywords.has(keyword)) return false;
    switch (keyword) {
      case "format":
        return typeof value === "string" && rule.formats.has(value);
      case "minItems":
        return rule.maxMinItems === undefined || Number(value) <= rule.maxMinItems;
      case "enum":
        return Array.isArray(value) && value.every(isPrimitive);
      case "const":
        return isPrimitive(value);
      case "items":
        return inner(value);
      case "anyOf":
        return Array.isArray(value) && value.every(inner);
      case "properties":
      case "$defs":
      case "definitions":
        return isRecord(value) && Object.values(value).every(inner);
      default:
        return true;
    }
  });
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/**
 * `input` with the `null`s a strict-mode model sent for optional properties of `schema` removed
 * (on a copy), following local `$ref`s. Properties inside `anyOf` branches are left as they are.
 */
function dropOptionalNulls(schema: JsonSchema, input: unknown): unknown {
  return strip(schema, input, schema, 0);
}

function strip(schema: unknown, value: unknown, root: JsonSchema, depth: number): unknown {
  if (!isRecord(schema) || depth > 64) return value;
  const target = resolve(schema, root);
  if (Array.isArray(value)) {
    return value.map((item) => strip(target.items, item, root, depth + 1));
  }
  if (!isRecord(value) || !isRecord(target.properties)) return value;
  const properties = target.properties;
  const required = new Set(Array.isArray(target.required) ? target.required : []);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const known = Object.hasOwn(properties, key);
    if (item === null && known && !required.has(key)) continue;
    Object.defineProperty(out, key, {
      value: known ? strip(properties[key], item, root, depth + 1) : item,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function resolve(schema: Record<string, unknown>, root: JsonSchema): Record<string, unknown> {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let node: unknown = root;
  for (const segment of ref.slice(2).split("/")) {
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isRecord(node) ? node[key] : undefined;
  }
  return isRecord(node) ? node : schema;
}
