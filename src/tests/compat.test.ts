import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import * as current from "../tools/compat/current.js";
import {
  fakeDialect,
  type IgniteToolsOptions,
  igniteTools,
  type LiveChange,
  memoryLedger,
  runToolLoop,
  scriptedModel,
  type ToolLoopOptions,
} from "../tools/index.js";
import { Counter } from "./fixtures.js";
import { type OvenEvent, type OvenState, oven } from "./shell/oven.js";

// The option forms before layers, given as a JavaScript caller (or code written for 0.1) gives
// them: their types no longer admit them.
const before0_2 = (options: Record<string, unknown>) =>
  options as IgniteToolsOptions<OvenState, OvenEvent>;
type LegacyBridge = {
  observe(listener: (change: LiveChange<OvenState, OvenEvent>) => void): () => void;
  until(match: (change: LiveChange<OvenState, OvenEvent>) => boolean): Promise<unknown>;
};

describe("on Node, the option forms before layers still work", () => {
  it("takes approve as a plain policy, and holds what it asks about", async () => {
    const { component } = oven();
    const tools = igniteTools(component, fakeDialect, before0_2({ approve: () => "ask" }));
    const [answer] = await tools.answerToolCalls({
      toolCalls: [{ id: "p", name: "preheat", input: { target: 180 } }],
    });
    expect(answer?.pending).toMatchObject({ command: "preheat", input: { target: 180 } });
  });

  it("takes wait as { maxMs }, and offers the wait tool", () => {
    const { component } = oven();
    const tools = igniteTools(component, fakeDialect, before0_2({ wait: { maxMs: 1_000 } }));
    expect(tools.manifest().map((tool) => tool.name)).toContain("waitFor");
  });

  it("takes an OpenTelemetry Tracer as it is", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tools = igniteTools(new Counter(), fakeDialect, {
      tracer: provider.getTracer("as-it-is") as never,
    });
    await tools.invoke({ name: "increment", input: { by: 1 } });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
      "execute_tool increment",
    ]);
  });

  it("gives every bridge observe and until as methods", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect) as unknown as LegacyBridge;
    const heard: string[] = [];
    const stop = tools.observe(({ event }) => heard.push(event?.type ?? "state"));
    const preheated = tools.until(({ snapshot }) => snapshot.preheated);
    world.preheated();
    await preheated;
    stop();
    expect(heard).toEqual(["preheated"]);
  });

  it("records a call given a ledger on a bridge built without approve", async () => {
    const component = new Counter();
    const tools = igniteTools(component, fakeDialect);
    const ledger = memoryLedger();
    const call = { id: "1", name: "increment", input: { by: 1 } };
    await tools.invoke(call, { ledger, scope: "s" });
    await tools.invoke(call, { ledger, scope: "s" });
    expect(component.calls).toHaveLength(1);
  });

  it("takes tellChanges as true or { maxChars }", async () => {
    for (const tellChanges of [true, { maxChars: 800 }]) {
      const { component, world } = oven();
      const tools = igniteTools(component, fakeDialect);
      const { model } = scriptedModel([
        () => {
          world.openDoor();
          return { toolCalls: [{ id: "p", name: "preheat", input: { target: 180 } }] };
        },
        [],
      ]);
      const options = { tools, model, messages: [], tellChanges };
      const result = await runToolLoop(
        options as unknown as ToolLoopOptions<OvenState, OvenEvent, never, never, never, never>,
      );
      expect(result.steps[1]?.told).toContain('{"type":"doorOpened"}');
    }
  });
});

describe("in browsers and workers, a form before layers is refused, saying what replaces it", () => {
  const component = () => oven().component;
  it.each([
    [
      "approve: policy",
      { approve: () => "allow" },
      "approve takes what approval(policy) makes, not a function",
    ],
    [
      "wait: { maxMs }",
      { wait: { maxMs: 1_000 } },
      "wait takes what waitTool({ maxMs }) makes, not an object",
    ],
    [
      "an OpenTelemetry Tracer as it is",
      { tracer: new BasicTracerProvider().getTracer("raw") },
      "tracer takes what otelTracer(tracer) or tracing(toolTracer) makes, not a Tracer",
    ],
  ])("%s", (_, options, message) => {
    expect(() => current.igniteTools(component(), fakeDialect, before0_2(options))).toThrow(
      new TypeError(`igniteTools: ${message} (see CHANGELOG.md)`),
    );
  });

  it("tellChanges: true", async () => {
    const tools = current.igniteTools(component(), fakeDialect);
    const { model } = scriptedModel([]);
    const options = { tools, model, messages: [], tellChanges: true };
    await expect(
      current.runToolLoop(
        options as unknown as ToolLoopOptions<OvenState, OvenEvent, never, never, never, never>,
      ),
    ).rejects.toThrow(
      "runToolLoop: tellChanges takes what changeNotes({ maxChars }) makes, not a boolean",
    );
  });

  it("a ledger given to a bridge built without approval: the call is answered, and nothing runs", async () => {
    const counter = new Counter();
    const tools = current.igniteTools(counter, fakeDialect);
    const outcome = await tools.invoke(
      { id: "1", name: "increment", input: { by: 1 } },
      { ledger: memoryLedger() },
    );
    expect(outcome).toMatchObject({
      ok: false,
      error: { kind: "ExecuteFailed", reason: "ledger" },
    });
    expect(counter.calls).toHaveLength(0);
  });

  it("has no observe or until methods: they are functions of their own", () => {
    expect("observe" in current.igniteTools(component(), fakeDialect)).toBe(false);
  });
});
