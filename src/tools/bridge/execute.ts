/**
 * The execute stage: the one place a component's `execute()` is called. The call gets its
 * context (signal, progress, log), its deadline and its signal are raced against the command, and
 * whatever the command returns or throws becomes an outcome the model can read.
 */
import { executeFailed, threw } from "../core/errors.js";
import { err, type Result } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  AbortSignalLike,
  AgentComponent,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { type CallContext, type CallListeners, callContext } from "./context.js";
import { withDeadline } from "./deadline.js";
import { type PartsReader, readResult } from "./observation.js";
import type { ExecuteStage } from "./pipeline.js";
import { isThenable, type Soon } from "./soon.js";

/** The execute stage of one bridge, and whether its component's `execute` is running now. */
export interface Executor<S, E extends RuntimeEvent> {
  readonly execute: ExecuteStage<S, E>;
  /**
   * True only while `execute` runs synchronously: a call made then comes from inside it, and
   * queueing it would wait for the very call that waits for it.
   */
  executing(): boolean;
}

/** The execute stage for `component`, each call bounded by `timeoutMs` when there is one. */
export function executorOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  timeoutMs: number | undefined,
  parts: () => PartsReader,
): Executor<S, E> {
  let executing = false;
  const start = (command: string, input: unknown, context: CallContext) => {
    executing = true;
    try {
      return component.execute(command, input, context);
    } finally {
      executing = false;
    }
  };

  const execute = (
    { command, input, answers }: Route,
    call: NeutralToolCall,
    options: (CallListeners & { signal?: AbortSignalLike | undefined }) | undefined,
    span: TraceHandle | undefined,
  ): Soon<Result<Observation<S, E>, ToolError>> => {
    const called = call.toolName ?? command;
    const signal = options?.signal;
    const stoppable = timeoutMs !== undefined || signal !== undefined;
    // Shared and inert when nobody can hear or stop the call: no allocation for a plain call.
    const context = callContext(call, stoppable, options, span, answers);
    if (stoppable) return raced(command, input, called, signal, context);
    // Nothing to race: a result given at once is read at once, a promise (or any thenable) is
    // awaited. A throw, sync or async, is the component's. Answered, the context goes quiet.
    let result: unknown;
    try {
      result = start(command, input, context);
      if (!isThenable(result)) {
        context.settle();
        return readResult(command, called, result, parts());
      }
    } catch (error) {
      context.settle();
      return err(threw(command, error, called));
    }
    return Promise.resolve(result).then(
      (value) => {
        context.settle();
        return readResult<S, E>(command, called, value, parts());
      },
      (error: unknown) => {
        context.settle();
        return err(threw(command, error, called));
      },
    );
  };

  const raced = async (
    command: string,
    input: unknown,
    called: string,
    signal: AbortSignalLike | undefined,
    context: CallContext,
  ): Promise<Result<Observation<S, E>, ToolError>> => {
    try {
      const running = new Promise<unknown>((resolve) => resolve(start(command, input, context)));
      const waited = await withDeadline(running, timeoutMs, signal);
      if (waited.done) return readResult(command, called, waited.value, parts());
      // The call is answered now; the command, still running, is told to stop.
      if (waited.stop === "timeout") {
        const detail = `did not finish within ${timeoutMs} ms`;
        context.cancel(timedOut(`${JSON.stringify(called)} ${detail}`));
        return err(executeFailed(command, "timeout", `${detail}. ${MAYBE_RAN}`, { called }));
      }
      context.cancel(signal?.reason);
      const detail = `was aborted while running. ${MAYBE_RAN}`;
      return err(executeFailed(command, "aborted", detail, { cause: signal?.reason, called }));
    } catch (error) {
      return err(threw(command, error, called));
    } finally {
      context.settle();
    }
  };

  return { execute, executing: () => executing };
}

const MAYBE_RAN = "It may still take effect: check the state before calling it again.";

/** The reason a timed-out call's signal aborts with: a `TimeoutError`, as `AbortSignal.timeout`'s. */
function timedOut(message: string): Error {
  const error = new Error(message);
  error.name = "TimeoutError";
  return error;
}
