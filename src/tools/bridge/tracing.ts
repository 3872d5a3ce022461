/**
 * Reporting a call to the tracer. Only the calls: what a span is named and carries is the
 * tracer's business (`ignite-element/tools/otel`), so this costs next to nothing without one.
 */

import type { Result } from "../core/result.js";
import type { ToolTracer, TraceHandle } from "../core/tracing.js";
import type { NeutralToolCall } from "../core/types.js";
import type { Soon } from "./soon.js";

/** Runs `body` as a `call` unit under `parent`. */
export function traceCall<Run extends { outcome: Result<unknown, unknown> }>(
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
