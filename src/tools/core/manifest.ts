/**
 * Pure core, part one: the component's schema as the neutral manifest of what can be called now.
 */

import { schemaProblem } from "../validation/cache.js";
import type { InputValidator } from "../validation/port.js";
import type { InputLimits } from "./input-limits.js";
import { isRecord } from "./json.js";
import { err, ok, type Result } from "./result.js";
import type {
  AgentSchema,
  CommandSchema,
  JsonSchema,
  NeutralManifest,
  NeutralTool,
} from "./types.js";

/** Options shared by the pure core functions. */
export interface CoreOptions extends InputLimits {
  /**
   * Validates inputs and checks schemas. Default: ajv on Node; `@cfworker/json-schema` (no code
   * generation, CSP-safe) where the bundler resolves the `browser` or `worker` condition.
   */
  validator?: InputValidator;
}

/** The core's options once the shell has chosen the validator. */
export type CheckedOptions = InputLimits & { readonly validator: InputValidator };

/** The input schema of a command that takes no argument. */
export const NO_ARGUMENTS: JsonSchema = Object.freeze({
  type: "object",
  properties: Object.freeze({}),
  additionalProperties: false,
});

/**
 * The manifest for `schema` as it stands now, sorted by name. Gated commands are omitted unless
 * `canExecute` returns `true` for them (a throw counts as unavailable); without `canExecute`
 * every command is offered. Throws a `TypeError` naming the command when the schema is malformed:
 * that is the application's bug, found here rather than at a model's call.
 */
export function buildManifest(
  schema: AgentSchema,
  canExecute: ((name: string) => boolean) | undefined,
  options: CheckedOptions,
): NeutralManifest {
  const commands = commandsOf(schema);
  if (!commands) throw new TypeError(NOT_A_SCHEMA);
  const { validator } = options;
  const tools: NeutralTool[] = [];
  for (const name of Object.keys(commands).sort(byCodeUnit)) {
    const command = readCommand(commands[name], validator);
    if (!command.ok) throw new TypeError(`Command ${JSON.stringify(name)} ${command.error}`);
    if (isAvailable(name, command.value, canExecute)) tools.push(toTool(name, command.value));
  }
  return tools;
}

export const NOT_A_SCHEMA =
  "getSchema() must return an object of the form { commands: { [name]: { description?, input?, gated? } } }";

/** The `commands` record of a schema-shaped value, or `undefined`. */
export function commandsOf(schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(schema) || !isRecord(schema.commands)) return undefined;
  return schema.commands;
}

const FLAGS = ["gated", "readOnly", "destructive", "idempotent"] as const;
const TEXTS = ["title", "availableWhen"] as const;

/** A declared command, checked; the error ends the sentence `Command "name" …`. */
export function readCommand(
  raw: unknown,
  validator: InputValidator,
): Result<CommandSchema, string> {
  if (!isRecord(raw)) return err("must be declared as an object { description?, input?, gated? }");
  const { description, input, output } = raw;
  if (description !== undefined && typeof description !== "string") {
    return err("has a description that is not a string");
  }
  const command: CommandSchema = { description };
  for (const key of TEXTS) {
    const value = raw[key];
    if (value !== undefined && typeof value !== "string") {
      return err(`has a \`${key}\` that is not a string`);
    }
    if (value !== undefined) command[key] = value;
  }
  for (const flag of FLAGS) {
    const value = raw[flag];
    if (value !== undefined && typeof value !== "boolean") {
      return err(`has a \`${flag}\` flag that is not a boolean`);
    }
    if (value !== undefined) command[flag] = value;
  }
  for (const [key, schema] of [
    ["input", input],
    ["output", output],
  ] as const) {
    if (schema === undefined) continue;
    if (!isRecord(schema)) return err(`has an ${key} schema that is not a JSON Schema object`);
    const problem = schemaProblem(validator, schema);
    if (problem !== undefined) return err(`has an invalid ${key} schema: ${problem}`);
    command[key] = schema;
  }
  return ok(command);
}

/**
 * A command object as it was read: the object and each field a reading depends on. The reading
 * holds while `sameDeclaration` says so, however the object was changed in place otherwise.
 */
export interface Declaration {
  readonly raw: Record<string, unknown>;
  readonly title: unknown;
  readonly description: unknown;
  readonly input: unknown;
  readonly output: unknown;
  readonly gated: unknown;
  readonly availableWhen: unknown;
  readonly readOnly: unknown;
  readonly destructive: unknown;
  readonly idempotent: unknown;
}

/** The fields of `raw` a reading depends on, as they are now. Throws what a getter throws. */
export function declarationOf(raw: Record<string, unknown>): Declaration {
  const { title, description, input, output, gated, availableWhen } = raw;
  const { readOnly, destructive, idempotent } = raw;
  return {
    raw,
    title,
    description,
    input,
    output,
    gated,
    availableWhen,
    readOnly,
    destructive,
    idempotent,
  };
}

/**
 * Whether `raw` is the declaration's object with every field it was read with (schemas compared
 * by identity, as the validator cache keys them). Throws what a getter throws.
 */
export function sameDeclaration(declaration: Declaration, raw: unknown): boolean {
  if (raw !== declaration.raw) return false;
  const now = declaration.raw;
  return (
    now.input === declaration.input &&
    now.description === declaration.description &&
    now.output === declaration.output &&
    now.gated === declaration.gated &&
    now.title === declaration.title &&
    now.availableWhen === declaration.availableWhen &&
    now.readOnly === declaration.readOnly &&
    now.destructive === declaration.destructive &&
    now.idempotent === declaration.idempotent
  );
}

/** Whether `name` may be called now: ungated, or gated and `canExecute` says exactly `true`. */
export function isAvailable(
  name: string,
  command: CommandSchema,
  canExecute: ((name: string) => boolean) | undefined,
): boolean {
  if (command.gated !== true || canExecute === undefined) return true;
  try {
    return canExecute(name) === true;
  } catch {
    return false; // fail closed
  }
}

/** The manifest entry of a checked command. */
export function toTool(name: string, command: CommandSchema): NeutralTool {
  const { title, description, output, readOnly, destructive, idempotent } = command;
  const gated = command.gated === true;
  const { availableWhen } = command;
  return {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: command.input ?? NO_ARGUMENTS,
    ...(output === undefined ? {} : { outputSchema: output }),
    gated,
    ...(gated && availableWhen !== undefined ? { availableWhen } : {}),
    ...(readOnly === undefined ? {} : { readOnly }),
    ...(destructive === undefined ? {} : { destructive }),
    ...(idempotent === undefined ? {} : { idempotent }),
  };
}

// Not localeCompare: the order must not depend on the machine's locale. Keys are unique.
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : 1;
}
