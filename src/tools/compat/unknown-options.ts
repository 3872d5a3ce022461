/**
 * Options nobody takes, told: a typo such as `timeoutMS` or `maxTurn` leaves the default in place
 * without a word, so on Node the exported `igniteTools`, `runToolLoop` and `resumeToolLoop` report
 * each key they do not take through the bridge's `onWarning` (code `unknown-option`, with the
 * option it was likely meant to be). Browser and worker builds leave this out, as they leave out
 * the 0.1 forms: a bundle carries nothing it does not use, and TypeScript finds such a key at
 * compile time.
 */
import { partsOf } from "../bridge/pipeline.js";
import { LAYER_OPTIONS } from "../bridge/types.js";
import { unknownOptions } from "../core/checks.js";
import { isRecord } from "../core/json.js";
import type { WarningSink } from "../core/types.js";

/** Every option of `igniteTools`. */
const BRIDGE = new Set([
  ...Object.keys(LAYER_OPTIONS),
  ...["timeoutMs", "project", "onWarning", "offer", "validator", "maxInputBytes", "maxInputDepth"],
]);

/** Every option of both loops. */
const SHARED = [
  ...["tools", "model", "signal", "onStep", "onProgress", "onLog", "ledger", "leaseMs"],
  ...["tracer", "modelName", "agentName", "tellChanges"],
];
const LOOP = new Set([...SHARED, "messages", "maxTurns", "runId", "stream", "onDelta"]);
const RESUME = new Set([...SHARED, "state", "decisions", "whenElsewhere", "now"]);

/** Tells `warn` of each key of `options` that `who` does not take. */
function tell(who: string, options: object, known: ReadonlySet<string>, warn: WarningSink): void {
  for (const { message } of unknownOptions(who, options, known)) {
    warn({ code: "unknown-option", message });
  }
}

/** The options of a bridge `igniteTools` made, told to its own `onWarning`. */
export function tellUnknownBridgeOptions(bridge: object, options: unknown): void {
  if (isRecord(options)) tell("igniteTools", options, BRIDGE, partsOf(bridge, "igniteTools").warn);
}

/** The options of a loop, told to its bridge's `onWarning` (none, when `tools` is no bridge). */
export function tellUnknownLoopOptions(who: "runToolLoop" | "resumeToolLoop", options: unknown) {
  if (!isRecord(options) || !isRecord(options.tools)) return;
  let warn: WarningSink;
  try {
    warn = partsOf(options.tools, who).warn;
  } catch {
    return; // not a bridge: the loop refuses it
  }
  tell(who, options, who === "runToolLoop" ? LOOP : RESUME, warn);
}
