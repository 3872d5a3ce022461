/**
 * Strict mode (OpenAI structured outputs, Anthropic strict tool use): the provider constrains the
 * model's arguments to the schema, for the schemas its strict mode can express. One mechanism,
 * with a `StrictRule` per provider for what its strict mode accepts, how it tells an optional
 * property, and the limits it puts on one request. A tool strict mode cannot express is sent
 * without it, and the reason is reported (`strict-fallback`). Only dialects with a strict mode
 * import this module, so the others do not carry it.
 */
import { isRecord, setOwn } from "../core/json.js";
import type { JsonSchema } from "../core/types.js";
import { isRecursive, resolveRef, subschemas } from "./schema-refs.js";

/** What one provider's strict mode accepts. */
export interface StrictKeywords {
  /** The provider, as messages name it (`"OpenAI"`). */
  readonly provider: string;
  readonly keywords: ReadonlySet<string>;
  readonly formats: ReadonlySet<string>;
  /** The largest `minItems` accepted, when the provider limits it. */
  readonly maxMinItems?: number;
  /**
   * How an optional property is sent: `"nullable"` makes every property required and an optional
   * one nullable (the `null`s are removed again when the call is read); `"optional"` leaves it
   * optional, as the provider's strict mode accepts it.
   */
  readonly optional: "nullable" | "optional";
  /** Why strict mode refuses a whole schema (a recursive one, say), or `undefined`. */
  readonly refuse?: (schema: JsonSchema) => string | undefined;
  /** The choice among the tools of one request, where the provider limits its strict tools. */
  readonly limit?: (forms: StrictForm[]) => StrictForm[];
}

/** A schema in strict form, or why it has none. */
export type StrictForm = { readonly schema: JsonSchema } | { readonly reason: string };

/** One provider's strict mode, as `toWire` uses it. */
export interface StrictRule {
  /** `schema` in strict form, or why this strict mode cannot express it. Cached per schema. */
  convert(schema: JsonSchema): StrictForm;
  /**
   * The strict form of each tool of one request (object-rooted input schemas, in manifest
   * order), within the provider's limits on one request.
   */
  select(objects: readonly JsonSchema[]): StrictForm[];
  /** `schema` in strict form, or `undefined` when this strict mode cannot express it. */
  toStrict(schema: JsonSchema): JsonSchema | undefined;
  /** `input` with the `null`s sent for optional properties of `schema` removed. */
  restore(schema: JsonSchema, input: unknown): unknown;
}

/** The strict mode that accepts `accepted`. */
export function strictRule(accepted: StrictKeywords): StrictRule {
  const cache = new WeakMap<JsonSchema, StrictForm>();
  const convert = (schema: JsonSchema): StrictForm => {
    let form = cache.get(schema);
    if (form === undefined) {
      form = strictForm(schema, accepted);
      cache.set(schema, form);
    }
    return form;
  };
  return {
    convert,
    select(objects) {
      const forms = objects.map(convert);
      return accepted.limit ? accepted.limit(forms) : forms;
    },
    toStrict(schema) {
      const form = convert(schema);
      return "schema" in form ? form.schema : undefined;
    },
    restore: accepted.optional === "nullable" ? dropOptionalNulls : (_schema, input) => input,
  };
}

const COMMON = ["type", "properties", "required", "additionalProperties", "items", "enum"];
const MORE = ["const", "anyOf", "$ref", "$defs", "description", "title", "format", "minItems"];
const FORMATS = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6"];

// A call, not a spread, so that a bundler can drop the rule a dialect does not import.
function words(...lists: string[][]): ReadonlySet<string> {
  return new Set(lists.flat());
}

/**
 * OpenAI structured outputs (Chat Completions and Responses), as its documentation lists them:
 * every property required, optional ones nullable; recursive schemas accepted.
 */
export const OPENAI_STRICT: StrictRule = /* @__PURE__ */ strictRule({
  provider: "OpenAI",
  keywords: /* @__PURE__ */ words(COMMON, MORE, [
    "definitions",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "maxItems",
  ]),
  formats: /* @__PURE__ */ words(FORMATS, ["uuid"]),
  optional: "nullable",
});

/**
 * Anthropic's strict tool use: the keywords its SDK's strict-schema transform keeps
 * (`transformJSONSchema` in `@anthropic-ai/sdk`), optional properties left optional as that
 * transform leaves them, no recursive schemas, and the documented limits of one request: 20
 * strict tools, 24 optional parameters, 16 parameters with union types.
 */
export const ANTHROPIC_STRICT: StrictRule = /* @__PURE__ */ strictRule({
  provider: "Anthropic",
  keywords: /* @__PURE__ */ words(COMMON, MORE),
  formats: /* @__PURE__ */ words(FORMATS, ["uuid", "uri"]),
  maxMinItems: 1,
  optional: "optional",
  refuse: (schema) =>
    isRecursive(schema) ? "Anthropic's strict mode does not accept recursive schemas" : undefined,
  limit: /* @__PURE__ */ perRequest("Anthropic", { tools: 20, optional: 24, unions: 16 }),
});

/** Limits a provider puts on the strict tools of one request, across all of them. */
export interface StrictLimits {
  /** Tools sent with strict mode. */
  readonly tools: number;
  /** Properties not listed in their object's `required`. */
  readonly optional: number;
  /** Schemas with `anyOf` or a list of types. */
  readonly unions: number;
}

/**
 * The choice of strict tools within `limits`: tools are taken in manifest order (sorted by
 * name), and one whose strict form would go over a limit is sent without strict mode — so the
 * same manifest always gets the same choice.
 */
export function perRequest(
  provider: string,
  limits: StrictLimits,
): (forms: StrictForm[]) => StrictForm[] {
  return (forms: StrictForm[]): StrictForm[] => {
    const used = { tools: 0, optional: 0, unions: 0 };
    return forms.map((form): StrictForm => {
      if (!("schema" in form)) return form;
      const cost = { tools: 1, optional: 0, unions: 0 };
      count(form.schema, cost);
      const over = (["tools", "optional", "unions"] as const).find(
        (key) => used[key] + cost[key] > limits[key],
      );
      if (over) {
        const what = LIMITED[over];
        const has = over === "tools" ? "" : ` (this tool has ${cost[over]})`;
        return { reason: `${provider} allows at most ${limits[over]} ${what} per request${has}` };
      }
      for (const key of ["tools", "optional", "unions"] as const) used[key] += cost[key];
      return form;
    });
  };
}

const LIMITED = {
  tools: "strict tools",
  optional: "optional parameters across its strict tools",
  unions: "parameters with union types across its strict tools",
};

const DEEP = "the schema is nested too deep for strict mode";

/** Why a schema has no strict form; thrown inside the conversion, caught at its top. */
class NotStrict {
  constructor(readonly reason: string) {}
}

function strictForm(schema: JsonSchema, accepted: StrictKeywords): StrictForm {
  try {
    const refused = accepted.refuse?.(schema);
    if (refused !== undefined) throw new NotStrict(refused);
    const strict = strictOf(schema, accepted.optional === "nullable", 0);
    if (!isRecord(strict)) throw new NotStrict("the schema is not an object");
    check(strict, accepted, 0);
    return { schema: strict };
  } catch (error) {
    if (error instanceof NotStrict) return { reason: error.reason };
    throw error;
  }
}

// Schemas reaching here passed meta-schema validation, so keyword values have their JSON Schema
// types (`anyOf` is an array, `$defs` an object). Keywords the provider does not accept are
// copied as they are and refused afterwards by `check`.
function strictOf(schema: unknown, nullable: boolean, depth: number): unknown {
  if (!isRecord(schema)) throw new NotStrict("a `true` or `false` schema has no strict form");
  if (depth > 64) throw new NotStrict(DEEP);
  const inner = (node: unknown) => strictOf(node, nullable, depth + 1);
  // Closing each branch of an allOf separately would make branches with different properties
  // unsatisfiable together.
  if ("allOf" in schema) throw new NotStrict("strict mode cannot express `allOf`");
  const { $schema: _dialect, ...out } = schema;
  for (const key of ["$defs", "definitions"] as const) {
    const defs = schema[key];
    if (!isRecord(defs)) continue;
    const converted: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(defs)) converted[name] = inner(def);
    out[key] = converted;
  }
  if (Array.isArray(schema.anyOf)) out.anyOf = schema.anyOf.map(inner);
  if (schema.type === "array" && schema.items === undefined) {
    throw new NotStrict("an array without `items` has no strict form");
  }
  if (schema.items !== undefined) out.items = inner(schema.items);
  if (schema.type === "object" || schema.properties !== undefined) {
    if (schema.additionalProperties !== false || !isRecord(schema.properties)) {
      throw new NotStrict(
        "an object that allows other properties, or declares none, has no strict form",
      );
    }
    const required = Array.isArray(schema.required) ? schema.required : [];
    const properties: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const strict = inner(property);
      properties[name] =
        !nullable || required.includes(name) ? strict : { anyOf: [strict, { type: "null" }] };
    }
    out.properties = properties;
    if (nullable) out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function check(schema: unknown, accepted: StrictKeywords, depth: number): void {
  if (!isRecord(schema)) throw new NotStrict("a `true` or `false` schema has no strict form");
  if (depth > 64) throw new NotStrict(DEEP);
  const inner = (value: unknown) => check(value, accepted, depth + 1);
  for (const [keyword, value] of Object.entries(schema)) {
    if (!accepted.keywords.has(keyword)) {
      throw new NotStrict(`${accepted.provider}'s strict mode does not accept \`${keyword}\``);
    }
    switch (keyword) {
      case "format":
        if (typeof value !== "string" || !accepted.formats.has(value)) {
          const format = JSON.stringify(value);
          throw new NotStrict(
            `${accepted.provider}'s strict mode does not accept format ${format}`,
          );
        }
        break;
      case "minItems":
        if (accepted.maxMinItems !== undefined && Number(value) > accepted.maxMinItems) {
          throw new NotStrict(
            `${accepted.provider}'s strict mode accepts \`minItems\` of at most ${accepted.maxMinItems}`,
          );
        }
        break;
      case "enum":
      case "const":
        if (
          keyword === "enum"
            ? !Array.isArray(value) || !value.every(isPrimitive)
            : !isPrimitive(value)
        ) {
          throw new NotStrict(`strict mode accepts only plain values in \`${keyword}\``);
        }
        break;
      case "items":
        inner(value);
        break;
      case "anyOf":
        if (Array.isArray(value)) value.forEach(inner);
        break;
      case "properties":
      case "$defs":
      case "definitions":
        if (isRecord(value)) Object.values(value).forEach(inner);
        break;
    }
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

/** Adds what `schema` costs against a provider's limits on a request to `cost`. */
function count(schema: unknown, cost: { optional: number; unions: number }): void {
  if (!isRecord(schema)) return;
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.type)) cost.unions++;
  if (isRecord(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const name of Object.keys(schema.properties)) {
      if (!required.includes(name)) cost.optional++;
    }
  }
  for (const child of subschemas(schema)) count(child, cost);
  for (const key of ["$defs", "definitions"]) {
    const defs = schema[key];
    if (isRecord(defs)) for (const def of Object.values(defs)) count(def, cost);
  }
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
  const target = referenced(schema, root);
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
    setOwn(out, key, known ? strip(properties[key], item, root, depth + 1) : item);
  }
  return out;
}

/** The schema a local `$ref` points to, or `schema` itself. */
function referenced(schema: Record<string, unknown>, root: JsonSchema): Record<string, unknown> {
  const ref = schema.$ref;
  const target = typeof ref === "string" ? resolveRef(ref, root) : undefined;
  return isRecord(target) ? target : schema;
}
