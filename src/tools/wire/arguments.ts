/**
 * Reading a provider's tool-call arguments: JSON text or an object in, an object or the reason it
 * is not one out — never a throw, since a model writes them.
 */
import { isRecord } from "../core/json.js";
import { describeValue } from "./describe-value.js";
import type { ProviderCall } from "./provider-tools.js";

/** How arguments sent as JSON text are read. */
export interface ArgumentOptions {
  /** The response hit its output limit during this call, so blank arguments are not `{}`. */
  cutOff?: boolean;
}

/** Why arguments the output limit cut off are not read. */
export const CUT_OFF = "arguments were cut off by the output limit; send the call again in full";

/**
 * Arguments a provider sends as JSON text, as an object or the reason they are not one — never a
 * throw. `""` (sent for no-parameter tools by several servers) is `{}` unless the call was cut
 * off; arguments that arrive already decoded are read by `objectArguments`.
 */
export function decodeArguments(
  text: unknown,
  options: ArgumentOptions = {},
): Pick<ProviderCall, "args" | "argsError"> {
  if (typeof text !== "string") return objectArguments(text);
  if (text.trim() === "") {
    return options.cutOff ? { args: undefined, argsError: CUT_OFF } : { args: {} };
  }
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch {
    return {
      args: undefined,
      argsError: "arguments were not valid JSON (possibly cut off); send a complete JSON object",
    };
  }
  return objectArguments(args);
}

/**
 * Arguments a provider sends as an object. `absent: "empty"` is for providers that leave the
 * arguments out for a tool without parameters.
 */
export function objectArguments(
  value: unknown,
  absent?: "empty",
): Pick<ProviderCall, "args" | "argsError"> {
  if (isRecord(value)) return { args: value };
  if (value === undefined && absent === "empty") return { args: {} };
  return objectRequired(value);
}

/** The error for arguments that are missing or are something other than an object. */
export function objectRequired(args: unknown): Pick<ProviderCall, "args" | "argsError"> {
  if (args === undefined) {
    return { args: undefined, argsError: "arguments are missing; send a JSON object" };
  }
  return {
    args: undefined,
    argsError: `arguments must be a JSON object, not ${describeValue(args)}`,
  };
}
