/**
 * Pure core, part two: a model's call checked against the schema, as a route to execute or the
 * error that explains why not. Never throws, whatever the model or the caller sent.
 */

import { checkInput } from "../validation/cache.js";
import type { InputValidator } from "../validation/port.js";
import { applicationBug, describe, invalidInput, unavailable, unknownCommand } from "./errors.js";
import { limitIssue } from "./input-limits.js";
import { isRecord } from "./json.js";
import {
  type CheckedOptions,
  commandsOf,
  type Declaration,
  declarationOf,
  isAvailable,
  NO_ARGUMENTS,
  readCommand,
  sameDeclaration,
} from "./manifest.js";
import { err, ok, type Result } from "./result.js";
import { jsonSnapshot } from "./snapshot.js";
import type { AgentSchema, CommandSchema, NeutralToolCall, Route, ToolError } from "./types.js";

/** The fields of a call the core reads. */
export type CallToResolve = Pick<NeutralToolCall, "name" | "input" | "inputError" | "toolName">;

/**
 * `call`'s fields, each read exactly once, as a plain call: whatever getters or proxy traps the
 * object has run here and nowhere else. A call that cannot be read is answered here.
 */
export function readCall(call: unknown): Result<NeutralToolCall, ToolError> {
  if (typeof call !== "object" || call === null) return err(unknownCommand("(no call)"));
  try {
    const { id, name, input, toolName, inputError } = call as Record<string, unknown>;
    const plain: NeutralToolCall = { name: name as string, input };
    if (typeof id === "string") plain.id = id;
    if (typeof toolName === "string") plain.toolName = toolName;
    if (typeof inputError === "string") plain.inputError = inputError;
    return ok(plain);
  } catch {
    return err(unknownCommand("(a call that could not be read)"));
  }
}

/**
 * A parsed call checked against `schema`: `UnknownCommand`, then `Unavailable`, then
 * `InvalidInput` (an `inputError` the dialect found, the input limits, the schema). A schema that
 * cannot be used is `ExecuteFailed` with reason `schema`: the application's fault, not the
 * model's. Messages quote `toolName` when the call has one. With `snapshot`, the input is taken
 * once as plain JSON after the limits and before validation, and the route carries that copy:
 * what was validated is exactly what runs. Never throws.
 */
export function resolveToolCall(
  schema: AgentSchema,
  call: CallToResolve,
  canExecute: ((name: string) => boolean) | undefined,
  options: CheckedOptions,
  snapshot = false,
): Result<Route, ToolError> {
  const { name, toolName } = call;
  if (typeof name !== "string") return err(unknownCommand(`(a ${typeof name}, not a name)`));
  const called = toolName ?? name;
  let command: CommandSchema;
  try {
    const commands = commandsOf(schema);
    if (!commands) {
      return err(applicationBug(name, "schema", "getSchema() returned no `commands`", { called }));
    }
    if (!Object.hasOwn(commands, name)) return err(unknownCommand(called));
    const read = readingOf(commands[name], options.validator);
    if (!read.ok) return err(applicationBug(name, "schema", `it ${read.error}`, { called }));
    command = read.value;
  } catch (error) {
    // A getter in the schema that throws: the application's schema, not the model's call.
    const problem = `its schema could not be read (${describe(error)})`;
    return err(applicationBug(name, "schema", problem, { called, cause: error }));
  }
  if (!isAvailable(name, command, canExecute)) {
    return err(unavailable(name, called, command.availableWhen));
  }
  if (call.inputError !== undefined) {
    return err(invalidInput(name, [{ path: "", message: call.inputError }], called));
  }
  let { input } = call;
  try {
    const limit = limitIssue(input, options);
    if (limit) return err(invalidInput(name, [limit], called));
    const inputSchema = command.input;
    if (inputSchema === undefined && (input === undefined || input === null)) {
      return ok({ command: name, input: undefined });
    }
    if (snapshot) input = jsonSnapshot(input);
    const checked = checkInput(options.validator, inputSchema ?? NO_ARGUMENTS, input);
    if ("compileError" in checked) {
      const problem = `its input schema does not compile: ${checked.compileError}`;
      return err(applicationBug(name, "schema", problem, { called }));
    }
    if (!checked.ok) return err(invalidInput(name, checked.error, called));
    return ok({ command: name, input: inputSchema === undefined ? undefined : checked.value });
  } catch (error) {
    // Reached only through hostile values (a getter or proxy that throws while being read).
    const issue = { path: "", message: `could not be read: ${describe(error)}` };
    return err(invalidInput(name, [issue], called));
  }
}

/** A command object's reading by one validator, and the declaration it was read from. */
interface Reading {
  readonly declaration: Declaration;
  readonly validator: InputValidator;
  readonly read: Result<CommandSchema, string>;
}

// The last reading of each command object: every call reads its command, and re-checking the
// declaration and its schemas (a fresh object and two schema-cache lookups) was a third of a
// cheap call. Kept while the declaration is the same (a field set in place is read again), for
// as long as the command object lives.
const readings = new WeakMap<object, Reading>();

/** `readCommand(raw, validator)`, remembered per command object while its declaration holds. */
function readingOf(raw: unknown, validator: InputValidator): Result<CommandSchema, string> {
  if (!isRecord(raw)) return readCommand(raw, validator);
  const known = readings.get(raw);
  if (known?.validator === validator && sameDeclaration(known.declaration, raw)) return known.read;
  // Read from the snapshot, so the reading is exactly of the fields it is kept against.
  const declaration = declarationOf(raw);
  const read = readCommand(declaration, validator);
  readings.set(raw, { declaration, validator, read });
  return read;
}
