import {
  type Context,
  type ContextManager,
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { otelTracer } from "../../tools/adapters/otel.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { type OllamaChatChunk, ollamaStream } from "../../tools/dialects/ollama/stream.js";
import {
  type AgentComponent,
  approval,
  fakeDialect,
  igniteTools,
  runToolLoop,
  scriptedModel,
  type Tracing,
} from "../../tools/index.js";
import { Counter } from "../fixtures.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = (recordContent = false): Tracing =>
  otelTracer(provider.getTracer("ignite-test"), { recordContent });

afterEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const only = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const events = (span: ReadableSpan) => span.events.map((event) => event.name);
/** The finished spans as a tree of names, children in start order. */
function tree(parent?: string, depth = 0): string[] {
  return spans()
    .filter((span) => parentOf(span) === parent)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
    .flatMap((span) => [`${"  ".repeat(depth)}${span.name}`, ...tree(idOf(span), depth + 1)]);
}

/** A context manager as simple as the browser's: the context `with` gives, while it runs. */
function stackContextManager(): ContextManager {
  const stack: Context[] = [ROOT_CONTEXT];
  return {
    active: () => stack.at(-1) ?? ROOT_CONTEXT,
    with: (within, fn, thisArg, ...args) => {
      stack.push(within);
      try {
        return fn.apply(thisArg, args);
      } finally {
        stack.pop();
      }
    },
    bind: (_within, target) => target,
    enable() {
      return this;
    },
    disable() {
      return this;
    },
  };
}

describe("otelTracer with igniteTools", () => {
  it("opens one execute_tool span per call, named and attributed by the GenAI conventions", async () => {
    const tools = igniteTools(new Counter(), fakeDialect, { tracer: tracer() });
    await tools.handleToolCalls({
      toolCalls: [{ id: "call_1", name: "increment", input: { by: 2 } }],
    });

    const span = only("execute_tool increment");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "increment",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The validation and execute phases, as events on the call's span.
    expect(events(span)).toEqual(["ignite.tool.validate", "ignite.tool.execute"]);
    expect(parentOf(span)).toBeUndefined();
  });

  it("records the input and result only when the application opts in", async () => {
    const plain = igniteTools(new Counter(), fakeDialect, { tracer: tracer() });
    await plain.invoke({ name: "increment", input: { by: 2 } });
    const [quiet] = spans();
    expect(Object.keys(quiet?.attributes ?? {})).not.toContain("gen_ai.tool.call.arguments");
    expect(Object.keys(quiet?.attributes ?? {})).not.toContain("gen_ai.tool.call.result");
    exporter.reset();

    const open = igniteTools(new Counter(), fakeDialect, { tracer: tracer(true) });
    await open.invoke({ name: "increment", input: { by: 2 } });
    expect(only("execute_tool increment").attributes).toMatchObject({
      "gen_ai.tool.call.arguments": '{"by":2}',
      "gen_ai.tool.call.result": JSON.stringify({
        snapshot: { count: 2, limit: 10, locked: false },
        events: [{ type: "incremented", payload: { by: 2 } }],
      }),
    });
  });

  it("sets status ERROR and error.type to the ToolError's kind, with the phase it reached", async () => {
    const failing = new Counter();
    failing.execute = async () => {
      throw new Error("disk full");
    };
    const tools = igniteTools(failing, fakeDialect, { tracer: tracer(true) });
    await tools.handleToolCalls({
      toolCalls: [
        { id: "1", name: "increment", input: { by: 99 } },
        { id: "2", name: "explode", input: {} },
        { id: "3", name: "reset", input: {} },
        { id: "4", name: "increment", input: { by: 1 } },
      ],
    });

    const [invalid, thrown] = named("execute_tool increment");
    expect(invalid?.attributes["error.type"]).toBe("InvalidInput");
    expect(invalid?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(invalid?.status.message).toContain("must be <= 5");
    expect(events(invalid as ReadableSpan)).toEqual(["ignite.tool.validate"]);
    expect(invalid?.attributes).not.toHaveProperty("gen_ai.tool.call.result");
    expect(only("execute_tool explode").attributes["error.type"]).toBe("UnknownCommand");
    expect(only("execute_tool reset").attributes["error.type"]).toBe("Unavailable");
    expect(thrown?.attributes).toMatchObject({
      "error.type": "ExecuteFailed",
      "ignite.tool.failure_reason": "threw",
    });
    expect(events(thrown as ReadableSpan)).toEqual(["ignite.tool.validate", "ignite.tool.execute"]);
  });

  it("ends a call the policy holds for a person as held, not as an error, and a denied one as Denied", async () => {
    const tools = igniteTools(new Counter(), fakeDialect, {
      tracer: tracer(),
      approve: approval(({ route }) =>
        route.command === "increment" ? "ask" : { deny: "not today" },
      ),
    });
    await tools.answerToolCalls({
      toolCalls: [
        { id: "1", name: "increment", input: { by: 1 } },
        { id: "2", name: "setLimit", input: 3 },
      ],
    });

    const held = only("execute_tool increment");
    expect(events(held)).toEqual([
      "ignite.tool.validate",
      "ignite.tool.approve",
      "ignite.tool.held",
    ]);
    expect(held.attributes["ignite.tool.held"]).toBe(true);
    expect(held.attributes).not.toHaveProperty("error.type");
    expect(held.status.code).toBe(SpanStatusCode.UNSET);
    const denied = only("execute_tool setLimit");
    expect(denied.attributes["error.type"]).toBe("Denied");
    expect(denied.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("goes under the span the application has active when no parent is given", async () => {
    context.setGlobalContextManager(stackContextManager());
    try {
      const tools = igniteTools(new Counter(), fakeDialect, { tracer: tracer() });
      const outer = provider.getTracer("app").startSpan("handle request");
      await context.with(trace.setSpan(context.active(), outer), () =>
        tools.invoke({ name: "increment", input: {} }),
      );
      outer.end();
      expect(parentOf(only("execute_tool increment"))).toBe(outer.spanContext().spanId);
    } finally {
      context.disable();
    }
  });

  it("refuses a tracer that is not a ToolTracer, saying what it lacks", () => {
    const notATracer = { startActiveSpan: () => undefined };
    // @ts-expect-error no startSpan and no start
    expect(() => igniteTools(new Counter(), fakeDialect, { tracer: notATracer })).toThrow(
      new TypeError("tracing: tracer must be a ToolTracer (an object with start), not an object"),
    );
  });

  it("records the command's progress and log lines as events on its call's span, log data only when opted in", async () => {
    const preheating: AgentComponent<string> = {
      getSchema: () => ({ commands: { preheat: {} } }),
      execute(_command, _input, context) {
        context?.progress({ progress: 1, total: 2, message: "halfway" });
        context?.log("warning", "the door is warm", { celsius: 45 });
        return { state: "hot", events: [] };
      },
    };
    const eventsOf = async (recordContent: boolean) => {
      exporter.reset();
      const tools = igniteTools(preheating, undefined, { tracer: tracer(recordContent) });
      await tools.invoke({ name: "preheat", input: {} });
      return only("execute_tool preheat").events.map(({ name, attributes }) => ({
        name,
        attributes,
      }));
    };

    expect(await eventsOf(false)).toEqual([
      { name: "ignite.tool.validate", attributes: {} },
      { name: "ignite.tool.execute", attributes: {} },
      {
        name: "ignite.tool.progress",
        attributes: {
          "ignite.progress": 1,
          "ignite.progress.total": 2,
          "ignite.progress.message": "halfway",
        },
      },
      {
        name: "ignite.tool.log",
        attributes: { "ignite.log.level": "warning", "ignite.log.message": "the door is warm" },
      },
    ]);
    expect((await eventsOf(true))[3]?.attributes).toEqual({
      "ignite.log.level": "warning",
      "ignite.log.message": "the door is warm",
      "ignite.log.data": '{"celsius":45}',
    });
  });

  it("records nothing and costs no span without a tracer", async () => {
    await igniteTools(new Counter()).invoke({ name: "increment", input: {} });
    expect(spans()).toEqual([]);
  });
});

describe("otelTracer with runToolLoop", () => {
  it("shows the whole run: invoke_agent, a turn each, its chat request and its tool calls", async () => {
    const shared = tracer();
    const { model } = scriptedModel([
      [
        { id: "1", name: "increment", input: { by: 2 } },
        { id: "2", name: "setLimit", input: 99 },
      ],
      [{ id: "3", name: "reset", input: {} }],
    ]);
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect, { tracer: shared }),
      model,
      messages: [{ role: "user", content: "Go." }],
      tracer: shared,
      modelName: "scripted-1",
      agentName: "counter",
    });
    expect(result.stop).toBe("done");

    expect(tree()).toEqual([
      "invoke_agent counter",
      "  turn 1",
      "    chat scripted-1",
      "    execute_tool increment",
      "    execute_tool setLimit",
      "  turn 2",
      "    chat scripted-1",
      "    execute_tool reset",
      "  turn 3",
      "    chat scripted-1",
    ]);
    const run = only("invoke_agent counter");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "counter",
      "ignite.stop": "done",
    });
    const [chat] = named("chat scripted-1");
    expect(chat?.kind).toBe(SpanKind.CLIENT);
    expect(chat?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "scripted-1",
      "ignite.turn": 1,
    });
    expect(only("execute_tool setLimit").attributes["error.type"]).toBe("InvalidInput");
    // One trace.
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("marks the request and the run ERROR when the model function throws", async () => {
    const shared = tracer();
    const result = await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect, { tracer: shared }),
      model: async () => {
        throw new TypeError("503 Service Unavailable");
      },
      messages: [],
      tracer: shared,
    });
    expect(result.stop).toBe("error");
    expect(tree()).toEqual(["invoke_agent", "  turn 1", "    chat"]);
    expect(only("chat").attributes["error.type"]).toBe("TypeError");
    expect(only("chat").status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "503 Service Unavailable",
    });
    expect(only("chat").events.map((event) => event.name)).toEqual(["exception"]);
    expect(only("invoke_agent").attributes).toMatchObject({
      "error.type": "TypeError",
      "ignite.stop": "error",
    });
  });

  it("ends the turn and the run with what onStep threw, and lets the throw reach the application", async () => {
    const shared = tracer();
    const bug = new RangeError("onStep broke");
    const running = runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect, { tracer: shared }),
      model: scriptedModel([[{ id: "c1", name: "increment", input: { by: 1 } }]]).model,
      messages: [],
      onStep: () => {
        throw bug;
      },
      tracer: shared,
    });
    await expect(running).rejects.toBe(bug);
    expect(tree()).toEqual(["invoke_agent", "  turn 1", "    chat", "    execute_tool increment"]);
    for (const name of ["turn 1", "invoke_agent"]) {
      expect(only(name).attributes["error.type"]).toBe("RangeError");
      expect(only(name).status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  it("starts a streamed call's span while its chat request is still streaming", async () => {
    const shared = tracer();
    const counter = new Counter();
    const chunk = (message: OllamaChatChunk["message"], done = false): OllamaChatChunk => ({
      message,
      done,
      ...(done ? { done_reason: "stop" } : {}),
    });
    const call = (name: string, args: Record<string, unknown>) =>
      chunk({
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name, arguments: args } }],
      });
    async function* turn(parts: OllamaChatChunk[]) {
      for (const part of parts) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield part;
      }
    }
    let turns = 0;
    await runToolLoop({
      tools: igniteTools(counter, ollama, { tracer: shared }),
      stream: ollamaStream,
      model: () =>
        turns++ === 0
          ? turn([
              call("increment", { by: 1 }),
              call("increment", { by: 2 }),
              chunk({ role: "assistant", content: "" }, true),
            ])
          : turn([chunk({ role: "assistant", content: "Done." }, true)]),
      messages: [{ role: "user", content: "Go." }],
      tracer: shared,
    });

    const [chat] = named("chat");
    const [first, second] = named("execute_tool increment");
    const nanos = ([seconds, nanoseconds]: [number, number]) => seconds * 1e9 + nanoseconds;
    expect(nanos(first?.endTime ?? [0, 0])).toBeLessThan(nanos(chat?.endTime ?? [0, 0]));
    expect(nanos(second?.startTime ?? [0, 0])).toBeLessThan(nanos(chat?.endTime ?? [0, 0]));
    expect(parentOf(first as ReadableSpan)).toBe(parentOf(chat as ReadableSpan));
    expect(counter.calls.map((made) => made.input)).toEqual([{ by: 1 }, { by: 2 }]);
  });
});

// The form before layers, still taken on Node (compat/legacy.ts): its types no longer admit it.
const asItIs = (tracer: Tracer) => tracer as unknown as Tracing;

describe("on Node, an OpenTelemetry Tracer passed as it is (the form before otelTracer)", () => {
  // What one run records, span by span: name, kind, parent's name, attributes, status, events.
  const recorded = () => {
    const byId = new Map(spans().map((span) => [idOf(span), span.name]));
    return spans()
      .map((span) => ({
        name: span.name,
        kind: span.kind,
        parent: byId.get(parentOf(span) ?? ""),
        attributes: span.attributes,
        status: span.status,
        events: events(span),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  };
  const run = async (tracer: Tracing) => {
    const { model } = scriptedModel([
      [
        { id: "1", name: "increment", input: { by: 2 } },
        { id: "2", name: "setLimit", input: 99 },
      ],
    ]);
    await runToolLoop({
      tools: igniteTools(new Counter(), fakeDialect, { tracer }),
      model,
      messages: [{ role: "user", content: "Go." }],
      tracer,
      modelName: "scripted-1",
      agentName: "counter",
    });
    const seen = recorded();
    exporter.reset();
    return seen;
  };

  it("makes the spans otelTracer makes, each call's under its turn, with igniteTools and runToolLoop", async () => {
    const raw = await run(asItIs(provider.getTracer("ignite-test")));
    expect(raw).toEqual(await run(tracer()));
    expect(raw.map(({ name, parent }) => [name, parent])).toEqual([
      ["chat scripted-1", "turn 1"],
      ["chat scripted-1", "turn 2"],
      ["execute_tool increment", "turn 1"],
      ["execute_tool setLimit", "turn 1"],
      ["invoke_agent counter", undefined],
      ["turn 1", "invoke_agent counter"],
      ["turn 2", "invoke_agent counter"],
    ]);
    expect(raw.find((span) => span.name === "execute_tool setLimit")).toMatchObject({
      attributes: { "error.type": "InvalidInput", "gen_ai.tool.call.id": "2" },
      status: { code: SpanStatusCode.ERROR },
      events: ["ignite.tool.validate"],
    });
  });

  it("goes under the span the application has active when a unit has no parent", async () => {
    const outer = provider.getTracer("app").startSpan("handle request");
    const tools = igniteTools(new Counter(), fakeDialect, {
      tracer: asItIs(provider.getTracer("raw")),
    });
    context.setGlobalContextManager(stackContextManager());
    try {
      await context.with(trace.setSpan(context.active(), outer), () =>
        tools.invoke({ name: "increment", input: {} }),
      );
    } finally {
      context.disable();
    }
    outer.end();
    expect(parentOf(only("execute_tool increment"))).toBe(outer.spanContext().spanId);
  });
});
