import { getActiveResourcesInfo } from "node:process";
import { Server } from "@modelcontextprotocol/server";
import { trace } from "@opentelemetry/api";
import fc from "fast-check";
import { serveMcpHttp } from "ignite-element/tools/mcp-http";
import { mcpServerFactory, serveMcp } from "ignite-element/tools/mcp-server";
import { fromMobx } from "ignite-element/tools/mobx";
import { openai } from "ignite-element/tools/openai";
import { otelTracer } from "ignite-element/tools/otel";
import { fromSlice } from "ignite-element/tools/redux";
import { describe, expect, it } from "vitest";
import { checkTracer } from "../tools/bridge/checks.js";
import { given } from "../tools/core/checks.js";
import {
  approval,
  approveCall,
  denyCall,
  fakeDialect,
  igniteTools,
  memoryLedger,
  type PendingCall,
  resumeToolLoop,
  runToolLoop,
  scriptedModel,
  type ToolWarning,
  tracing,
  until,
  waitTool,
} from "../tools/index.js";
import { Counter } from "./fixtures.js";
import { oven } from "./shell/oven.js";

// Issue 46: the public API called as a careless JavaScript caller calls it. Every bad argument is
// a TypeError at the place it was given, naming the function, the option, what was given and
// what is allowed — and nothing ran, nothing is left listening, no timer fires later (vitest
// fails the run on an error thrown after a test has ended). A function that returns a promise
// rejects; it never throws before returning one.

/** A value as JavaScript code hands it over, whatever the types say. */
const loose = <T>(value: unknown): T => value as T;

/** The loops as JavaScript calls them: with anything. */
const loop = loose<(options?: unknown) => Promise<unknown>>(runToolLoop);
const resume = loose<(options?: unknown) => Promise<unknown>>(resumeToolLoop);

/** A bridge over a counter that records each `execute`, for the loop and `invoke`. */
function counted() {
  const counter = new Counter();
  const tools = igniteTools(counter, fakeDialect, { approve: approval(() => "allow") });
  return { counter, tools };
}

/** Asserts `call` returns a promise that rejects with a TypeError whose message is `message`. */
async function rejects(call: () => unknown, message: string | RegExp): Promise<void> {
  let returned: unknown;
  expect(() => {
    returned = call();
  }, "it returns a promise rather than throwing").not.toThrow();
  expect(returned).toBeInstanceOf(Promise);
  await expect(returned).rejects.toThrow(TypeError);
  await expect(returned).rejects.toThrow(message);
}

/** The servers this process listens on: none may be left behind by a refused call. */
const listening = () =>
  getActiveResourcesInfo().filter((name) => /ServerWrap|PipeServer/.test(name)).length;

describe("the loop refuses a bad argument before the model is asked", () => {
  const cases: [string, (tools: ReturnType<typeof counted>["tools"]) => unknown, string][] = [
    ["no options at all", () => loop(), "runToolLoop: options must be an object, not undefined"],
    [
      "maxTurns as a string",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], maxTurns: "3" }),
      'runToolLoop: maxTurns must be a whole number from 1 up, not "3" (a string)',
    ],
    [
      "maxTurns of 0",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], maxTurns: 0 }),
      "runToolLoop: maxTurns must be a whole number from 1 up, not 0",
    ],
    [
      "maxTurns of -1",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], maxTurns: -1 }),
      "not -1",
    ],
    [
      "maxTurns of NaN",
      (tools) =>
        loop({ tools, model: scriptedModel([]).model, messages: [], maxTurns: Number.NaN }),
      "not NaN",
    ],
    [
      "maxTurns of 1.5",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], maxTurns: 1.5 }),
      "not 1.5",
    ],
    [
      "messages as a string",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: "hi" }),
      'runToolLoop: messages must be a list, not "hi" (a string)',
    ],
    [
      "a model that is not a function",
      (tools) => loop({ tools, model: {}, messages: [] }),
      "runToolLoop: model must be a function, not an object",
    ],
    [
      "a signal that is not one",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], signal: {} }),
      "runToolLoop: signal must be an AbortSignal, not an object",
    ],
    [
      "an object as runId",
      (tools) =>
        loop({
          tools,
          model: scriptedModel([]).model,
          messages: [],
          runId: { id: 1 },
        }),
      "runToolLoop: runId must be a non-empty string, not an object",
    ],
    [
      "a ledger that is not one",
      (tools) => loop({ tools, model: scriptedModel([]).model, messages: [], ledger: {} }),
      "runToolLoop: ledger must be a CallLedger (get, begin, renew and finish), not an object",
    ],
    [
      "tellChanges in its 0.1 form, in a browser build",
      (tools) =>
        loop({
          tools,
          model: scriptedModel([]).model,
          messages: [],
          tellChanges: "yes",
        }),
      "runToolLoop: tellChanges takes what changeNotes({ maxChars }) makes",
    ],
    [
      "tools that are no bridge",
      () => loop({ tools: {}, model: scriptedModel([]).model, messages: [] }),
      "runToolLoop: tools must be a bridge made by igniteTools with a loop dialect",
    ],
  ];
  it.each(cases)("rejects %s, and runs nothing", async (_, call, message) => {
    const { counter, tools } = counted();
    await rejects(() => call(tools), message);
    expect(counter.calls).toEqual([]);
  });

  it("rejects, never throws, what the 0.1 form of tellChanges cannot take", async () => {
    const { counter, tools } = counted();
    const { model } = scriptedModel([]);
    await rejects(
      () => loop({ tools, model, messages: [], tellChanges: { maxChars: -1 } }),
      "changeNotes",
    );
    await rejects(
      () => resume({ tools, model, state: {}, decisions: [], tellChanges: { maxChars: -1 } }),
      "changeNotes",
    );
    expect(counter.calls).toEqual([]);
  });
});

describe("a resume refuses a bad argument before an approved call runs", () => {
  /** A loop paused on one increment the policy asks about. */
  async function paused() {
    const counter = new Counter();
    const tools = igniteTools(counter, fakeDialect, { approve: approval(() => "ask") });
    const { model } = scriptedModel([[{ id: "c1", name: "increment", input: { by: 1 } }]]);
    const result = await runToolLoop({ tools, model, messages: [] });
    if (result.stop !== "approval") throw new Error("expected a pause");
    return { counter, tools, model, result };
  }

  it("rejects a signal that is not one, and the approved call does not run", async () => {
    const { counter, tools, model, result } = await paused();
    const decisions = result.pending.map((call) => approveCall(call));
    await rejects(
      () => resume({ tools, model, state: result.state, decisions, signal: {} }),
      "resumeToolLoop: signal must be an AbortSignal, not an object",
    );
    expect(counter.calls).toEqual([]);
  });

  it("rejects the paused state given as its JSON text, saying to parse it", async () => {
    const { counter, tools, model, result } = await paused();
    const decisions = result.pending.map((call) => approveCall(call));
    await rejects(
      () => resume({ tools, model, state: JSON.stringify(result.state), decisions }),
      "resumeToolLoop: state must be the paused state object, not its JSON text (a string): pass JSON.parse(text)",
    );
    await rejects(
      () => resume({ tools, model, decisions }),
      "resumeToolLoop: state must be an object, not undefined",
    );
    expect(counter.calls).toEqual([]);
  });

  it("rejects a decision whose verdict is not one rather than taking it for a denial", async () => {
    const { counter, tools, model, result } = await paused();
    const [pending] = result.pending;
    const decisions = [{ digest: pending?.digest, verdict: "yes" }];
    await rejects(
      () => resume({ tools, model, state: result.state, decisions }),
      'resumeToolLoop: decisions must be what approveCall and denyCall make, not an object with verdict "yes" (a string)',
    );
    expect(counter.calls).toEqual([]);
  });

  it("rejects decisions that are not what approveCall and denyCall make, before anything runs", async () => {
    const { counter, tools, model, result } = await paused();
    const [pending] = result.pending as [PendingCall];
    await rejects(
      () => resume({ tools, model, state: result.state, decisions: ["allow"] }),
      'resumeToolLoop: decisions must be what approveCall and denyCall make, not "allow" (a string)',
    );
    await rejects(
      () =>
        resume({
          tools,
          model,
          state: result.state,
          decisions: [{ digest: pending.digest, verdict: "allow", expiresAt: "soon" }],
        }),
      'not an object with verdict "allow" (a string)',
    );
    expect(counter.calls).toEqual([]);
  });

  it("refuses an expiry that is no time where the decision is made, not at the resume", async () => {
    const { result } = await paused();
    const [pending] = result.pending as [PendingCall];
    expect(() => approveCall(pending, { expiresAt: loose("tomorrow") })).toThrow(
      'approveCall: expiresAt must be a time in milliseconds since the epoch, such as Date.now() + 60_000, not "tomorrow" (a string)',
    );
    expect(() => approveCall(loose(undefined))).toThrow(
      "approveCall: pending must be a PendingCall (an entry of a paused result's pending), not undefined",
    );
    expect(() => denyCall(pending, loose({ why: "no" }))).toThrow(
      "denyCall: reason must be a non-empty string, not an object",
    );
    // What map passes as its second argument, an index, is no option and no reason.
    expect(result.pending.map(loose<(call: PendingCall) => unknown>(approveCall))).toEqual([
      { digest: pending.digest, verdict: "allow" },
    ]);
    expect(result.pending.map(loose<(call: PendingCall) => unknown>(denyCall))).toEqual([
      { digest: pending.digest, verdict: "deny" },
    ]);
  });
});

describe("a call refuses bad options before execute can run", () => {
  const cases: [string, unknown, string][] = [
    [
      "a signal that is not one",
      { signal: {} },
      "invoke: signal must be an AbortSignal, not an object",
    ],
    [
      "an object as scope",
      { scope: { conversation: 1 }, ledger: memoryLedger() },
      "invoke: scope must be a non-empty string, not an object",
    ],
    [
      "a ledger that is not one",
      { ledger: {} },
      "invoke: ledger must be a CallLedger (get, begin, renew and finish), not an object",
    ],
    [
      "a lease of 0 ms",
      { ledger: memoryLedger(), leaseMs: 0 },
      "invoke: leaseMs must be a whole number from 1 up, not 0",
    ],
    ["options as a string", "fast", 'invoke: options must be an object, not "fast" (a string)'],
  ];
  it.each(cases)("rejects %s, and the call does not run", async (_, options, message) => {
    const counter = new Counter();
    const tools = igniteTools(counter, undefined, {
      approve: approval(() => "allow"),
      timeoutMs: 200,
    });
    await rejects(() => tools.invoke({ name: "increment", input: {} }, loose(options)), message);
    // A timer armed before the refusal would fire now, as an uncaught error.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(counter.calls).toEqual([]);
  });

  it("rejects a response that is not one in answerToolCalls and handleToolCalls, never throws", async () => {
    const { counter } = counted();
    const tools = igniteTools(counter, openai);
    await rejects(() => tools.answerToolCalls(loose("x")), "expects");
    await rejects(() => tools.handleToolCalls(loose("x")), "expects");
    expect(counter.calls).toEqual([]);
  });
});

describe("until refuses a bad argument before it subscribes or arms a timer", () => {
  it("rejects a signal that is not one, and no timer fires after", async () => {
    const { component } = oven();
    const tools = igniteTools(component);
    await rejects(
      () => until(tools, () => false, { signal: loose({}), timeoutMs: 200 }),
      "until: signal must be an AbortSignal, not an object",
    );
    await rejects(
      () => until(tools, () => false, { timeoutMs: -1 }),
      "until: timeoutMs must be a number of milliseconds from 0 up (Infinity for none), not -1",
    );
    await rejects(
      () => until(tools, loose("ready")),
      'until: match must be a function, not "ready"',
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
  });
});

describe("igniteTools refuses a bad argument where it is given", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "a dialect's name instead of the dialect",
      () => igniteTools(new Counter(), loose<undefined>("openai")),
      'igniteTools: dialect must be a dialect (such as openai, from its entrypoint) or undefined, not "openai" (a string)',
    ],
    [
      "options in the dialect's place",
      () => igniteTools(new Counter(), loose<undefined>({ timeoutMs: 5 })),
      "(options go third: igniteTools(component, undefined, options))",
    ],
    [
      "a validator's name",
      () => igniteTools(new Counter(), undefined, { validator: loose("ajv") }),
      'igniteTools: validator must be an InputValidator, not "ajv" (a string)',
    ],
    [
      "maxInputBytes of NaN",
      () => igniteTools(new Counter(), undefined, { maxInputBytes: Number.NaN }),
      "igniteTools: maxInputBytes must be a whole number from 1 up, not NaN",
    ],
    [
      "maxInputBytes of -1",
      () => igniteTools(new Counter(), undefined, { maxInputBytes: -1 }),
      "not -1",
    ],
    [
      "maxInputDepth of 0",
      () => igniteTools(new Counter(), undefined, { maxInputDepth: 0 }),
      "igniteTools: maxInputDepth must be a whole number from 1 up, not 0",
    ],
    [
      "timeoutMs as a string",
      () => igniteTools(new Counter(), undefined, { timeoutMs: loose("5000") }),
      'igniteTools: timeoutMs must be a number of milliseconds from 0 up (Infinity for none), not "5000" (a string)',
    ],
    [
      "offer misspelt",
      () => igniteTools(new Counter(), undefined, { offer: loose("all") }),
      'igniteTools: offer must be one of "available", "declared", not "all" (a string)',
    ],
    [
      "null options",
      () => igniteTools(new Counter(), undefined, loose(null)),
      "igniteTools: options must be an object, not null",
    ],
  ];
  it.each(cases)("throws a TypeError for %s", (_, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it("tells onWarning of an option it does not take, with the one it was likely meant to be", () => {
    const warnings: ToolWarning[] = [];
    igniteTools(new Counter(), undefined, {
      onWarning: (warning) => warnings.push(warning),
      ...loose<object>({ timeoutMS: 5000 }),
    });
    expect(warnings).toEqual([
      {
        code: "unknown-option",
        message:
          'igniteTools: ignored the option "timeoutMS", which it does not take (did you mean "timeoutMs"?).',
      },
    ]);
  });

  it("tells onWarning of a loop option it does not take", async () => {
    const warnings: ToolWarning[] = [];
    const tools = igniteTools(new Counter(), fakeDialect, {
      onWarning: (warning) => warnings.push(warning),
    });
    const { model } = scriptedModel([]);
    await runToolLoop({ tools, model, messages: [], ...loose<object>({ maxTurn: 3 }) });
    expect(warnings.map(({ message }) => message)).toEqual([
      'runToolLoop: ignored the option "maxTurn", which it does not take (did you mean "maxTurns"?).',
    ]);
  });
});

describe("the layers refuse what is not theirs where they are made", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "a policy that is not a function",
      () => approval(loose("allow")),
      'approval: policy must be a function, not "allow" (a string)',
    ],
    [
      "a wait with no maxMs",
      () => waitTool(loose({})),
      "waitTool: maxMs must be a whole number from 1 to 2147483647, not undefined",
    ],
    ["a wait of 30 days", () => waitTool({ maxMs: 30 * 86_400_000 }), "not 2592000000"],
    [
      "a wait named with a space",
      () => waitTool({ maxMs: 1000, name: "wait for" }),
      "waitTool: name must be a tool name",
    ],
    [
      "a tracer with no start",
      () => tracing(loose({})),
      "tracing: tracer must be a ToolTracer (an object with start), not an object",
    ],
    [
      "the OpenTelemetry API in place of a tracer",
      () => otelTracer(loose(trace)),
      'give trace.getTracer("your-app"), not trace itself',
    ],
    [
      "a tracer that is no OpenTelemetry Tracer",
      () => otelTracer(loose({ start: () => undefined })),
      'otelTracer: tracer must be an OpenTelemetry Tracer (trace.getTracer("your-app")), not an object',
    ],
    [
      "fromSlice with nothing",
      () => loose<(...args: unknown[]) => unknown>(fromSlice)(),
      "fromSlice: store must be a Redux store (configureStore's: getState, dispatch, subscribe), not undefined",
    ],
    [
      "fromMobx with nothing",
      () => loose<(...args: unknown[]) => unknown>(fromMobx)(),
      "fromMobx: store must be an object, not undefined",
    ],
    [
      "fromMobx without commands",
      () => loose<(...args: unknown[]) => unknown>(fromMobx)({}, {}),
      "fromMobx: options must be an object with commands",
    ],
  ];
  it.each(cases)("throws a TypeError for %s", (_, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });

  it("answers a policy's non-verdict with a denial that names it, and tells the application", async () => {
    const warnings: ToolWarning[] = [];
    const counter = new Counter();
    const tools = igniteTools(counter, undefined, {
      approve: approval(loose(() => true)),
      onWarning: (warning) => warnings.push(warning),
    });
    const outcome = await tools.invoke({ id: "c1", name: "increment", input: {} });
    expect(outcome.ok ? "" : outcome.error.message).toContain(
      'the approval policy gave true, which is not a verdict ("allow", "ask", "deny", { deny: reason } or { ask: questions })',
    );
    expect(warnings.map(({ code }) => code)).toEqual(["policy-not-a-verdict"]);
    expect(counter.calls).toEqual([]);
  });

  it("refuses the approval factory given uncalled as approve, where it is given", () => {
    // On Node a function is still taken as a policy (the 0.1 form), so this one is told apart.
    expect(() => igniteTools(new Counter(), undefined, { approve: loose(approval) })).toThrow(
      /approve takes approval\(policy\)/,
    );
  });

  it("goes on untraced when a tracer's start gives no handle, and invoke still answers", async () => {
    const warnings: ToolWarning[] = [];
    const tools = igniteTools(new Counter(), undefined, {
      tracer: tracing({ start: loose(() => 5) }),
      onWarning: (warning) => warnings.push(warning),
    });
    const outcome = await tools.invoke({ name: "increment", input: {} });
    expect(outcome.ok).toBe(true);
    expect(warnings.map(({ message }) => message)).toEqual([
      "tracing: the tracer's start() gave 5, not a TraceHandle (phase and end): the call is not traced.",
    ]);
  });
});

describe("the MCP hosts refuse a bad option before anything listens", () => {
  const cases: [string, object, string][] = [
    [
      "a path without its slash",
      { path: "mcp" },
      'serveMcpHttp: path must be a path starting with "/" (such as "/mcp"), not "mcp" (a string)',
    ],
    [
      "a port that is a word",
      { port: "abc" },
      'serveMcpHttp: port must be a whole number from 0 to 65535, not "abc" (a string)',
    ],
    [
      "an empty allowedHosts",
      { allowedHosts: [] },
      "serveMcpHttp: allowedHosts must be a non-empty list of non-empty strings, not an empty list",
    ],
    ["allowedHosts as a string", { allowedHosts: "localhost" }, 'not "localhost" (a string)'],
    [
      "an empty allowedHosts beyond loopback",
      { host: "0.0.0.0", allowedHosts: [] },
      "not an empty list",
    ],
    [
      "an empty allowedOrigins",
      { allowedOrigins: [] },
      "serveMcpHttp: allowedOrigins must be a non-empty list of non-empty strings, not an empty list",
    ],
    [
      "idleTimeoutMs of -1",
      { idleTimeoutMs: -1 },
      "serveMcpHttp: idleTimeoutMs must be a whole number from 1 to 2147483647, not -1",
    ],
    ["idleTimeoutMs of NaN", { idleTimeoutMs: Number.NaN }, "not NaN"],
    ["idleTimeoutMs as a word", { idleTimeoutMs: "x" }, 'not "x" (a string)'],
    ["idleTimeoutMs of Infinity", { idleTimeoutMs: Number.POSITIVE_INFINITY }, "not Infinity"],
    [
      "a requestStateKey shorter than 32 bytes",
      { requestStateKey: "short" },
      'serveMcpHttp: requestStateKey must be a string or a Uint8Array of at least 32 bytes, not "short" (a string)',
    ],
    [
      "approvalTtlSeconds of 0",
      { approvalTtlSeconds: 0 },
      "serveMcpHttp: approvalTtlSeconds must be a whole number from 1 up, not 0",
    ],
  ];
  it.each(cases)("rejects %s, leaving nothing listening", async (_, options, message) => {
    const before = listening();
    await rejects(() => serveMcpHttp(new Counter(), loose(options)), message);
    expect(listening()).toBe(before);
  });

  it("refuses serveMcp without a server, saying what it takes", () => {
    expect(() => serveMcp(loose(undefined), new Counter())).toThrow(
      "serveMcp: server must be an MCP SDK Server (new Server({ name, version }) from @modelcontextprotocol/server), not undefined",
    );
    expect(() => serveMcp(new Server({ name: "t", version: "1" }), new Counter())).not.toThrow();
  });

  it("refuses a requestStateKey shorter than 32 bytes, naming the function it was given to", () => {
    const server = new Server({ name: "t", version: "1" });
    expect(() => serveMcp(server, new Counter(), { requestStateKey: new Uint8Array(16) })).toThrow(
      "serveMcp: requestStateKey must be a string or a Uint8Array of at least 32 bytes",
    );
    expect(() => mcpServerFactory(new Counter(), { requestStateKey: "k".repeat(31) })).toThrow(
      "mcpServerFactory: requestStateKey must be a string or a Uint8Array of at least 32 bytes",
    );
    expect(() =>
      mcpServerFactory(new Counter(), { requestStateKey: "k".repeat(32) }),
    ).not.toThrow();
  });
});

describe("as a property", () => {
  it("refuses every maxTurns that is not a whole number from 1 up, and never asks the model", async () => {
    const notATurnCount = fc.oneof(
      fc.double().filter((value) => !(Number.isSafeInteger(value) && value >= 1)),
      fc.string(),
      fc.constantFrom(null, true, {}, [], Number.NaN),
    );
    await fc.assert(
      fc.asyncProperty(notATurnCount, async (maxTurns) => {
        const { counter, tools } = counted();
        let asked = 0;
        const model = async () => {
          asked++;
          return { text: "done", toolCalls: [] };
        };
        await rejects(
          () => loop({ tools, model, messages: [], maxTurns }),
          "runToolLoop: maxTurns must be a whole number from 1 up, not ",
        );
        expect([asked, counter.calls.length]).toEqual([0, 0]);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses every signal that is not an AbortSignal in invoke, and never runs the call", async () => {
    const notASignal = fc.oneof(
      fc.object(),
      fc.string(),
      fc.integer(),
      fc.constantFrom(null, true, [], { aborted: false }),
    );
    await fc.assert(
      fc.asyncProperty(notASignal, async (signal) => {
        const counter = new Counter();
        const tools = igniteTools(counter, undefined, { timeoutMs: 50 });
        await rejects(
          () => tools.invoke({ name: "increment", input: {} }, { signal: loose(signal) }),
          "invoke: signal must be an AbortSignal, not ",
        );
        expect(counter.calls).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("what was given, in words", () => {
  it("says a value precisely enough to see the mistake", () => {
    class Anonymous {}
    Object.defineProperty(Anonymous, "name", { value: "" });
    expect([
      given("3"),
      given(Number.NaN),
      given(-1),
      given(null),
      given(undefined),
      given([]),
      given([1]),
      given(() => 1),
      given(10n),
      given(Symbol("s")),
      given(Promise.resolve(1)),
      given(new Map()),
      given(Object.create(null)),
      given(new Anonymous()),
      given({}),
    ]).toEqual([
      '"3" (a string)',
      "NaN",
      "-1",
      "null",
      "undefined",
      "an empty list",
      "a list",
      "a function",
      "10",
      "Symbol(s)",
      "a Promise (await it first)",
      "a Map",
      "an object",
      "an object",
      "an object",
    ]);
  });
});

describe("a tracer that fails", () => {
  it("leaves a call untraced when its start throws, and invoke still answers", async () => {
    const warnings: ToolWarning[] = [];
    const tools = igniteTools(new Counter(), undefined, {
      tracer: tracing({
        start: () => {
          throw new Error("exporter down");
        },
      }),
      onWarning: (warning) => warnings.push(warning),
    });
    const outcome = await tools.invoke({ name: "increment", input: {} });
    expect(outcome.ok).toBe(true);
    expect(warnings.map(({ code }) => code)).toEqual(["tracer-failed"]);
  });

  it("says an OpenTelemetry Tracer goes in through otelTracer, where the 0.1 form is not taken", () => {
    expect(() => checkTracer({ startSpan: () => undefined }, "runToolLoop")).toThrow(
      'runToolLoop: tracer is an OpenTelemetry Tracer as it is: give otelTracer(tracer), from "ignite-element/tools/otel"',
    );
  });

  it("takes a tracing layer given to tracing again as it is", () => {
    const layer = tracing({ start: () => ({ phase: () => undefined, end: () => undefined }) });
    expect(tracing(layer)).toBe(layer);
  });

  it("refuses a loop's tracer that is none, and says how to give an OpenTelemetry Tracer", async () => {
    const { tools } = counted();
    const { model } = scriptedModel([]);
    await rejects(
      () => loop({ tools, model, messages: [], tracer: { begin: () => undefined } }),
      "runToolLoop: tracer must be a ToolTracer (an object with start), not an object",
    );
  });
});
