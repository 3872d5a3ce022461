/**
 * The ajv adapter of the `InputValidator` port: JSON Schema 2020-12 (or draft-07), compiled to
 * JavaScript. The default on Node; it generates code, so a page under a Content Security Policy
 * without `unsafe-eval` uses the `cfworker` adapter instead.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe } from "../core/errors.js";
import { escapePointer } from "../core/json.js";
import { err, ok } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";
import type { InputValidator } from "./port.js";

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
