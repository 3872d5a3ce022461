/**
 * The tracing port: the units of work the bridge and the loop report, and nothing of how they are
 * recorded. `ignite-element/tools/otel` records them as OpenTelemetry GenAI spans; the core names
 * no span, attribute or SDK, so an application without a tracer pays for none of it. Types only;
 * nothing here runs.
 */
import type { Result } from "./result.js";
import type { LogEntry, NeutralToolCall, ProgressUpdate } from "./types.js";

/**
 * One unit of work, as the bridge and the loop report it:
 * - `run` — one `runToolLoop`, from its first request to its stop;
 * - `turn` — one model request and the calls of its reply;
 * - `request` — the model request itself, until its response (or stream) is complete;
 * - `call` — one tool call, from the moment it is queued until it is answered.
 *
 * @example
 * ```ts
 * const tracer: ToolTracer = {
 *   start: (unit) => {
 *     const started = Date.now();
 *     return { phase: () => {}, end: () => log(unit.kind, Date.now() - started) };
 *   },
 * };
 * ```
 */
export type TraceUnit =
  | { readonly kind: "run"; readonly agent?: string | undefined }
  | { readonly kind: "turn"; readonly turn: number }
  | { readonly kind: "request"; readonly turn: number; readonly model?: string | undefined }
  | { readonly kind: "call"; readonly call: NeutralToolCall };

/**
 * The phases of a call a tracer hears, in order; `approve` only with a policy or a ledger, and
 * `held` instead of `execute` when the policy asked a person about the call.
 */
export type TracePhase = "validate" | "approve" | "execute" | "held";

/**
 * A started unit of work.
 *
 * @example
 * ```ts
 * const handle = tracer.start({ kind: "call", call }, turn);
 * handle.phase("validate");
 * handle.end(outcome); // a Result: ok(observation) or err(toolError)
 * ```
 */
export interface TraceHandle {
  /**
   * A call's phase began: `validate` when its turn in the queue came (its input is checked now),
   * `approve` when it passed every check and the approval policy (or the ledger) decides,
   * `execute` when `execute` is called, or `held` when the policy asked a person: the call does
   * not run in this unit, which then ends with the `Denied` a model reads if nobody decides (the
   * call, once decided, is a unit of its own).
   */
  phase(name: TracePhase): void;
  /**
   * A call's command reported how far it is (`context.progress`). Optional: a tracer without it
   * does not hear progress.
   */
  progress?(update: ProgressUpdate): void;
  /** A call's command wrote a log line (`context.log`). Optional, as `progress` is. */
  log?(entry: LogEntry): void;
  /**
   * The unit ended: a call with its outcome (a `ToolError` when it failed); a request with
   * `ok(undefined)` or what the model function (or its stream) threw; a run with its stop
   * (`ok("done")`) or, for `error`, what was thrown.
   */
  end(result: Result<unknown, unknown>): void;
}

/**
 * Where the bridge and the loop report their work: `start` is called when a unit begins, under
 * `parent` (a handle this tracer started) or, without one, under whatever the application has
 * active. An OpenTelemetry `Tracer` given as `tracer` is made into one by the bridge and the loop;
 * `otelTracer(tracer, options)` from `ignite-element/tools/otel` makes one with options. It must
 * not throw.
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { otelTracer } from "ignite-element/tools/otel";
 *
 * const tracer = otelTracer(trace.getTracer("shop"), { recordContent: true });
 * const tools = igniteTools(cart, openai, { tracer });
 * ```
 */
export interface ToolTracer {
  start(unit: TraceUnit, parent?: TraceHandle): TraceHandle;
}
