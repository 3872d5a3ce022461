/**
 * The CSP-safe adapter of the `InputValidator` port: `@cfworker/json-schema`, an interpreting
 * validator. No `new Function`, no `eval`, so it runs under a Content Security Policy without
 * `unsafe-eval` (every Manifest V3 extension), in Cloudflare Workers and in any browser. The
 * default where the bundler resolves the `browser` or `worker` condition; see docs/validation.md.
 */
import { dereference, type OutputUnit, type Schema, validate } from "@cfworker/json-schema";
import { escapePointer } from "../core/json.js";
import { err, ok } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";
import { defaultsProblem, fragment, resolveLocal, withDefaults } from "./declared-defaults.js";
import { IS_NOT_ALLOWED, IS_REQUIRED } from "./issues.js";
import { cloneJson } from "./json-copy.js";
import type { InputValidator, ValidatorOptions } from "./port.js";
import { draftOf, eachSubschema, unsupportedDraft, vocabularyProblem } from "./vocabulary.js";

/** Options of the cfworker adapter. */
export interface CfworkerValidatorOptions extends ValidatorOptions {}

/**
 * The validator `@cfworker/json-schema` makes: JSON Schema 2020-12 (or draft-07 when `$schema`
 * says so), interpreted, with no code generation. The default in browsers and workers; pass it
 * explicitly to use it on Node too, or to give it options.
 *
 * @example
 * ```ts
 * import { cfworkerValidator } from "ignite-element/tools/cfworker";
 *
 * const tools = igniteTools(component, openai, { validator: cfworkerValidator() });
 * ```
 */
export function cfworkerValidator(adapterOptions: CfworkerValidatorOptions = {}): InputValidator {
  const { keywords } = adapterOptions;
  // Issues of `input` against the subschema at `location` (a URI fragment; `#` is the whole).
  const prepare = (schema: JsonSchema) => {
    // The library records resolved references on the schema it is given: give it a copy, so
    // the application's (perhaps frozen) schema is never written to.
    const root: Schema = cloneJson(schema);
    const lookup = dereference(root);
    eachSubschema(root, (node) => {
      const target = String(Reflect.get(node, "__absolute_ref__"));
      if ("$ref" in node && lookup[target] === undefined) {
        throw new Error(`can't resolve $ref ${node.$ref}`);
      }
    });
    // Values JSON cannot carry (undefined, functions, bigint) make the library throw: the core
    // answers such an input "could not be read".
    return (input: unknown, location = "#"): ValidationIssue[] | undefined => {
      const at = resolveLocal(root, location) as Schema;
      // 2020-12 rules for draft-07 too: the library then applies keywords beside `$ref`, as
      // ajv does in every draft; it reads draft-07's array `items` and `additionalItems` in any.
      const result = validate(input, at, "2020-12", lookup, false);
      return result.valid ? undefined : issuesOf(result.errors);
    };
  };

  return {
    checkSchema(schema) {
      const draft = draftOf(schema);
      if (draft === undefined) return unsupportedDraft(schema);
      // The library reads `$dynamicRef` as an annotation: refuse rather than ignore it.
      const options = { keywords, unsupported: ["$dynamicRef", "$dynamicAnchor"] };
      const problem = vocabularyProblem(schema, draft, options);
      if (problem !== undefined) return problem;
      try {
        const check = prepare(schema);
        return defaultsProblem(schema, (pointer, value) => check(value, fragment(pointer)));
      } catch {
        return undefined; // does not compile: said when an input is first validated
      }
    },
    compile(schema) {
      const check = prepare(schema);
      return withDefaults(schema, (input) => {
        const issues = check(input);
        return issues ? err(issues) : ok(input);
      });
    },
  };
}

// Units that only say "a subschema had errors"; the errors themselves follow them.
const WRAPPERS =
  " $ref properties patternProperties additionalProperties unevaluatedProperties items prefixItems additionalItems unevaluatedItems allOf dependentSchemas propertyNames ";

/**
 * The library's output units as issues: wrappers dropped, a missing or extra property at its own
 * path (the library names its parent), an ambiguous `oneOf` without its branches' failures.
 * Other messages are the library's own sentences (docs/validation.md).
 */
function issuesOf(units: OutputUnit[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // Not reported: the branches of an ambiguous `oneOf` (their failures are not why it failed).
  const skipped: string[] = [];
  units.forEach(({ keyword, keywordLocation: location, instanceLocation, error }, index) => {
    const wrapper = units[index - 1]?.keyword ?? "";
    let path = decodeURIComponent(instanceLocation.slice(1));
    // The core ends each issue's sentence itself: the library's own full stop would double it.
    const said = error.replace(/\.$/, "");
    let message = said;
    let named = keyword;
    if (
      skipped.some((prefix) => location.startsWith(prefix)) ||
      WRAPPERS.includes(` ${keyword} `) ||
      (keyword === "dependencies" && !error.includes("does not have"))
    ) {
      return;
    }
    if (keyword === "false") {
      message = IS_NOT_ALLOWED;
      named = /Properties$/.test(wrapper) ? wrapper : "false schema";
    } else if (keyword === "required") {
      path += `/${escapePointer(/property "(.*)"\.$/.exec(error)?.[1] ?? "")}`;
      message = IS_REQUIRED;
    } else if (keyword === "oneOf" && !error.includes("(0 ")) {
      skipped.push(`${location}/`); // "(2 matches)": the library says it matched more than one
    } else if (keyword === "maxProperties") {
      message = said.replace("does not have at least", "has more than"); // the library's slip
    } else if (keyword === "exclusiveMinimum") {
      message = said.replace("than", "than or equal to");
    }
    issues.push({ path, message, keyword: named });
  });
  return issues;
}
