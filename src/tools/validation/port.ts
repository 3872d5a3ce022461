/**
 * The validation port: how the core asks whether a schema is usable and whether an input fits it.
 * Types only; the adapters (ajv, @cfworker/json-schema) implement it.
 */
import type { Result } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";

/** A compiled input check: the input (with declared defaults applied) or its issues. */
export type InputCheck = (input: unknown) => Result<unknown, ValidationIssue[]>;

/**
 * The validation port. Ajv is the default adapter; supply another where code generation is
 * forbidden (a Content Security Policy without `unsafe-eval`). Results are cached by schema
 * content, so each method runs at most once per distinct schema.
 */
export interface InputValidator {
  /** Why `schema` is not a usable JSON Schema, or `undefined` when it is. Must not throw. */
  checkSchema(schema: JsonSchema): string | undefined;
  /** Compiles a check for `schema`. May throw when the schema cannot be compiled. */
  compile(schema: JsonSchema): InputCheck;
}
