/**
 * `ignite-element/tools/otel`: the work of the bridge and the loop as OpenTelemetry spans,
 * following the semantic conventions for generative AI (`invoke_agent`, `chat`, `execute_tool`).
 * The spans are the ones the bridge and the loop make of a `Tracer` passed as it is; this module
 * adds what needs `@opentelemetry/api` (the application's whole active context under every span)
 * and the option to record content.
 */
import { context, type Span, type Tracer, trace } from "@opentelemetry/api";
import { badArgument, hasMethods } from "../core/checks.js";
import { spanTracer } from "../telemetry/spans.js";
import { type Tracing, tracing } from "../telemetry/tracing.js";

export type { ToolTracer, TraceHandle, TraceUnit } from "../core/tracing.js";
export type { Tracing } from "../telemetry/tracing.js";

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

/**
 * `tracer` as the `ToolTracer` the bridge and the loop report to, with options. Give it to
 * `igniteTools` (one `execute_tool {name}` span per call, INTERNAL) and to `runToolLoop` (an
 * `invoke_agent` span for the run, a `turn {n}` span per turn and a `chat {model}` span per model
 * request, CLIENT), and the calls' spans go under their turn. Every span starts in the context the
 * application has active (`context.active()`), under its parent's span when it has one. Without
 * options, the `Tracer` itself may be given as `tracer`: the same spans, each child's context
 * holding its parent span only.
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import { igniteTools, runToolLoop } from "ignite-element/tools";
 * import { openai } from "ignite-element/tools/openai";
 * import { otelTracer } from "ignite-element/tools/otel";
 *
 * const tracer = otelTracer(trace.getTracer("shop"), { recordContent: true });
 * const result = await runToolLoop({
 *   tools: igniteTools(cart, openai, { tracer }),
 *   model: ({ tools, messages }) => client.chat.completions.create({ model: "gpt-4.1", tools, messages }),
 *   messages: [{ role: "user", content: "Add milk." }],
 *   tracer,
 *   modelName: "gpt-4.1",
 * });
 * ```
 */
export function otelTracer(tracer: Tracer, options: OtelTracerOptions = {}): Tracing {
  const given: unknown = tracer;
  if (!TRACER.test(given)) {
    // The API object itself (`trace`) is the likeliest slip: it makes tracers, it is none.
    const api = typeof given === "object" && given !== null && "getTracer" in given;
    throw badArgument(
      "otelTracer",
      "tracer",
      given,
      `${TRACER.allowed}${api ? ': give trace.getTracer("your-app"), not trace itself' : ""}`,
    );
  }
  return tracing(
    spanTracer<Span>(tracer, {
      recordContent: options.recordContent === true,
      within: (parent) => (parent ? trace.setSpan(context.active(), parent) : context.active()),
    }),
  );
}

/** What `otelTracer` takes: an OpenTelemetry `Tracer`, which starts spans. */
const TRACER = hasMethods<Tracer>(
  'an OpenTelemetry Tracer (trace.getTracer("your-app"))',
  "startSpan",
  "startActiveSpan",
);
