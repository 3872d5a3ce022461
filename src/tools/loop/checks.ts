/**
 * The loop's arguments, checked before a turn starts: a model that is not a function, messages
 * that are not a list, `maxTurns` of `"3"` or `0`, a signal, ledger or tracer that is not one, a
 * paused state given as its JSON text — each a `TypeError` naming `runToolLoop` or
 * `resumeToolLoop`, the option and what was given, and nothing asked, run or replayed.
 */
import { LEDGER } from "../bridge/call-options.js";
import {
  aCount,
  aFunction,
  aName,
  anObject,
  aSignal,
  check,
  checkOptional,
  type Expect,
  hasMethods,
  oneOf,
} from "../core/checks.js";

/** A bridge the loop can drive: made by `igniteTools` with a dialect that appends turns. */
const LOOP_BRIDGE = /* @__PURE__ */ hasMethods<object>(
  "a bridge made by igniteTools with a loop dialect (one with appendTurn, such as openai or anthropic)",
  "toToolDefs",
  "answerToolCalls",
  "appendTurn",
);

/** A list (of messages, of decisions). */
const aList: Expect<readonly unknown[]> = {
  allowed: "a list",
  test: (value): value is readonly unknown[] => Array.isArray(value),
};

/** What both loops take, checked for `who`; returns what reads the rest of `options`. */
function checkShared(who: string, options: unknown): (key: string) => unknown {
  const given = check(who, "options", options, anObject);
  const read = (key: string): unknown => Reflect.get(given, key);
  check(who, "tools", read("tools"), LOOP_BRIDGE);
  check(who, "model", read("model"), aFunction);
  checkOptional(who, "signal", read("signal"), aSignal);
  for (const key of ["onStep", "onProgress", "onLog", "now", "stream", "onDelta"]) {
    checkOptional(who, key, read(key), aFunction);
  }
  checkOptional(who, "ledger", read("ledger"), LEDGER);
  checkOptional(who, "leaseMs", read("leaseMs"), aCount);
  checkOptional(who, "modelName", read("modelName"), aName);
  checkOptional(who, "agentName", read("agentName"), aName);
  return read;
}

/** `runToolLoop`'s options: a `TypeError` for the first that is not what it must be. */
export function checkLoopOptions(options: unknown): void {
  const who = "runToolLoop";
  const read = checkShared(who, options);
  check(who, "messages", read("messages"), aList);
  checkOptional(who, "maxTurns", read("maxTurns"), aCount);
  checkOptional(who, "runId", read("runId"), aName);
}

/** `resumeToolLoop`'s options, the paused state as the object a pause returns included. */
export function checkResumeOptions(options: unknown): void {
  const who = "resumeToolLoop";
  const read = checkShared(who, options);
  const state = read("state");
  if (typeof state === "string") {
    throw new TypeError(
      `${who}: state must be the paused state object, not its JSON text (a string): pass JSON.parse(text)`,
    );
  }
  check(who, "state", state, anObject);
  check(who, "decisions", read("decisions"), aList);
  checkOptional(who, "whenElsewhere", read("whenElsewhere"), oneOf("refuse", "wait"));
}
