/**
 * One call at a time, in the order made. Each call waits for the one before it to be answered
 * (or for its own signal); a timed-out call is answered, so the queue never stalls. Every promise
 * in the chain resolves (a run never rejects), so no call can poison the next. A call made while
 * none is waiting or running starts at once, and one its component answers synchronously is
 * answered without waiting a tick. A layer's own calls (the wait) take no turn: they run beside.
 */
import { clip, executeFailed } from "../core/errors.js";
import { err } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  ExecuteFailedReason,
  NeutralToolCall,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { withDeadline } from "./deadline.js";
import type { Pipeline, Run } from "./pipeline.js";
import type { Soon } from "./soon.js";
import type { InvokeOptions } from "./types.js";

/** One call's way from being taken to being answered, once its turn comes. */
export type Step<S, E extends RuntimeEvent> = (
  call: NeutralToolCall,
  options: InvokeOptions | undefined,
  span: TraceHandle | undefined,
) => Soon<Run<S, E>>;

/** `step`, taken one call at a time; `executing` says whether a call comes from inside one. */
export function callQueue<S, E extends RuntimeEvent>(
  step: Step<S, E>,
  pipeline: Pick<Pipeline<S, E>, "beside">,
  executing: () => boolean,
): Step<S, E> {
  let queue: Promise<unknown> = Promise.resolve();
  // The calls taken and not yet answered.
  let busy = 0;
  const started = (
    call: NeutralToolCall,
    options: InvokeOptions | undefined,
    span: TraceHandle | undefined,
  ): Soon<Run<S, E>> => {
    let now: Soon<Run<S, E>> | undefined;
    const signal = options?.signal;
    try {
      now = signal?.aborted
        ? { outcome: err(failed(call, "cancelled", CANCELLED, signal.reason)) }
        : step(call, options, span);
    } finally {
      // Counted out once answered. A throw here is a tracer's: the call is not answered, but it
      // no longer holds the queue.
      if (!(now instanceof Promise)) busy--;
    }
    return now instanceof Promise
      ? now.finally(() => {
          busy--;
        })
      : now;
  };
  return (call, options, span) => {
    if (executing()) return { outcome: err(failed(call, "reentrant", REENTRANT)) };
    if (pipeline.beside(call.name)) return step(call, options, span);
    const previous = queue;
    if (busy++ === 0) {
      const now = started(call, options, span);
      if (now instanceof Promise) queue = now;
      return now;
    }
    // Made only for a call that waits: made for every call, it cost 0.4 µs each (bench row 2).
    const start = () => started(call, options, span);
    const signal = options?.signal;
    if (signal === undefined) {
      // Nothing can answer this call before its turn: it waits for the one before, then runs.
      const running = previous.then(start);
      queue = running;
      return running;
    }
    // Its signal can: aborted while it waits, it is answered at once, and the next call still
    // waits for the one before.
    const running = withDeadline(previous, undefined, signal).then(start);
    queue = Promise.all([previous, running]);
    return running;
  };
}

/** How a call that never ran is told it was aborted. */
export const CANCELLED = "was aborted before it ran; nothing was executed";
const REENTRANT =
  "was called from inside execute() on the same bridge and would wait for itself; nothing ran. " +
  "This is a bug in the application, not in your call.";

/**
 * An `ExecuteFailed` for a call that was not resolved: its name is whatever the call said, so it
 * is clipped like any name that was never checked.
 */
export function failed(
  call: NeutralToolCall,
  reason: ExecuteFailedReason,
  detail: string,
  cause?: unknown,
): ToolError {
  const name = typeof call.name === "string" ? call.name : "(unnamed)";
  return executeFailed(name, reason, detail, { cause, called: clip(call.toolName ?? name) });
}
