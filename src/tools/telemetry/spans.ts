/**
 * The units of work the bridge and the loop report, as OpenTelemetry spans named by the semantic
 * conventions for generative AI (`invoke_agent`, `chat`, `execute_tool`) — over any tracer shaped
 * like OpenTelemetry's, so an application passes its `Tracer` as it is and this module imports
 * nothing of `@opentelemetry/api`. `ignite-element/tools/otel` uses the same spans, and adds the
 * application's active context and the content option.
 */
import type { Result } from "../core/result.js";
import type { ToolTracer, TraceHandle, TracePhase, TraceUnit } from "../core/tracing.js";
import type { LogEntry, ProgressUpdate, ToolError } from "../core/types.js";

/** Span attribute values, as OpenTelemetry takes them. */
type SpanAttributes = Record<string, string | number | boolean>;

/** What of an OpenTelemetry `Span` the spans use; a `Span` is one. */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: SpanAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error): unknown;
  end(): void;
}

/** What of an OpenTelemetry `Context` the spans use; a `Context` is one. */
export interface ContextLike {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): ContextLike;
  deleteValue(key: symbol): ContextLike;
}

/**
 * What of an OpenTelemetry `Tracer` the bridge and the loop use: `startSpan`. The `Tracer` of
 * `trace.getTracer(name)` (or of an SDK's provider) is one, and goes into `tracer` as it is.
 */
export interface SpanTracer<Span extends SpanLike = SpanLike> {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: SpanAttributes },
    context?: ContextLike,
  ): Span;
}

/** How `spanTracer` makes its spans. */
export interface SpanOptions<Span extends SpanLike> {
  /** Record each call's input and result on its span. */
  recordContent: boolean;
  /**
   * The context a unit's span starts in, under `parent` (the span of the unit it belongs to), or
   * `undefined` for the tracer's own choice: the context the application has active.
   */
  within: (parent: Span | undefined) => ContextLike | undefined;
}

// The numbers of OpenTelemetry's `SpanKind` and `SpanStatusCode`, fixed by its specification.
const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

/** A started unit: its span, and how to end it. */
class SpanHandle<Span extends SpanLike> implements TraceHandle {
  constructor(
    readonly span: Span,
    private readonly unit: TraceUnit,
    private readonly recordContent: boolean,
  ) {}

  private held = false;

  phase(name: TracePhase): void {
    this.span.addEvent(`ignite.tool.${name}`);
    if (name === "held") this.held = true;
  }

  /** The command's `context.progress`: an `ignite.tool.progress` event on the call's span. */
  progress({ progress, total, message }: ProgressUpdate): void {
    this.span.addEvent(
      "ignite.tool.progress",
      defined({
        "ignite.progress": progress,
        "ignite.progress.total": total,
        "ignite.progress.message": message,
      }),
    );
  }

  /**
   * The command's `context.log`: an `ignite.tool.log` event with its level and message; its data
   * as JSON text only with `recordContent` (it may hold private data).
   */
  log({ level, message, data }: LogEntry): void {
    const content = this.recordContent && data !== undefined ? json(data) : undefined;
    this.span.addEvent(
      "ignite.tool.log",
      defined({
        "ignite.log.level": level,
        "ignite.log.message": message,
        "ignite.log.data": content,
      }),
    );
  }

  end(result: Result<unknown, unknown>): void {
    const { span, unit } = this;
    if (this.held) {
      // Waiting for a person is not a failure: the span says so, and keeps its status unset.
      span.setAttribute("ignite.tool.held", true);
    } else if (result.ok) {
      if (unit.kind === "call" && this.recordContent) {
        const text = json(result.value);
        if (text !== undefined) span.setAttribute("gen_ai.tool.call.result", text);
      }
      if (unit.kind === "run" && typeof result.value === "string") {
        span.setAttribute("ignite.stop", result.value);
      }
    } else if (unit.kind === "call" && isToolError(result.error)) {
      const { kind, message } = result.error;
      span.setAttribute("error.type", kind);
      if (result.error.kind === "ExecuteFailed" && result.error.reason) {
        span.setAttribute("ignite.tool.failure_reason", result.error.reason);
      }
      span.setStatus({ code: ERROR, message });
    } else {
      const { error } = result;
      span.setAttribute("error.type", errorType(error));
      if (unit.kind === "run") span.setAttribute("ignite.stop", "error");
      if (error instanceof Error) span.recordException(error);
      span.setStatus({
        code: ERROR,
        ...(error instanceof Error ? { message: error.message } : {}),
      });
    }
    span.end();
  }
}

/** `tracer` as the `ToolTracer` the bridge and the loop report to, one span per unit. */
export function spanTracer<Span extends SpanLike>(
  tracer: SpanTracer<Span>,
  options: SpanOptions<Span>,
): ToolTracer {
  const { recordContent, within } = options;
  return {
    start(unit, parent) {
      // Any span handle is a parent (the loop's and the bridge's tracers may be made apart, of
      // one OpenTelemetry SDK); its span is of the same kind, which `instanceof` cannot show.
      const under = parent instanceof SpanHandle ? (parent.span as Span) : undefined;
      const [name, kind, attributes] = describeUnit(unit, recordContent);
      const context = within(under);
      const span = tracer.startSpan(name, { kind, attributes }, ...(context ? [context] : []));
      return new SpanHandle(span, unit, recordContent);
    },
  };
}

// The key OpenTelemetry keeps a context's span under. Every copy of `@opentelemetry/api` makes it
// with `Symbol.for` of this name, so that copies agree on it: it is part of the API's contract.
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** A context that holds `values` and nothing else, as OpenTelemetry's own contexts behave. */
class BareContext implements ContextLike {
  constructor(private readonly values: ReadonlyMap<symbol, unknown>) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): ContextLike {
    return new BareContext(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): ContextLike {
    const values = new Map(this.values);
    values.delete(key);
    return new BareContext(values);
  }
}

// The ToolTracer made of each tracer passed as it is: the bridge's and the loop's are one, so a
// turn's handle is a parent the bridge's calls recognise.
const made = new WeakMap<object, ToolTracer>();

/**
 * The `ToolTracer` a `tracer` option stands for: a `ToolTracer` as it is; an OpenTelemetry
 * `Tracer` (anything with `startSpan` and no `start`) as spans, each unit's under its parent's
 * span or, without a parent, under the one the application has active. Without
 * `@opentelemetry/api` there is no active context to add the parent to, so a child's context holds
 * its parent span only; `otelTracer` keeps the rest of the active context (baggage) too.
 */
export function toolTracer(tracer: ToolTracer | SpanTracer): ToolTracer {
  if ("start" in tracer) return tracer;
  let known = made.get(tracer);
  if (!known) {
    const root = new BareContext(new Map());
    known = spanTracer(tracer, {
      recordContent: false,
      within: (parent) => parent && root.setValue(SPAN_KEY, parent),
    });
    made.set(tracer, known);
  }
  return known;
}

/** A unit's span name, kind and first attributes, as the GenAI conventions name them. */
function describeUnit(unit: TraceUnit, recordContent: boolean): [string, number, SpanAttributes] {
  switch (unit.kind) {
    case "run":
      return [
        unit.agent ? `invoke_agent ${unit.agent}` : "invoke_agent",
        INTERNAL,
        defined({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": unit.agent }),
      ];
    case "turn":
      return [`turn ${unit.turn}`, INTERNAL, { "ignite.turn": unit.turn }];
    case "request":
      return [
        unit.model ? `chat ${unit.model}` : "chat",
        CLIENT,
        defined({
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": unit.model,
          "ignite.turn": unit.turn,
        }),
      ];
    case "call":
      return [
        `execute_tool ${unit.call.name}`,
        INTERNAL,
        defined({
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": unit.call.name,
          "gen_ai.tool.call.id": unit.call.id,
          "gen_ai.tool.type": "function",
          "gen_ai.tool.call.arguments": recordContent ? json(unit.call.input) : undefined,
        }),
      ];
  }
}

/** The attributes that have a value. */
function defined(attributes: Record<string, string | number | undefined>): SpanAttributes {
  const kept: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
  return kept;
}

/** Whether a call's failure is a `ToolError` (it always is; the port types it `unknown`). */
function isToolError(error: unknown): error is ToolError {
  return (
    typeof error === "object" &&
    error !== null &&
    "kind" in error &&
    typeof error.kind === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}

/** `error.type` of a thrown value: its class name, or `_OTHER` for something that is no Error. */
function errorType(error: unknown): string {
  return error instanceof Error ? error.constructor.name || error.name : "_OTHER";
}

/** `value` as JSON text, or `undefined` when it has none (a function, a cycle, a BigInt). */
function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
