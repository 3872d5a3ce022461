/**
 * Declared `default`s, the same way for every adapter: the model's input is validated as sent,
 * then the defaults are filled into a copy, which is what `execute` receives. A default is never
 * validated in place of the model's input; one that breaks its own schema is the application's
 * bug, found when the schema is checked.
 */
import { isRecord, setOwn } from "../core/json.js";
import { ok } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";
import { show } from "./issues.js";
import { cloneJson } from "./json-copy.js";
import type { InputCheck } from "./port.js";
import { eachSubschema, pointerOf } from "./vocabulary.js";

/** Every subschema of `schema` that declares a `default`, with its JSON Pointer. */
export function declaredDefaults(schema: JsonSchema): { node: JsonSchema; pointer: string }[] {
  const found: { node: JsonSchema; pointer: string }[] = [];
  eachSubschema(schema, (node, path) => {
    if (Object.hasOwn(node, "default")) found.push({ node, pointer: pointerOf(path) });
  });
  return found;
}

/**
 * The first declared default that its own subschema refuses, as a sentence, or `undefined`.
 * `check` is the adapter's: the issues of `value` against the subschema at `pointer` (a JSON
 * Pointer into `schema`), with every reference resolved as in `schema`; when it throws (a schema
 * that does not compile), the default is left to the validation of inputs.
 */
export function defaultsProblem(
  schema: JsonSchema,
  check: (pointer: string, value: unknown) => ValidationIssue[] | undefined,
): string | undefined {
  for (const { node, pointer } of declaredDefaults(schema)) {
    let issues: ValidationIssue[] | undefined;
    try {
      issues = check(pointer, node.default);
    } catch {
      continue;
    }
    if (issues?.length) {
      const listed = issues.map((issue) => `${issue.path} ${issue.message}`.trim()).join("; ");
      return `the default ${show(node.default).slice(0, 80)} at ${pointer || "the root"} breaks its own schema: ${listed}`;
    }
  }
  return undefined;
}

/** `pointer` as a URI fragment (`#/properties/a%20b`), the way validators address a subschema. */
export const fragment = (pointer: string) =>
  `#${pointer.split("/").map(encodeURIComponent).join("/")}`;

/**
 * `check` with the defaults of `schema` filled into a copy of each valid input. A schema without
 * defaults gets `check` itself: the caller's input is routed as it is, uncopied, at no cost.
 */
export function withDefaults(schema: JsonSchema, check: InputCheck): InputCheck {
  if (declaredDefaults(schema).length === 0) return check;
  return (input) => {
    const result = check(input);
    if (!result.ok) return result;
    const copy = cloneJson(input);
    fill(schema, copy, schema);
    return ok(copy);
  };
}

/**
 * Fills, into `value` (a copy), the default of each missing property of `properties` and each
 * missing item of `prefixItems` (draft-07: array `items`), through `allOf` and local `$ref`s and
 * down into the properties and items present. Defaults under `anyOf`, `oneOf`, `not`, `if`,
 * `then`, `else`, `patternProperties` and `additionalProperties` are annotations: which of them
 * applies is a verdict of the validator, not ours to guess.
 */
function fill(schema: unknown, value: unknown, root: JsonSchema, visiting?: Set<object>): void {
  if (!isRecord(schema) || visiting?.has(schema) || typeof value !== "object" || value === null) {
    return;
  }
  const { $ref, allOf, prefixItems, items, properties } = schema;
  if ($ref !== undefined || Array.isArray(allOf)) {
    // The same value again, through references: remember the way, so a cycle ends.
    const seen = visiting ?? new Set<object>();
    seen.add(schema);
    for (const part of [resolveLocal(root, $ref), ...(Array.isArray(allOf) ? allOf : [])]) {
      fill(part, value, root, seen);
    }
  }
  const tuple: unknown[] = Array.isArray(prefixItems)
    ? prefixItems
    : Array.isArray(items)
      ? items
      : [];
  const declared = Array.isArray(value) ? { ...tuple } : isRecord(properties) ? properties : {};
  for (const key of Object.keys(declared)) {
    const sub = declared[key];
    // Only an own property counts: an inherited `constructor` leaves `constructor` missing.
    const missing = Reflect.get(value, key) === undefined || !Object.hasOwn(value, key);
    if (isRecord(sub) && sub.default !== undefined && missing) {
      setOwn(value as Record<string, unknown>, key, cloneJson(sub.default));
    }
  }
  for (const key of Object.keys(value)) {
    const rest = Array.isArray(value) && !Array.isArray(items) && Number(key) >= tuple.length;
    const sub = rest ? items : Object.hasOwn(declared, key) ? declared[key] : undefined;
    fill(sub, Reflect.get(value, key), root);
  }
}

/** The subschema a local `$ref` (`#…`, a JSON Pointer into the root) names, if it is one. */
export function resolveLocal(root: JsonSchema, ref: unknown): unknown {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let node: unknown = root;
  try {
    for (const segment of decodeURIComponent(ref.slice(1)).split("/").slice(1)) {
      const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
      node = isRecord(node) || Array.isArray(node) ? Reflect.get(node, key) : undefined;
    }
  } catch {
    return undefined;
  }
  return node;
}
