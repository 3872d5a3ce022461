/**
 * The route stage as the bridge has it before any layer: a resolved call is executed. A call that
 * was given a ledger reaches it only when no layer recorded the call (a bridge built without
 * `approval`): running it unrecorded would break the promise the application asked for, so it
 * is answered instead, and nothing runs.
 */

import { err } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type { NeutralToolCall, Route, RuntimeEvent } from "../core/types.js";
import type { InvokeOptions } from "./call-options.js";
import type { Pipeline, Run } from "./pipeline.js";
import { failed } from "./queue.js";
import type { Soon } from "./soon.js";

/** `route` executed through `pipeline`'s execute stage (as it stands at this call). */
export function executed<S, E extends RuntimeEvent>(
  pipeline: Pipeline<S, E>,
  route: Route,
  call: NeutralToolCall,
  options: InvokeOptions | undefined,
  span: TraceHandle | undefined,
): Soon<Run<S, E>> {
  if (options?.ledger !== undefined) return { outcome: err(failed(call, "ledger", UNRECORDED)) };
  span?.phase("execute");
  const outcome = pipeline.execute(route, call, options, span);
  return outcome instanceof Promise
    ? outcome.then((settled) => ({ route, outcome: settled }))
    : { route, outcome };
}

const UNRECORDED =
  "was not run: it was given a ledger, but this bridge records no calls. " +
  "This is a bug in the application, not in your call (build the bridge with approve: approval()).";
