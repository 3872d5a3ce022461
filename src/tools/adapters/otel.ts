/**
 * `ignite-element/tools/otel`: the work of the bridge and the loop as OpenTelemetry spans,
 * following the semantic conventions for generative AI (`invoke_agent`, `chat`, `execute_tool`).
 * The only module that imports `@opentelemetry/api`: the bridge and the loop report units of work
 * through the structural `ToolTracer` port and never load it.
 */
import {
  type Attributes,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { Result } from "../core/result.js";
import type { ToolTracer, TraceHandle, TracePhase, TraceUnit } from "../core/tracing.js";
import type { LogEntry, ProgressUpdate, ToolError } from "../core/types.js";

export type { ToolTracer, TraceHandle, TraceUnit } from "../core/tracing.js";

/**
 * Options of `otelTracer`.
 *
 * @example
 * ```ts
 * const tracer = otelTracer(trace.getTracer("shop"), { recordContent: process.env.NODE_ENV !== "production" });
 * ```
 */
export interface OtelTracerOptions {
  /**
   * Record each call's input (`gen_ai.tool.call.arguments`) and result
   * (`gen_ai.tool.call.result`, the observation `{ snapshot, events }`) as JSON text on its span,
   * and the data a command attaches to a log line (`ignite.log.data`). They may hold private
   * data: opt in only where your trace backend may keep them.
   *
   * @default false
   */
  recordContent?: boolean;
}

/** A started unit: its span, and how to end it. */
class OtelHandle implements TraceHandle {
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
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    } else {
      const { error } = result;
      span.setAttribute("error.type", errorType(error));
      if (unit.kind === "run") span.setAttribute("ignite.stop", "error");
      if (error instanceof Error) span.recordException(error);
      span.setStatus({
        code: SpanStatusCode.ERROR,
        ...(error instanceof Error ? { message: error.message } : {}),
      });
    }
    span.end();
  }
}

/**
 * `tracer` as the `ToolTracer` the bridge and the loop report to. Give it to `igniteTools` (one
 * `execute_tool {name}` span per call, INTERNAL) and to `runToolLoop` (an `invoke_agent` span for
 * the run, a `turn {n}` span per turn and a `chat {model}` span per model request, CLIENT), and
 * the calls' spans go under their turn. A unit started without a parent goes under the span the
 * application has active (`context.active()`).
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { igniteTools, runToolLoop } from "ignite-element/tools";
 * import { openai } from "ignite-element/tools/openai";
 * import { otelTracer } from "ignite-element/tools/otel";
 *
 * const tracer = otelTracer(trace.getTracer("shop"));
 * const result = await runToolLoop({
 *   tools: igniteTools(cart, openai, { tracer }),
 *   model: ({ tools, messages }) => client.chat.completions.create({ model: "gpt-4.1", tools, messages }),
 *   messages: [{ role: "user", content: "Add milk." }],
 *   tracer,
 *   modelName: "gpt-4.1",
 * });
 * ```
 */
export function otelTracer(tracer: Tracer, options: OtelTracerOptions = {}): ToolTracer {
  const recordContent = options.recordContent === true;
  return {
    start(unit, parent) {
      const active = context.active();
      const within = parent instanceof OtelHandle ? trace.setSpan(active, parent.span) : active;
      const [name, kind, attributes] = describeUnit(unit, recordContent);
      return new OtelHandle(
        tracer.startSpan(name, { kind, attributes }, within),
        unit,
        recordContent,
      );
    },
  };
}

/** A unit's span name, kind and first attributes, as the GenAI conventions name them. */
function describeUnit(unit: TraceUnit, recordContent: boolean): [string, SpanKind, Attributes] {
  switch (unit.kind) {
    case "run":
      return [
        unit.agent ? `invoke_agent ${unit.agent}` : "invoke_agent",
        SpanKind.INTERNAL,
        defined({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": unit.agent }),
      ];
    case "turn":
      return [`turn ${unit.turn}`, SpanKind.INTERNAL, { "ignite.turn": unit.turn }];
    case "request":
      return [
        unit.model ? `chat ${unit.model}` : "chat",
        SpanKind.CLIENT,
        defined({
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": unit.model,
          "ignite.turn": unit.turn,
        }),
      ];
    case "call":
      return [
        `execute_tool ${unit.call.name}`,
        SpanKind.INTERNAL,
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
function defined(attributes: Record<string, string | number | undefined>): Attributes {
  const kept: Attributes = {};
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
