/**
 * The validation port: how the core asks whether a schema is usable and whether an input fits it.
 * Types only; the adapters (ajv, @cfworker/json-schema) implement it.
 */
import type { Result } from "../core/result.js";
import type { JsonSchema, ValidationIssue } from "../core/types.js";

/** A compiled input check: the input (with declared defaults applied) or its issues. */
export type InputCheck = (input: unknown) => Result<unknown, ValidationIssue[]>;

/**
 * The validation port. Ajv is the default adapter on Node and `@cfworker/json-schema` (no code
 * generation, CSP-safe) in browsers and workers; supply your own to validate another way.
 * Results are cached by schema content, so each method runs at most once per distinct schema.
 */
export interface InputValidator {
  /**
   * Why `schema` is not a usable JSON Schema, or `undefined` when it is. Must not throw. The
   * adapters of this package also refuse unknown keywords and defaults that break their schema.
   */
  checkSchema(schema: JsonSchema): string | undefined;
  /** Compiles a check for `schema`. May throw when the schema cannot be compiled. */
  compile(schema: JsonSchema): InputCheck;
}

/** Options every validator adapter of this package takes. */
export interface ValidatorOptions {
  /**
   * Keywords of your own vocabulary that schemas may use besides JSON Schema's. Both adapters
   * accept them as annotations and never validate them; any other unknown keyword is a
   * `TypeError` naming the command when the schema is read. Keys starting with `x-` are always
   * allowed, so a keyword of your own can also be spelled `x-units` without listing it.
   *
   * @default []
   * @example
   * ```ts
   * cfworkerValidator({ keywords: ["units", "widget"] })
   * ```
   */
  keywords?: readonly string[];
}
