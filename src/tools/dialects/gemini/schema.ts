/**
 * Gemini's OpenAPI-subset `Schema` as it is sent, for models and endpoints that lack
 * `parametersJsonSchema`: its types, what every tree sent obeys (a type on every node, since
 * Gemini answers 400 "type must be specified" otherwise; an array's items always told; any value
 * spelled out as types), the list of keywords the downgrade could not carry, and reading a call's
 * arguments back where an enum of numbers was told as texts. The downgrade from a JSON Schema,
 * keyword by keyword, is gemini-downgrade.ts.
 */

import { escapePointer, isRecord } from "../../core/json.js";

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
  /** Gemini enums are strings only; an enum of numbers is sent as their decimal texts. */
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

/** One keyword the downgrade could not carry as it was. */
export interface DroppedKeyword {
  /** The keyword, or what happened to it (`"$ref (recursion cut)"`). */
  readonly keyword: string;
  /** A JSON Pointer to the node it stood on, in the schema sent. */
  readonly path: string;
}

/** Where a node stands, built into a JSON Pointer only when something is reported there. */
interface Step {
  readonly parent: Step | undefined;
  readonly key: string;
}

/** Where the downgrade stands, and the list it reports what it dropped to. */
export interface Reporting {
  readonly path: Step | undefined;
  readonly dropped: { list: DroppedKeyword[]; more: number };
}

/** How many dropped keywords are listed; the others are counted. */
const MAX_REPORTED = 20;

/** Lists `keyword` as dropped where `context` stands; past `MAX_REPORTED`, only counts it. */
export function drop(context: Reporting, keyword: string): void {
  const { dropped } = context;
  if (dropped.list.length >= MAX_REPORTED) {
    dropped.more++;
    return;
  }
  let path = "";
  for (let step = context.path; step; step = step.parent) path = `/${step.key}${path}`;
  dropped.list.push({ keyword, path });
}

/** A node while it is built: the numbers its string enum stands for travel with it. */
export type Node = GeminiSchema & { numbers?: Record<string, number> };

/** Keywords that say nothing about which values are valid. */
export const ANNOTATIONS = new Set(["title", "description", "default", "example"]);

/** For each node sent whose enum stands for numbers: its texts and the numbers they stand for. */
const numbersOf = new WeakMap<GeminiSchema, ReadonlyMap<string, number>>();

/**
 * Any value, told with types (Gemini requires one on every node): a string, number, boolean,
 * object, or an array of those.
 */
function anyValue(): Node {
  const scalar = (): GeminiSchema[] => [
    { type: "STRING" },
    { type: "NUMBER" },
    { type: "BOOLEAN" },
    { type: "OBJECT" },
  ];
  return { anyOf: [...scalar(), { type: "ARRAY", items: { anyOf: scalar() } }] };
}

/**
 * The tree as it is sent: a type on every node (the one its keywords imply, else any value), an
 * array's items always told, no empty `properties` — and without the numbers each node carried
 * while it was built: they move to `numbersOf`, keyed by the node that is sent.
 */
export function seal(node: Node, context: Reporting, flag: { numbers: boolean }): GeminiSchema {
  const { numbers, ...typed } = withType(node, context);
  const { items, properties, anyOf, ...rest } = typed;
  const out: GeminiSchema = rest;
  const at = (key: string): Reporting => ({ ...context, path: { parent: context.path, key } });
  if (items) out.items = seal(items, at("items"), flag);
  if (properties) {
    // fromEntries defines each key as an own property: `__proto__` stays a property.
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        seal(property, at(`properties/${escapePointer(name)}`), flag),
      ]),
    );
  }
  if (anyOf) out.anyOf = anyOf.map((branch, index) => seal(branch, at(`anyOf/${index}`), flag));
  if (numbers && out.enum) {
    numbersOf.set(out, new Map(Object.entries(numbers)));
    flag.numbers = true;
  }
  return out;
}

function withType(node: Node, context: Reporting): Node {
  const { properties, ...rest } = node;
  const out: Node =
    properties && Object.keys(properties).length > 0 ? { ...rest, properties } : rest;
  if (out.type === undefined && out.anyOf === undefined) {
    if (out.properties) out.type = "OBJECT";
    else if (out.items) out.type = "ARRAY";
    else {
      // Any value: keywords that constrain only one type have no node left to stand on.
      const kept: Node = {};
      for (const [key, value] of Object.entries(out)) {
        if (key === "nullable" || ANNOTATIONS.has(key)) Object.assign(kept, { [key]: value });
        else drop(context, key);
      }
      return { ...kept, ...anyValue() };
    }
  }
  return out.type === "ARRAY" && out.items === undefined ? { ...out, items: {} } : out;
}

/**
 * `value` (a call's arguments) with each text Gemini was offered in place of a number put back
 * as that number, following `schema` (a schema `downgrade` made). Everything else is kept.
 */
export function restoreNumbers(schema: GeminiSchema, value: unknown): unknown {
  const numbers = numbersOf.get(schema);
  if (numbers && typeof value === "string") return numbers.get(value) ?? value;
  if (Array.isArray(value)) {
    const { items } = schema;
    return items ? value.map((item) => restoreNumbers(items, item)) : value;
  }
  for (const branch of schema.anyOf ?? []) {
    const restored = restoreNumbers(branch, value);
    if (restored !== value) return restored;
  }
  if (!isRecord(value) || !schema.properties) return value;
  const { properties } = schema;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      return [key, property ? restoreNumbers(property, item) : item];
    }),
  );
}
