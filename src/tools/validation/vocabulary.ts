/**
 * What a schema may say: the JSON Schema keywords of each supported draft, the value each one
 * takes, and where subschemas sit. Read once per distinct schema, it refuses a keyword no
 * validator would read (`minimun`, `requierd`), which would otherwise be ignored without a word
 * and accept what the application meant to refuse.
 */
import { escapePointer, isRecord } from "../core/json.js";
import type { JsonSchema } from "../core/types.js";
import { show } from "./issues.js";

/** The JSON Schema drafts the adapters accept. */
export type Draft = "2020-12" | "draft-07";

/** The draft `schema` declares (2020-12 when it declares none), or `undefined` when unsupported. */
export function draftOf(schema: JsonSchema): Draft | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return "2020-12";
  if (typeof uri !== "string") return undefined;
  if (uri.includes("draft/2020-12")) return "2020-12";
  if (uri.includes("draft-07")) return "draft-07";
  return undefined;
}

/** Why a `$schema` is refused. */
export const unsupportedDraft = (schema: JsonSchema) =>
  `unsupported $schema ${JSON.stringify(schema.$schema)}; use draft 2020-12 or draft-07`;

// Every keyword, annotations included, grouped by the value it takes: a shape letter (tested by
// SHAPES below; `*` any value) and, for a keyword of one draft only, that draft ("2" for
// 2020-12, "7" for draft-07). `$defs`, `definitions` and `dependencies` are read by both
// validators in both drafts, and emitted by common schema generators whatever their `$schema`.
const TABLE =
  "n:maxLength minLength maxItems minItems maxProperties minProperties;n2:maxContains minContains;" +
  "#:maximum minimum exclusiveMaximum exclusiveMinimum;+:multipleOf;s:$ref format $schema $id " +
  "$comment title description contentEncoding contentMediaType;s2:$dynamicRef;a2:$anchor " +
  "$dynamicAnchor;r:pattern;b:uniqueItems deprecated readOnly writeOnly;l:enum examples;" +
  "q:required;t:type;*:const default;1:not if then else contains additionalProperties " +
  "propertyNames contentSchema;12:unevaluatedProperties unevaluatedItems;17:additionalItems;" +
  "i:items;A:allOf anyOf oneOf;A2:prefixItems;M:properties $defs definitions;P:patternProperties;" +
  "M2:dependentSchemas;D2:dependentRequired;o2:$vocabulary;o:dependencies";
const KEYWORDS = new Map<string, string>(
  TABLE.split(";").flatMap((group) => {
    const [code = "", names = ""] = group.split(":");
    return names.split(" ").map((name) => [name, code] as const);
  }),
);

const TYPES = "array boolean integer null number object string".split(" ");
const isSchema = (value: unknown) => typeof value === "boolean" || isRecord(value);
const isList = (value: unknown, item: (value: unknown) => boolean, min = 0) =>
  Array.isArray(value) && value.length >= min && value.every(item);
const isString = (value: unknown) => typeof value === "string";
const isName = (value: unknown) => TYPES.includes(value as string);
const isSchemas = (value: unknown) => isRecord(value) && Object.values(value).every(isSchema);
// An array whose items pass `item`, none twice: the lists of `type`, `required` and
// `dependentRequired` are sets in every meta-schema.
const isSet = (value: unknown, item: (value: unknown) => boolean, min = 0) =>
  isList(value, item, min) && new Set(value as unknown[]).size === (value as unknown[]).length;
const isRegex = (value: unknown) => {
  try {
    return isString(value) && Boolean(new RegExp(value as string, "u"));
  } catch {
    return false;
  }
};

/** The test of each shape letter of TABLE: the meta-schema's rules, less its finer points. */
const SHAPES: Record<string, (value: unknown, draft: Draft) => boolean> = {
  n: (value) => Number.isInteger(value) && (value as number) >= 0,
  "#": Number.isFinite,
  "+": (value) => Number.isFinite(value) && (value as number) > 0,
  s: isString,
  r: isRegex,
  b: (value) => typeof value === "boolean",
  l: Array.isArray,
  q: (value) => isSet(value, isString),
  t: (value) => isName(value) || isSet(value, isName, 1),
  // The 2020-12 meta-schema's anchor name: a letter or `_`, then letters, digits, `-`, `_`, `.`.
  a: (value) => isString(value) && /^[A-Za-z_][-A-Za-z0-9._]*$/.test(value as string),
  "1": isSchema,
  i: (value, draft) => isSchema(value) || (draft === "draft-07" && isList(value, isSchema)),
  A: (value) => isList(value, isSchema, 1),
  M: isSchemas,
  P: (value) => isSchemas(value) && Object.keys(value as object).every(isRegex),
  D: (value) => isRecord(value) && Object.values(value).every((names) => isSet(names, isString)),
  o: isRecord,
};

// What a value of each shape letter must be, the end of the sentence that refuses one.
const SCHEMA = "a schema (an object, or true or false)";
const MUST: Record<string, string> = {
  n: "a non-negative integer",
  "#": "a number",
  "+": "a number above 0",
  s: "a string",
  r: "a regular expression",
  b: "true or false",
  l: "an array",
  q: "an array of strings, each once",
  t: `one of ${TYPES.map((name) => `"${name}"`).join(", ")}, or a non-empty array of them, each once`,
  a: "a name: a letter or _, then letters, digits, -, _ or .",
  "1": SCHEMA,
  i: `${SCHEMA}, or in draft-07 an array of schemas`,
  A: "a non-empty array of schemas",
  M: "an object of schemas",
  P: "an object of schemas keyed by regular expressions",
  D: "an object of arrays of property names, each name once",
  o: "an object",
};

/**
 * A value of a schema its draft refuses, as a sentence: where it is (a JSON Pointer into the
 * schema), the value itself, and what it must be (`must …`). Both adapters say it so.
 */
export function malformedValue(pointer: string, value: unknown, must: string): string {
  const shown = show(value);
  return `${pointer || "the schema"} is ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}: ${must}`;
}

/**
 * Calls `visit` on `schema` and every subschema in it — the values of the keywords that hold
 * schemas, never `const`, `enum`, `default` or `examples` data — with the path to it (read it
 * at once: the array changes as the walk goes on; `pointerOf` makes it a JSON Pointer). A
 * subschema that contains itself (a cyclic object, which JSON cannot write) is visited once.
 */
export function eachSubschema(
  schema: unknown,
  visit: (node: JsonSchema, path: readonly string[]) => void,
  path: string[] = [],
  ancestors: object[] = [],
): void {
  if (!isRecord(schema) || ancestors.includes(schema)) return;
  visit(schema, path);
  ancestors.push(schema);
  for (const key of Object.keys(schema)) {
    const shape = KEYWORDS.get(key)?.[0];
    const value = schema[key];
    if (shape === undefined || (!isRecord(value) && !Array.isArray(value))) continue;
    const many = shape === "1" || shape === "i" || shape === "A";
    const map = shape === "M" || shape === "P" || key === "dependencies";
    if (!many && !map) continue;
    path.push(key);
    if (many && !Array.isArray(value)) eachSubschema(value, visit, path, ancestors);
    else {
      // Each key of a map is a name the application chose (`""` and `type` included), never a
      // keyword: only the value under it is a schema.
      for (const name of Object.keys(value)) {
        path.push(name);
        eachSubschema(Reflect.get(value, name), visit, path, ancestors);
        path.pop();
      }
    }
    path.pop();
  }
  ancestors.pop();
}

/** A path of `eachSubschema` as a JSON Pointer (`""` for the root). */
export const pointerOf = (path: readonly string[]) =>
  path.map((segment) => `/${escapePointer(segment)}`).join("");

/** What an adapter understands beyond, or short of, the draft's keywords. */
export interface VocabularyOptions {
  /** Keywords of the application's own vocabulary, accepted as annotations. */
  keywords?: readonly string[] | undefined;
  /** Keywords of the draft this validator does not implement, refused with a reason. */
  unsupported?: readonly string[];
}

/**
 * The first keyword of `schema` that no validator would read, or whose value is malformed (the
 * meta-schema's rules, less its finer points, which ajv's meta-schema check adds), as a sentence,
 * or `undefined`. Read first by both adapters, so a mistake is said the same way by either. Keys
 * starting with `x-` are the application's; the draft's keywords (annotations included) and the
 * `keywords` the application declared are allowed.
 */
export function vocabularyProblem(
  schema: JsonSchema,
  draft: Draft,
  options: VocabularyOptions = {},
): string | undefined {
  const { keywords = [], unsupported = [] } = options;
  const other = draft === "draft-07" ? "2" : "7";
  let problem: string | undefined;
  eachSubschema(schema, (node, path) => {
    for (const key of Object.keys(node)) {
      if (problem !== undefined || key.startsWith("x-") || keywords.includes(key)) continue;
      const code = KEYWORDS.get(key);
      const letter = code?.[0] ?? "*";
      const test = SHAPES[letter];
      if (code === undefined || code[1] === other || unsupported.includes(key)) {
        problem = `unknown keyword ${where(key, path)} (yours: prefix it "x-" or list it in the validator's \`keywords\`)`;
      } else if (test && !test(node[key], draft)) {
        problem = malformedValue(pointerOf([...path, key]), node[key], `must be ${MUST[letter]}`);
      }
    }
  });
  return problem;
}

/** `"key" at /pointer`, for a sentence about a keyword. */
function where(key: string, path: readonly string[]): string {
  return `${JSON.stringify(key)} ${path.length ? `at ${pointerOf(path)}` : "at the root"}`;
}
