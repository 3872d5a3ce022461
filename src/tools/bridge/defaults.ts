/**
 * The pure core with its one default filled in (default-options.ts): the validator, chosen by the
 * runtime through the package import `#default-validator` (ajv on Node, `@cfworker/json-schema`
 * in browsers and workers). These are the `buildManifest` and `resolveCall` the package exports.
 */
import type { CoreOptions } from "../core/manifest.js";
import * as core from "../core/manifest.js";
import { resolveToolCall } from "../core/resolve.js";
import type { Result } from "../core/result.js";
import type { AgentSchema, NeutralManifest, Route, ToolError } from "../core/types.js";
import { withDefaults } from "./default-options.js";

/**
 * The manifest for `schema` as it stands now, sorted by name. Gated commands are omitted unless
 * `canExecute` returns `true` for them (a throw counts as unavailable); without `canExecute`
 * every command is offered. Throws a `TypeError` naming the command when the schema is malformed:
 * that is the application's bug, found here rather than at a model's call.
 *
 * @example
 * ```ts
 * const tools = buildManifest(component.getSchema(), (name) => component.canExecute?.(name) ?? true);
 * ```
 */
export function buildManifest(
  schema: AgentSchema,
  canExecute?: (name: string) => boolean,
  options?: CoreOptions,
): NeutralManifest {
  return core.buildManifest(schema, canExecute, withDefaults(options));
}

/**
 * Checks a call by command name and input, in this order: `UnknownCommand` (not an own command of
 * the schema), `Unavailable` (gated and not available now), `InvalidInput` (the input limits
 * first, so a hostile input costs little, then the schema, every issue listed). Never throws.
 * A no-argument command accepts `undefined`, `null` and `{}` and routes `input: undefined`.
 * Declared defaults are applied to a copy; `input` itself is never mutated.
 *
 * @example
 * ```ts
 * const route = resolveCall(component.getSchema(), "counter.add", { by: 2 });
 * if (!route.ok) console.log(route.error.message); // a message the model can act on
 * ```
 */
export function resolveCall(
  schema: AgentSchema,
  name: string,
  input: unknown,
  canExecute?: (name: string) => boolean,
  options?: CoreOptions,
): Result<Route, ToolError> {
  return resolveToolCall(schema, { name, input }, canExecute, withDefaults(options));
}
