/**
 * The option forms before layers (0.1), still taken on Node — where a bundle's size does not
 * matter — for one more minor release: `approve: policy`, `wait: { maxMs }`, an OpenTelemetry
 * `Tracer` as it is, `tellChanges: true | { maxChars }`, `tools.observe(…)` and `tools.until(…)`,
 * and a ledger given to a bridge built without `approval`. Each is turned into the layer it
 * stood for; browsers and workers get compat/current.ts, the layers alone (package.json
 * `imports`, `#compat`). CHANGELOG.md gives the one-line migration of each.
 *
 * The values here are the ones whose types no longer say what they are: they are read as
 * unknown and checked, and the casts below give the functions back the types they are exported
 * with.
 */
import { approval } from "../approval/approval.js";
import { igniteTools as bridge } from "../bridge/ignite-tools.js";
import { isLayer } from "../bridge/pipeline.js";
import type { ToolBridge } from "../bridge/types.js";
import { isRecord } from "../core/json.js";
import type { ToolTracer } from "../core/tracing.js";
import type { LiveChange, RuntimeEvent } from "../core/types.js";
import type { UntilOptions } from "../live/live.js";
import { observe, until } from "../live/observe.js";
import { type WaitOptions, waitTool } from "../live/wait.js";
import { runToolLoop as loop } from "../loop/loop.js";
import { resumeToolLoop as resume } from "../loop/resume.js";
import { changeNotes } from "../loop/tell-changes.js";
import { type SpanTracer, toolTracer } from "../telemetry/spans.js";
import { tracing } from "../telemetry/tracing.js";
import { tellUnknownBridgeOptions, tellUnknownLoopOptions } from "./unknown-options.js";

/** `options` of `igniteTools` (or a host's, an adapter's), with each old form as its layer. */
export function upgrade<O>(options: O): O {
  if (options !== undefined && !isRecord(options)) return options;
  const upgraded: Record<string, unknown> = isRecord(options) ? { ...options } : {};
  const { approve, wait, tracer } = upgraded;
  // Every bridge records: a ledger given per call was honoured by every bridge before layers.
  if (approve === undefined || typeof approve === "function") {
    upgraded.approve = approval(approve as Parameters<typeof approval>[0]);
  }
  if (isRecord(wait) && !isLayer(wait)) upgraded.wait = waitTool(wait as unknown as WaitOptions);
  if (isSpanTracer(tracer)) upgraded.tracer = tracing(toolTracer(tracer));
  else if (isRecord(tracer) && !isLayer(tracer))
    upgraded.tracer = tracing(tracer as unknown as ToolTracer);
  return upgraded as O;
}

/** The options of `runToolLoop` or `resumeToolLoop`, with each old form as its layer. */
function upgradeLoop<O>(options: O): O {
  if (!isRecord(options)) return options;
  const { tellChanges, tracer } = options;
  const upgraded: Record<string, unknown> = { ...options };
  if (tellChanges === true) upgraded.tellChanges = changeNotes();
  if (isRecord(tellChanges) && !("layer" in tellChanges)) {
    upgraded.tellChanges = changeNotes(tellChanges);
  }
  if (isSpanTracer(tracer)) upgraded.tracer = toolTracer(tracer);
  return upgraded as O;
}

/** An OpenTelemetry `Tracer` as it is: `startSpan`, and no `start` of a `ToolTracer`. */
function isSpanTracer(value: unknown): value is SpanTracer {
  return isRecord(value) && typeof value.startSpan === "function" && !("start" in value);
}

/** The bridge's live state as methods, as every bridge had them before `observe` and `until`. */
function withLiveMethods<B extends object>(tools: B): B {
  const bridge = tools as unknown as ToolBridge<unknown, RuntimeEvent>;
  return Object.assign(tools, {
    observe: (listener: (change: LiveChange) => void) => observe(bridge, listener),
    until: (match: (change: LiveChange) => boolean, options?: UntilOptions) =>
      until(bridge, match, options),
  });
}

// Each function as one signature that passes its arguments through: the overloads it is exported
// with are its own.
type Loose = (...args: unknown[]) => unknown;
const loose = (f: unknown) => f as Loose;

/** `igniteTools`, taking the option forms before layers too. */
export const igniteTools = ((component: unknown, dialect: unknown, options: unknown) => {
  const made = loose(bridge)(component, dialect, upgrade(options)) as object;
  tellUnknownBridgeOptions(made, options);
  return withLiveMethods(made);
}) as unknown as typeof bridge;

/** `runToolLoop`, taking the option forms before layers too. */
// Async, so that an option it cannot upgrade rejects, as the loop's own checks do: never a throw.
export const runToolLoop = (async (options: unknown) => {
  tellUnknownLoopOptions("runToolLoop", options);
  return loose(loop)(upgradeLoop(options));
}) as unknown as typeof loop;

/** `resumeToolLoop`, taking the option forms before layers too. */
export const resumeToolLoop = (async (options: unknown) => {
  tellUnknownLoopOptions("resumeToolLoop", options);
  return loose(resume)(upgradeLoop(options));
}) as unknown as typeof resume;
