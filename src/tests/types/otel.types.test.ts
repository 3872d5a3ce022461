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
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

type LoopOptions = ToolLoopOptions<unknown, never, unknown, unknown, unknown, unknown>;
type ResumeOptions = ResumeToolLoopOptions<unknown, never, unknown, unknown, unknown, unknown>;

describe("the tracer option", () => {
  it("takes an OpenTelemetry Tracer as it is, on the bridge, the loop and the resumed loop", () => {
    expectTypeOf<Tracer>().toExtend<NonNullable<IgniteToolsOptions["tracer"]>>();
    expectTypeOf<Tracer>().toExtend<NonNullable<LoopOptions["tracer"]>>();
    expectTypeOf<Tracer>().toExtend<NonNullable<ResumeOptions["tracer"]>>();
  });

  it("takes an SDK provider's tracer, or otelTracer's, without a cast", () => {
    const tracer = new BasicTracerProvider().getTracer("shop");
    const { model } = scriptedModel([]);
    const run = () =>
      runToolLoop({
        tools: igniteTools(new Counter(), fakeDialect, { tracer }),
        model,
        messages: [],
        tracer,
      });
    expectTypeOf(run).returns.resolves.toHaveProperty("stop");
    expectTypeOf(otelTracer(tracer, { recordContent: true })).toEqualTypeOf<ToolTracer>();
    expectTypeOf(
      igniteTools(new Counter(), fakeDialect, { tracer: otelTracer(tracer) }),
    ).toHaveProperty("invoke");
  });

  it("refuses something that is neither", () => {
    const neither = { startActiveSpan: () => undefined };
    // @ts-expect-error neither startSpan nor start
    const make = () => igniteTools(new Counter(), fakeDialect, { tracer: neither });
    expectTypeOf(make).toBeFunction();
  });
});
