/**
 * What both OpenAI dialects share: their options, and the argument texts of the calls they read,
 * remembered so that a turn re-sent (`appendTurn`) is not parsed a second time.
 */
import { isRecord } from "../../core/json.js";
import { decodeArguments } from "../../wire/arguments.js";
import { type ResultOptions, toJsonText } from "../../wire/result-text.js";
import type { StrictRule } from "../../wire/strict.js";

/** Options of the `openai` and `openaiResponses` dialects. */
export interface OpenAIOptions extends ResultOptions {
  /**
   * Structured outputs: send every tool whose schema strict mode can express in strict form with
   * `strict: true`; any other tool falls back to `strict: false`. Give `openaiStrict` (from this
   * entrypoint) to carry strict mode in a browser or worker bundle: there `true` is refused, so
   * that a bundle without strict mode carries none of its code.
   *
   * @example
   * ```ts
   * igniteTools(component, openai({ strict: openaiStrict }));
   * ```
   */
  strict?: boolean | StrictRule;
}

// The argument texts `parseToolCalls` read as an object's JSON, by the object that holds them:
// `appendTurn` sends each back, and would otherwise parse it a second time (a tenth of a turn).
const objectTexts = new WeakMap<object, string>();

/** The arguments `holder` carries, decoded; a text that is an object's JSON is remembered. */
export function readArguments(holder: { arguments?: unknown }, cutOff: boolean) {
  const text = holder.arguments;
  const read = decodeArguments(text, { cutOff });
  // A blank text reads as `{}` but is not an object's JSON.
  if (typeof text === "string" && isRecord(read.args) && text.trim() !== "") {
    objectTexts.set(holder, text);
  }
  return read;
}

/** `holder.arguments` as the JSON text of an object: as it is when it is one, else `"{}"`. */
export function objectText(holder: { arguments?: unknown }): string {
  const args = holder.arguments;
  if (typeof args === "string" && objectTexts.get(holder) === args) return args;
  if (typeof args !== "string") return isRecord(args) ? toJsonText(args) : "{}";
  try {
    return isRecord(JSON.parse(args)) ? args : "{}";
  } catch {
    return "{}";
  }
}
