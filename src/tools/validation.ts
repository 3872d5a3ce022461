/**
 * Input validation: the ajv adapter of the `InputValidator` port, and the cache that makes each
 * distinct schema cost one check and one compilation for the life of the process.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe } from "./errors.js";
import { err, ok, type Result } from "./result.js";
import type { InputCheck, InputValidator, JsonSchema, ValidationIssue } from "./types.js";

type Draft = "2020-12" | "draft-07";
type AjvInstance = Ajv | Ajv2020;

/** Options of the ajv adapter. */
export interface AjvValidatorOptions {
  /**
   * The regular-expression engine for `pattern` (default: JavaScript's `RegExp`). A pattern
   * with nested quantifiers such as `^(a+)+$` takes exponential time on a hostile string in a
   * backtracking engine; pass a linear-time one (for example `re2`) when patterns are not yours.
   */
  regExp?: (pattern: string, flags: string) => { test(text: string): boolean };
}

/** The default validator: ajv, JSON Schema 2020-12 (or draft-07 when `$schema` says so). */
export function ajvValidator(adapterOptions: AjvValidatorOptions = {}): InputValidator {
  const { regExp } = adapterOptions;
  const instances = new Map<string, AjvInstance>();
  // Ajv applies `default`s by mutating the data, so schemas with defaults get their own
  // instance and validate a copy; the rest validate the caller's value untouched, uncloned.
  const instance = (draft: Draft, defaults: boolean): AjvInstance => {
    const key = `${draft}:${defaults}`;
    let ajv = instances.get(key);
    if (!ajv) {
      const options = {
        allErrors: true,
        strict: false,
        logger: false as const,
        multipleOfPrecision: 10, // 0.3 is a multiple of 0.1
        useDefaults: defaults,
        ...(regExp
          ? {
              code: {
                regExp: Object.assign((p: string, f: string) => regExp(p, f), { code: "regExp" }),
              },
            }
          : {}),
      };
      ajv = draft === "draft-07" ? new Ajv(options) : new Ajv2020(options);
      addFormats(ajv);
      instances.set(key, ajv);
    }
    return ajv;
  };

  return {
    checkSchema(schema) {
      const draft = draftOf(schema);
      if (draft === undefined) {
        return `unsupported $schema ${JSON.stringify(schema.$schema)}; use draft 2020-12 or draft-07`;
      }
      const ajv = instance(draft, false);
      try {
        if (ajv.validateSchema(schema)) return undefined;
        return ajv.errorsText(ajv.errors, { dataVar: "schema" });
      } catch (error) {
        return describe(error);
      }
    },
    compile(schema) {
      const defaults = hasDefaults(schema);
      const ajv = instance(draftOf(schema) ?? "2020-12", defaults);
      // A changed schema under a reused `$id` would otherwise be refused as a duplicate.
      if (typeof schema.$id === "string") ajv.removeSchema(schema.$id);
      const validate = ajv.compile(schema);
      if (!defaults) {
        return (input) => (validate(input) ? ok(input) : err(issuesOf(validate)));
      }
      return (input) => {
        const copy = cloneJson(input);
        return validate(copy) ? ok(copy) : err(issuesOf(validate));
      };
    },
  };
}

function draftOf(schema: JsonSchema): Draft | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return "2020-12";
  if (typeof uri !== "string") return undefined;
  if (uri.includes("draft/2020-12")) return "2020-12";
  if (uri.includes("draft-07")) return "draft-07";
  return undefined;
}

function hasDefaults(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasDefaults);
  if (typeof schema !== "object" || schema === null) return false;
  return Object.entries(schema).some(([key, value]) => key === "default" || hasDefaults(value));
}

/** Copies the JSON structure of `value`, keeping `__proto__` an own key as JSON.parse does. */
function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key, {
      value: cloneJson(item),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return copy;
}

function issuesOf(validate: ValidateFunction): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of validate.errors ?? []) {
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

// Ajv reports a missing or extra property at its parent; a model fixes it faster when the path
// names the property itself.
function toIssue(error: ErrorObject): ValidationIssue {
  const { keyword, params, instancePath } = error;
  const at = (property: unknown) => `${instancePath}/${escapePointer(String(property))}`;
  switch (keyword) {
    case "required":
      return { path: at(params.missingProperty), message: "is required", keyword };
    case "additionalProperties":
      return { path: at(params.additionalProperty), message: "is not allowed", keyword };
    case "unevaluatedProperties":
      return { path: at(params.unevaluatedProperty), message: "is not allowed", keyword };
    case "enum": {
      const allowed: unknown[] = params.allowedValues;
      return {
        path: instancePath,
        message: `must be one of ${allowed.map(show).join(", ")}`,
        keyword,
      };
    }
    case "const":
      return { path: instancePath, message: `must be ${show(params.allowedValue)}`, keyword };
    default:
      return { path: instancePath, message: String(error.message), keyword };
  }
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** A JSON Pointer segment for `segment` (`~` and `/` escaped). */
export function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

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
  const key = contentKey(schema);
  entry = cache.byContent.get(key);
  if (!entry) {
    entry = { problem: validator.checkSchema(schema) };
    cache.byContent.set(key, entry);
  }
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

/** Serialises JSON-like data with object keys sorted, so equal content gives equal text. */
function contentKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(contentKey).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${contentKey(item)}`).join(",")}}`;
}

/** The process-wide default validator, shared so its cache is shared. */
export const defaultValidator: InputValidator = ajvValidator();
