/**
 * Reading a provider's tool-call arguments: JSON text or an object in, an object or the reason it
 * is not one out — never a throw, since a model writes them.
 */
import { isRecord } from "../core/json.js";
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

/**
 * The `TypeError` a dialect throws when it is handed something that is not its provider's
 * response at all — a programming error, unlike anything a model writes. It says what to pass.
 */
export function shapeError(method: string, expected: string, value: unknown): TypeError {
  return new TypeError(
    `${method} expects ${expected}, got ${describeValue(value, "an object of another shape")}`,
  );
}

/** A few words for what a value is. */
export function describeValue(value: unknown, plainObject = "an object"): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  if (typeof Reflect.get(value, "then") === "function") return "a Promise (await it first)";
  const maker: unknown = Reflect.get(value, "constructor");
  if (typeof maker !== "function" || maker.name === "Object") return plainObject;
  // A fetch `Response` is the likeliest mistake: its body has not been read yet.
  if (maker.name === "Response") {
    return "a Response (pass `await response.json()`)";
  }
  return `a ${maker.name}`;
}
