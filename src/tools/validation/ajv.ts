/**
 * The ajv adapter of the `InputValidator` port: JSON Schema 2020-12 (or draft-07), compiled to
 * JavaScript. The default on Node; it generates code, so a page under a Content Security Policy
 * without `unsafe-eval` uses the `cfworker` adapter instead (see docs/validation.md).
 *
 * Keep this file's imports to modules the cfworker adapter imports too (or to this adapter's own):
 * the build groups modules by the entrypoints that reach them, and a module only the core and
 * this file share would sit in this file's chunk, whose `import "ajv"` then reaches every browser
 * bundle of the core. `npm run check:size` fails when it does.
 */
import Ajv, { type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { escapePointer, isRecord, setOwn } from "../core/json.js";
import { err, ok } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";
import {
  declaredDefaults,
  defaultsProblem,
  fragment,
  resolveLocal,
  withDefaults,
} from "./declared-defaults.js";
import {
  distinct,
  IS_NOT_ALLOWED,
  IS_REQUIRED,
  mustBeOneOf,
  oneOfMessage,
  show,
} from "./issues.js";
import { cloneJson } from "./json-copy.js";
import { isMultipleOf } from "./multiple-of.js";
import type { InputValidator, ValidatorOptions } from "./port.js";
import {
  type Draft,
  draftOf,
  eachSubschema,
  malformedValue,
  unsupportedDraft,
  vocabularyProblem,
} from "./vocabulary.js";

type AjvInstance = Ajv | Ajv2020;

/** Options of the ajv adapter. */
export interface AjvValidatorOptions extends ValidatorOptions {
  /**
   * The regular-expression engine for `pattern` (default: JavaScript's `RegExp`). A pattern
   * with nested quantifiers such as `^(a+)+$` takes exponential time on a hostile string in a
   * backtracking engine; pass a linear-time one (for example `re2`) when patterns are not yours.
   *
   * @example
   * ```ts
   * ajvValidator({ regExp: (pattern, flags) => new RE2(pattern, flags) })
   * ```
   */
  regExp?: (pattern: string, flags: string) => { test(text: string): boolean };
}

/**
 * The validator ajv makes: JSON Schema 2020-12 (or draft-07 when `$schema` says so), formats
 * from `ajv-formats`, only the input's own properties counted, `multipleOf` exact in decimal.
 * The default on Node; pass it explicitly to give it options.
 *
 * @example
 * ```ts
 * const tools = igniteTools(component, openai, { validator: ajvValidator({ keywords: ["units"] }) });
 * ```
 */
export function ajvValidator(adapterOptions: AjvValidatorOptions = {}): InputValidator {
  const { regExp, keywords } = adapterOptions;
  const instances = new Map<string, AjvInstance>();
  // `purpose` keeps the schemas registered to check defaults apart from the compiled ones;
  // `own` is for schemas that name a property an object inherits (see `namesInherited`).
  const instance = (draft: Draft, purpose = "", own = true): AjvInstance => {
    let ajv = instances.get(draft + purpose + own);
    if (!ajv) {
      const options = {
        allErrors: true,
        strict: false,
        logger: false as const,
        // `required: ["toString"]` must not be met by Object.prototype, nor an optional
        // `constructor` be checked against the inherited function.
        ownProperties: own,
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
      ajv.removeKeyword("multipleOf");
      ajv.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number", validate });
      instances.set(draft + purpose + own, ajv);
    }
    return ajv;
  };

  // Each default against the subschema it sits in, references resolved within the whole schema.
  const defaultsOf = (schema: JsonSchema, draft: Draft) => {
    if (declaredDefaults(schema).length === 0) return undefined; // and no schema registered
    const ajv = instance(draft, "defaults");
    const key = "ignite:defaults";
    try {
      ajv.addSchema(protoAsPattern(schema), key);
      return defaultsProblem(schema, (pointer, value) => {
        const check = ajv.getSchema(key + fragment(pointer));
        return !check || check(value) ? undefined : issuesOf(check);
      });
    } catch {
      return undefined; // an embedded `$id` seen before: the defaults go unchecked, not refused
    } finally {
      ajv.removeSchema(key);
      if (typeof schema.$id === "string") ajv.removeSchema(schema.$id);
    }
  };

  return {
    checkSchema(schema) {
      const draft = draftOf(schema);
      if (draft === undefined) return unsupportedDraft(schema);
      try {
        // The keywords first, as the cfworker adapter reads them: the same mistake, the same words.
        const problem = vocabularyProblem(schema, draft, { keywords });
        if (problem !== undefined) return problem;
        const ajv = instance(draft);
        if (!ajv.validateSchema(schema)) return metaSchemaProblem(schema, ajv.errors ?? []);
        return defaultsOf(schema, draft);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    compile(schema) {
      const ajv = instance(draftOf(schema) ?? "2020-12", "", namesInherited(schema));
      // A changed schema under a reused `$id` would otherwise be refused as a duplicate.
      if (typeof schema.$id === "string") ajv.removeSchema(schema.$id);
      const check = ajv.compile(protoAsPattern(schema));
      return withDefaults(schema, (input) => (check(input) ? ok(input) : err(issuesOf(check))));
    },
  };
}

/**
 * The first value of `schema` that ajv's meta-schema check refused, said as `malformedValue` says
 * it: where, what, and every rule it broke there — alternatives when the meta-schema offers a
 * choice (an `anyOf` or `oneOf`, whose own "must match a schema" adds nothing), so joined by "or".
 */
function metaSchemaProblem(schema: JsonSchema, errors: readonly ErrorObject[]): string {
  const pointer = errors[0]?.instancePath ?? "";
  const here = errors.filter((error) => error.instancePath === pointer);
  const choice = here.some(({ keyword }) => CHOICES.includes(keyword));
  const rules = here
    .filter(
      ({ keyword }) =>
        here.length === 1 || !(CHOICES.includes(keyword) || keyword === "propertyNames"),
    )
    .map(({ keyword, params, propertyName, message }) => {
      const rule = keyword === "enum" ? mustBeOneOf(params.allowedValues) : String(message);
      return propertyName === undefined ? rule : `its key ${show(propertyName)} ${rule}`;
    });
  const must = [...new Set(rules)].join(choice ? ", or " : ", and ");
  // A JSON Pointer as a URI fragment: a `%` in a name stays itself.
  return malformedValue(pointer, resolveLocal(schema, `#${encodeURI(pointer)}`), must);
}
const CHOICES = ["anyOf", "oneOf"];

// `multipleOf`, exact in decimal: ajv's own divides in binary floating point.
const validate: SchemaValidateFunction = (divisor: number, value: number): boolean => {
  if (isMultipleOf(value, divisor)) return true;
  const message = `must be multiple of ${divisor}`;
  validate.errors = [{ keyword: "multipleOf", message, params: { multipleOf: divisor } }];
  return false;
};

/**
 * Whether `schema` reads an input property named like a member every object inherits
 * (`constructor`, `toString`, `__proto__`, …). Only such a schema needs ajv's `ownProperties`,
 * which costs a `hasOwnProperty` call per property check: for any other name, an input from
 * `JSON.parse` has the property exactly when `data[name] !== undefined`, ajv's own test.
 */
function namesInherited(schema: JsonSchema): boolean {
  let found = false;
  eachSubschema(schema, (node) => {
    const { properties, required, dependentRequired, dependencies, dependentSchemas } = node;
    const names = [properties, dependentRequired, dependencies, dependentSchemas].flatMap((map) =>
      isRecord(map) ? [...Object.keys(map), ...Object.values(map).flat()] : [],
    );
    if (Array.isArray(required)) names.push(...required);
    if (names.some((name) => typeof name === "string" && name in Object.prototype)) found = true;
  });
  return found;
}

/**
 * Ajv skips a property named `__proto__` (a guard against prototype pollution in its generated
 * code), so a schema that declares one has it matched by name instead: `patternProperties`
 * validates it as an own key of the input, the way a model's JSON carries it.
 */
function protoAsPattern(schema: JsonSchema): JsonSchema {
  let declares = false;
  eachSubschema(schema, (node) => {
    if (isRecord(node.properties) && Object.hasOwn(node.properties, "__proto__")) declares = true;
  });
  if (!declares) return schema;
  const copy = cloneJson(schema);
  eachSubschema(copy, (node) => {
    const { properties } = node;
    if (!isRecord(properties) || !Object.hasOwn(properties, "__proto__")) return;
    const declared: unknown = Reflect.get(properties, "__proto__");
    Reflect.deleteProperty(properties, "__proto__");
    const patterns = isRecord(node.patternProperties) ? node.patternProperties : {};
    const exact = "^__proto__$";
    setOwn(patterns, exact, exact in patterns ? { allOf: [patterns[exact], declared] } : declared);
    node.patternProperties = patterns;
  });
  return copy;
}

function issuesOf(validate: ValidateFunction): ValidationIssue[] {
  const errors = validate.errors ?? [];
  // Not reported: why each item missed a failed `contains` (noise beside the count it needs),
  // and the branches of an ambiguous `oneOf` (their failures are not why it failed).
  const contained = errors
    .filter(
      ({ keyword, params }) =>
        keyword === "contains" || (keyword === "oneOf" && params.passingSchemas),
    )
    .map((error) => `${error.schemaPath}/`);
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (contained.some((path) => error.schemaPath.startsWith(path))) continue;
    // A bad property name is reported at the property, its own error says why; the summary
    // ("property name must be valid") adds nothing.
    if (error.keyword === "propertyNames") continue;
    const issue = toIssue(error);
    if (error.propertyName === undefined) issues.push(issue);
    else {
      const path = `${error.instancePath}/${escapePointer(error.propertyName)}`;
      issues.push({ ...issue, path, message: `name ${issue.message}` });
    }
  }
  return distinct(issues);
}

// Ajv reports a missing or extra property at its parent; a model fixes it faster when the path
// names the property itself.
function toIssue(error: ErrorObject): ValidationIssue {
  const { keyword, params, instancePath } = error;
  const at = (property: unknown) => `${instancePath}/${escapePointer(String(property))}`;
  const issue = (message: string, path = instancePath) => ({ path, message, keyword });
  switch (keyword) {
    case "required":
      return issue(IS_REQUIRED, at(params.missingProperty));
    case "additionalProperties":
      return issue(IS_NOT_ALLOWED, at(params.additionalProperty));
    case "unevaluatedProperties":
      return issue(IS_NOT_ALLOWED, at(params.unevaluatedProperty));
    case "false schema":
      return issue(IS_NOT_ALLOWED);
    case "enum":
      return issue(mustBeOneOf(params.allowedValues));
    case "const":
      return issue(`must be ${show(params.allowedValue)}`);
    case "oneOf":
      return issue(oneOfMessage(params.passingSchemas !== null));
    case "uniqueItems":
      return issue("must NOT have duplicate items");
    default:
      return issue(String(error.message));
  }
}
