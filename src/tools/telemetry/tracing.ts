/**
 * The tracing layer, `tracing(tracer)`: each call a bridge takes is reported to the tracer as a
 * `call` unit, from the moment it is queued until it is answered, and the stages the call goes
 * through report their phases to its handle. What a span is named and carries is the tracer's
 * business (`otelTracer` from `ignite-element/tools/otel` makes OpenTelemetry GenAI spans).
 */

import type { BridgeParts, Layer } from "../bridge/pipeline.js";
import type { Soon } from "../bridge/soon.js";
import type { Result } from "../core/result.js";
import type { ToolTracer, TraceHandle } from "../core/tracing.js";
import type { NeutralToolCall, RuntimeEvent } from "../core/types.js";

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
  if (typeof tracer !== "object" || tracer === null || typeof tracer.start !== "function") {
    throw new TypeError("tracing(tracer): the tracer is not a ToolTracer (no start method)");
  }
  if ("layer" in tracer && tracer.layer === "tracing") return tracer as Tracing;
  return {
    layer: "tracing",
    start: (unit, parent) => tracer.start(unit, parent),
    install: (parts) => traced(parts, tracer),
  };
}

/** Wraps the call stage of one bridge: each call a unit of its own. */
function traced<S, E extends RuntimeEvent>({ pipeline }: BridgeParts<S, E>, tracer: ToolTracer) {
  const next = pipeline.call;
  pipeline.call = (call, options) =>
    traceCall(tracer, call, options?.parent, (span) => next(call, options, span));
}
