import type { Tracer } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { describe, expectTypeOf, it } from "vitest";
import { otelTracer } from "../../tools/adapters/otel.js";
import {
  fakeDialect,
  type IgniteToolsOptions,
  igniteTools,
  type ResumeToolLoopOptions,
  runToolLoop,
  scriptedModel,
  type ToolLoopOptions,
  type ToolTracer,
  type Tracing,
  tracing,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

type LoopOptions = ToolLoopOptions<unknown, never, unknown, unknown, unknown, unknown>;
type ResumeOptions = ResumeToolLoopOptions<unknown, never, unknown, unknown, unknown, unknown>;

describe("the tracer option", () => {
  it("takes the tracing layer on the bridge and a ToolTracer on the loop and the resumed loop — an OpenTelemetry Tracer through otelTracer, which makes both", () => {
    expectTypeOf<Tracing>().toExtend<NonNullable<IgniteToolsOptions["tracer"]>>();
    expectTypeOf<ToolTracer>().not.toExtend<NonNullable<IgniteToolsOptions["tracer"]>>();
    expectTypeOf<Tracing>().toExtend<ToolTracer>();
    expectTypeOf<NonNullable<LoopOptions["tracer"]>>().toEqualTypeOf<ToolTracer>();
    expectTypeOf<NonNullable<ResumeOptions["tracer"]>>().toEqualTypeOf<ToolTracer>();
    expectTypeOf<Tracer>().not.toExtend<ToolTracer>();
  });

  it("takes an SDK provider's tracer through otelTracer, without a cast", () => {
    const tracer = otelTracer(new BasicTracerProvider().getTracer("shop"));
    const { model } = scriptedModel([]);
    const run = () =>
      runToolLoop({
        tools: igniteTools(new Counter(), fakeDialect, { tracer }),
        model,
        messages: [],
        tracer,
      });
    expectTypeOf(run).returns.resolves.toHaveProperty("stop");
    expectTypeOf(
      otelTracer(new BasicTracerProvider().getTracer("shop"), { recordContent: true }),
    ).toEqualTypeOf<Tracing>();
    expectTypeOf(
      tracing({ start: () => ({ phase: () => {}, end: () => {} }) }),
    ).toEqualTypeOf<Tracing>();
  });

  it("refuses something that is neither", () => {
    const neither = { startActiveSpan: () => undefined };
    // @ts-expect-error not a ToolTracer
    const make = () => igniteTools(new Counter(), fakeDialect, { tracer: neither });
    expectTypeOf(make).toBeFunction();
  });
});
