/**
 * The tracing layer, `tracing(tracer)`: each call a bridge takes is reported to the tracer as a
 * `call` unit, from the moment it is queued until it is answered, and the stages the call goes
 * through report their phases to its handle. What a span is named and carries is the tracer's
 * business (`otelTracer` from `ignite-element/tools/otel` makes OpenTelemetry GenAI spans).
 */

import type { BridgeParts, Layer } from "../bridge/pipeline.js";
import type { Soon } from "../bridge/soon.js";
import { check, given, hasMethods } from "../core/checks.js";
import type { Result } from "../core/result.js";
import type { ToolTracer, TraceHandle } from "../core/tracing.js";
import type { NeutralToolCall, RuntimeEvent, WarningSink } from "../core/types.js";

/** A handle that records nothing: what a call is traced with when the tracer failed to start it. */
const UNTRACED: TraceHandle = { phase: () => undefined, end: () => undefined };

const HANDLE = hasMethods<TraceHandle>("a TraceHandle", "phase", "end");

/**
 * `tracer.start`, kept from breaking the call it traces: a tracer that throws or returns what is
 * not a handle (`{ start: () => 5 }`) is reported through `warn`, and the call goes on untraced.
 */
function startOf(tracer: ToolTracer, warn: WarningSink): ToolTracer["start"] {
  return (unit, parent) => {
    let handle: unknown;
    try {
      handle = tracer.start(unit, parent);
    } catch (error) {
      handle = error;
    }
    if (HANDLE.test(handle)) return handle;
    warn({
      code: "tracer-failed",
      message: `tracing: the tracer's start() gave ${given(handle)}, not a TraceHandle (phase and end): the ${unit.kind} is not traced.`,
    });
    return UNTRACED;
  };
}

/** Runs `body` as a `call` unit under `parent`. */
function traceCall<Run extends { outcome: Result<unknown, unknown> }>(
  tracer: ToolTracer,
  call: NeutralToolCall,
  parent: TraceHandle | undefined,
  body: (handle: TraceHandle) => Soon<Run>,
): Soon<Run> {
  const handle = tracer.start({ kind: "call", call }, parent);
  const end = (run: Run) => {
    handle.end(run.outcome);
    return run;
  };
  const run = body(handle);
  return run instanceof Promise ? run.then(end) : end(run);
}

/** The tracing layer: what `igniteTools`' `tracer` takes, and a `ToolTracer` the loop reports to. */
export interface Tracing extends Layer<"tracing">, ToolTracer {}

/**
 * `tracer` as the tracing layer of a bridge (`igniteTools(c, d, { tracer: tracing(t) })`) and as
 * the loop's tracer: every call reported as a unit, under the unit it is given as `parent` (the
 * loop passes its turn). `otelTracer` makes one already.
 *
 * @example
 * ```ts
 * const tracer = tracing({ start: (unit) => ({ phase: () => {}, end: () => log(unit.kind) }) });
 * const tools = igniteTools(component, openai, { tracer });
 * ```
 */
export function tracing(tracer: ToolTracer): Tracing {
  check("tracing", "tracer", tracer, TRACER);
  if ("layer" in tracer && tracer.layer === "tracing") return tracer as Tracing;
  return {
    layer: "tracing",
    // The loop's units: a failing tracer leaves them untraced, with no one to warn.
    start: startOf(tracer, () => undefined),
    install: (parts) => traced(parts, tracer),
  };
}

/** What `tracing` takes: an object with `start`. */
const TRACER = hasMethods<ToolTracer>("a ToolTracer (an object with start)", "start");

/** Wraps the call stage of one bridge: each call a unit of its own. */
function traced<S, E extends RuntimeEvent>(
  { pipeline, warn }: BridgeParts<S, E>,
  tracer: ToolTracer,
) {
  const next = pipeline.call;
  const safe = { start: startOf(tracer, warn) };
  pipeline.call = (call, options) =>
    traceCall(safe, call, options?.parent, (span) => next(call, options, span));
}
