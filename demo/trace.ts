/**
 * `npm run demo:trace`: the scripted demo with an OpenTelemetry tracer (the SDK's in-memory
 * exporter), printed as the tree of its spans. docs/telemetry.md shows this output, and a test
 * keeps the two the same.
 */
import { pathToFileURL } from "node:url";
import { SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { otelTracer } from "ignite-element/tools/otel";
import { scriptedDemo } from "./run.js";

/** Runs the scripted demo with a tracer and returns its finished spans, in the order they ended. */
export async function traceDemo(): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = otelTracer(provider.getTracer("ignite-element-demo"));
  await scriptedDemo().run({ write: () => undefined, color: false, tracer });
  return exporter.getFinishedSpans();
}

/** The attributes shown beside a span's name; the rest are the same on every span of its kind. */
const SHOWN = [
  "gen_ai.tool.call.id",
  "error.type",
  "ignite.tool.failure_reason",
  "ignite.tool.held",
  "ignite.stop",
];

/** The spans as a tree, children in the order they started: name, phases, status, attributes. */
export function renderTree(spans: readonly ReadableSpan[]): string[] {
  const started = [...spans].sort(
    (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
  );
  const childrenOf = (parent: string | undefined) =>
    started.filter((span) => span.parentSpanContext?.spanId === parent);
  const line = (span: ReadableSpan) => {
    const phases = span.events.map((event) => event.name.replace("ignite.tool.", ""));
    const attributes = SHOWN.flatMap((key) =>
      span.attributes[key] === undefined ? [] : [`${key}=${String(span.attributes[key])}`],
    );
    return [
      span.name,
      ...(phases.length > 0 ? [`(${phases.join(" → ")})`] : []),
      ...(span.status.code === SpanStatusCode.ERROR ? ["ERROR"] : []),
      ...attributes,
    ].join("  ");
  };
  const walk = (span: ReadableSpan, prefix: string, last: boolean, root: boolean): string[] => {
    const head = root ? "" : `${prefix}${last ? "└─ " : "├─ "}`;
    const below = root ? "" : `${prefix}${last ? "   " : "│  "}`;
    const children = childrenOf(span.spanContext().spanId);
    return [
      `${head}${line(span)}`,
      ...children.flatMap((child, index) =>
        walk(child, below, index === children.length - 1, false),
      ),
    ];
  };
  return childrenOf(undefined).flatMap((span) => walk(span, "", true, true));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of renderTree(await traceDemo())) process.stdout.write(`${row}\n`);
}
