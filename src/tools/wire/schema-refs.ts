/**
 * Local references inside one JSON Schema (`#`, `#/$defs/Name`, any JSON Pointer into the
 * schema), as every schema rewrite of the wire layer follows them. Remote references are not
 * followed: the bridge never fetches.
 */
import { isRecord } from "../core/json.js";
import type { JsonSchema } from "../core/types.js";

/** The node a local reference points to in `root`, or `undefined` (remote, or nothing there). */
export function resolveRef(ref: string, root: JsonSchema): unknown {
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

/**
 * Whether following `schema`'s local references from its root ever comes back to a reference
 * already being followed: a recursive schema (a tree, a linked list). Each reference is followed
 * once, so this is linear in the schema. Nesting deeper than 64 levels counts as recursive.
 */
export function isRecursive(schema: JsonSchema): boolean {
  const state = new Map<string, "open" | "done">();
  const visit = (ref: string): boolean => {
    const seen = state.get(ref);
    if (seen !== undefined) return seen === "open";
    state.set(ref, "open");
    const inner = refsIn(resolveRef(ref, schema));
    if (inner === DEEP || inner.some(visit)) return true;
    state.set(ref, "done");
    return false;
  };
  const top = refsIn(schema);
  return top === DEEP || top.some(visit);
}

const DEEP = Symbol("too deep");

/** The references in `node` and the schemas nested in it, without following any. */
function refsIn(node: unknown, depth = 0): string[] | typeof DEEP {
  if (!isRecord(node)) return [];
  if (depth > 64) return DEEP;
  const refs = typeof node.$ref === "string" ? [node.$ref] : [];
  for (const child of subschemas(node)) {
    const inner = refsIn(child, depth + 1);
    if (inner === DEEP) return DEEP;
    refs.push(...inner);
  }
  return refs;
}

// Keywords whose value is a schema, a list of schemas, or a map of names to schemas (draft
// 2020-12 and draft-07). Definitions are left out: they are reached through references.
const ONE = [
  "additionalProperties",
  "items",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems", "items"];
const MAP = ["properties", "patternProperties", "dependentSchemas"];

/** The schemas nested directly in `node` (not through references). */
export function subschemas(node: Record<string, unknown>): unknown[] {
  const children: unknown[] = [];
  for (const key of ONE) if (isRecord(node[key])) children.push(node[key]);
  for (const key of LIST) {
    const list = node[key];
    if (Array.isArray(list)) children.push(...list);
  }
  for (const key of MAP) {
    const map = node[key];
    if (isRecord(map)) children.push(...Object.values(map));
  }
  return children;
}
