/**
 * Pure core, part two: a model's call checked against the schema, as a route to execute or the
 * error that explains why not. Never throws, whatever the model sent.
 */

import { checkInput } from "../validation/cache.js";
import { describe, executeFailed, invalidInput, unavailable, unknownCommand } from "./errors.js";
import { limitIssue } from "./input-limits.js";
import {
  type CheckedOptions,
  commandsOf,
  isAvailable,
  NO_ARGUMENTS,
  readCommand,
} from "./manifest.js";
import { err, ok, type Result } from "./result.js";
import type { AgentSchema, NeutralToolCall, Route, ToolError } from "./types.js";

/**
 * A parsed call checked against `schema`: `UnknownCommand`, then `Unavailable`, then
 * `InvalidInput` (an `inputError` the dialect found, the input limits, the schema). Never throws.
 */
export function resolveToolCall(
  schema: AgentSchema,
  call: Pick<NeutralToolCall, "name" | "input" | "inputError">,
  canExecute: ((name: string) => boolean) | undefined,
  options: CheckedOptions,
): Result<Route, ToolError> {
  const { validator } = options;
  const name: unknown = call.name;
  if (typeof name !== "string") return err(unknownCommand(`(a ${typeof name}, not a name)`));
  try {
    const commands = commandsOf(schema);
    if (!commands || !Object.hasOwn(commands, name)) return err(unknownCommand(name));
    const command = readCommand(commands[name], validator);
    if (!command.ok) {
      return err(applicationBug(name, `it ${command.error}`));
    }
    if (!isAvailable(name, command.value, canExecute)) return err(unavailable(name));
    if (call.inputError !== undefined) {
      return err(invalidInput(name, [{ path: "", message: call.inputError }]));
    }
    const { input } = call;
    const limit = limitIssue(input, options);
    if (limit) return err(invalidInput(name, [limit]));
    const inputSchema = command.value.input;
    if (inputSchema === undefined && (input === undefined || input === null)) {
      return ok({ command: name, input: undefined });
    }
    const checked = checkInput(validator, inputSchema ?? NO_ARGUMENTS, input);
    if ("compileError" in checked) {
      return err(
        applicationBug(name, `its input schema does not compile: ${checked.compileError}`),
      );
    }
    if (!checked.ok) return err(invalidInput(name, checked.error));
    return ok({ command: name, input: inputSchema === undefined ? undefined : checked.value });
  } catch (error) {
    // Reached only through hostile values (a getter or proxy that throws while being validated).
    return err(
      invalidInput(name, [{ path: "", message: `could not be read: ${describe(error)}` }]),
    );
  }
}

function applicationBug(name: string, problem: string): ToolError {
  return executeFailed(
    name,
    undefined,
    `${problem}. This is a bug in the application, not in your call.`,
  );
}
