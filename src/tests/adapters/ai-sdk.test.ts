import { asSchema, stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { type AiSdkToolOutput, aiSdkTools } from "../../tools/adapters/ai-sdk.js";
import type { AgentComponent } from "../../tools/index.js";
import { Counter, failingSave, LONG, named, single } from "../fixtures.js";
import { offered, type RunMode, run, scriptedModel, toolResultsIn } from "./ai-sdk-model.js";

const MODES: RunMode[] = ["generateText", "streamText"];

/** A name every provider accepts (see `PORTABLE_NAMES`). */
const PORTABLE = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

describe("aiSdkTools: the tool set", () => {
  it("holds every declared command, gated ones included, each with the command's own description", () => {
    const { tools } = aiSdkTools(new Counter());
    expect(Object.keys(tools)).toEqual(["increment", "reset", "setLimit", "unlock"]);
    expect(tools.increment?.description).toBe("Add `by` (default 1) to the count.");
    expect(tools.reset?.description).toBe("Back to zero.");
    expect(tools.unlock && "description" in tools.unlock).toBe(false);
  });

  it("keys each tool by a name every provider accepts, the same command always under the same name", () => {
    const first = Object.keys(aiSdkTools(named()).tools);
    expect(first).toHaveLength(5);
    for (const name of first) expect(name).toMatch(PORTABLE);
    expect(first).toContain("note");
    expect(Object.keys(aiSdkTools(named()).tools)).toEqual(first);
  });

  it("gives the AI SDK object-rooted JSON Schemas, a scalar root wrapped as { value }", async () => {
    const { tools } = aiSdkTools(new Counter());
    const schemaOf = async (name: string) => asSchema(tools[name]?.inputSchema).jsonSchema;
    expect(await schemaOf("setLimit")).toEqual({
      type: "object",
      properties: { value: { type: "number", minimum: 0, maximum: 12 } },
      required: ["value"],
      additionalProperties: false,
    });
    expect(await schemaOf("reset")).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
  });

  it("throws a TypeError naming the command when the schema is malformed, before any model call", () => {
    const broken: AgentComponent = {
      getSchema: () => ({ commands: { "todo.add": { input: { type: "strnig" } } } }),
      execute: () => ({ state: null, events: [] }),
    };
    expect(() => aiSdkTools(broken)).toThrow(/Command "todo\.add" has an invalid input schema/);
  });
});

describe.each(MODES)("aiSdkTools with %s", (mode) => {
  it("answers invalid input with the bridge's issues as an error output, and the model corrects itself", async () => {
    const counter = new Counter();
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model, requests } = scriptedModel([
      [{ toolName: "setLimit", input: '{"value":40}' }],
      (request) => {
        const [refused] = toolResultsIn(request);
        const fixed = refused?.output.type === "error-text" && /<= 12/.test(refused.output.value);
        return fixed ? [{ toolName: "setLimit", input: '{"value":12}' }] : "gave up";
      },
      "The limit is 12.",
    ]);

    const result = await run(mode, { model, tools, prepareStep });

    expect(result.text).toBe("The limit is 12.");
    expect(counter.calls).toEqual([{ command: "setLimit", input: 12 }]);
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "error-text",
      value:
        'Error (InvalidInput): Invalid input for "setLimit": input must be <= 12. Fix the input and call again.\n' +
        'Issues: [{"path":"","message":"must be <= 12","keyword":"maximum"}]',
    });
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      ok: false,
      error: { kind: "InvalidInput", name: "setLimit" },
    });
  });

  it("lets the bridge, not the AI SDK's schema check, answer input of the wrong shape", async () => {
    const { component, received } = single({ type: "object", properties: {} });
    const { tools, prepareStep } = aiSdkTools(component);
    const { model, requests } = scriptedModel([
      [{ toolName: "run", input: '"not an object"' }],
      "Done.",
    ]);

    await run(mode, { model, tools, prepareStep });

    expect(received).toEqual([]);
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "error-text",
      value: expect.stringMatching(
        /^Error \(InvalidInput\): Invalid input for "run": input arguments must be a JSON object, not a string\./,
      ),
    });
  });

  it("offers a gated command only from the step after it became available", async () => {
    const counter = new Counter();
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model, requests } = scriptedModel([
      [{ toolName: "increment", input: '{"by":2}' }],
      [{ toolName: "reset", input: "{}" }],
      "Back to zero.",
    ]);

    await run(mode, { model, tools, prepareStep });

    expect(requests.map(offered)).toEqual([
      ["increment", "setLimit"],
      ["increment", "reset", "setLimit"],
      ["increment", "setLimit"],
    ]);
    expect(counter.calls.map((call) => call.command)).toEqual(["increment", "reset"]);
  });

  it("re-checks availability at call time: a parallel call made unavailable by the one before is answered Unavailable", async () => {
    const counter = new Counter();
    counter.state = { ...counter.state, count: 3 };
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model, requests } = scriptedModel([
      [
        { toolName: "reset", input: "{}" },
        { toolName: "reset", input: "{}" },
      ],
      "Done.",
    ]);

    await run(mode, { model, tools, prepareStep });

    expect(counter.calls.map((call) => call.command)).toEqual(["reset"]);
    const [first, second] = toolResultsIn(requests[1]).map((part) => part.output);
    expect(first?.type).toBe("text");
    expect(second).toEqual({
      type: "error-text",
      value:
        'Error (Unavailable): Command "reset" is not available in the current state. Use one of the tools offered now.',
    });
  });

  it("runs the model's parallel calls one at a time, in the model's order", async () => {
    const log: string[] = [];
    const component: AgentComponent<string[]> = {
      getSchema: () => ({ commands: { step: { input: { type: "string" } } } }),
      async execute(_command, input) {
        log.push(`start ${input}`);
        // The first call is the slowest: run concurrently, it would finish last.
        const wait = { a: 30, b: 15, c: 0 }[String(input)] ?? 0;
        await new Promise((resolve) => setTimeout(resolve, wait));
        log.push(`end ${input}`);
        return { state: log, events: [] };
      },
    };
    const { tools, prepareStep } = aiSdkTools(component);
    const { model } = scriptedModel([
      ["a", "b", "c"].map((value) => ({ toolName: "step", input: JSON.stringify({ value }) })),
      "Done.",
    ]);

    const result = await run(mode, { model, tools, prepareStep });

    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(result.steps[0]?.toolResults.map((part) => part.toolCallId)).toEqual([
      "call-1-0",
      "call-1-1",
      "call-1-2",
    ]);
  });

  it("executes each call exactly once over a multi-step run", async () => {
    const counter = new Counter();
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model } = scriptedModel([
      [
        { toolName: "increment", input: "{}" },
        { toolName: "increment", input: '{"by":2}' },
      ],
      [
        { toolName: "setLimit", input: '{"value":5}' },
        { toolName: "reset", input: "{}" },
      ],
      "Done.",
    ]);

    const result = await run(mode, { model, tools, prepareStep });

    expect(counter.calls).toEqual([
      { command: "increment", input: { by: 1 } },
      { command: "increment", input: { by: 2 } },
      { command: "setLimit", input: 5 },
      { command: "reset", input: undefined },
    ]);
    expect(result.steps.flatMap((step) => step.toolResults)).toHaveLength(4);
  });

  it("maps provider-safe names back to exactly the commands they stand for", async () => {
    const component = named();
    const { tools, prepareStep } = aiSdkTools(component);
    const nameOf = (command: string) =>
      Object.keys(tools).find((name) => tools[name]?.description === command) ?? "";
    // Only `todo.add` has a description, so find the others by elimination.
    const dotted = nameOf("Add a todo.");
    const spaced = Object.keys(tools).find(
      (name) => name.startsWith("todo_add_") && name !== dotted,
    );
    const long = Object.keys(tools).find((name) => name.startsWith("abbb"));
    const { model } = scriptedModel([
      [
        { toolName: dotted, input: '{"value":"milk"}' },
        { toolName: spaced ?? "", input: '{"value":"eggs"}' },
        { toolName: long ?? "", input: "{}" },
        { toolName: "note", input: '{"value":"kept as an object"}' },
      ],
      "Done.",
    ]);

    const result = await run(mode, { model, tools, prepareStep });

    const last = result.steps[0]?.toolResults.at(-1);
    expect(last && !last.dynamic && last.output.ok && last.output.snapshot).toEqual({
      ran: [
        'todo.add:"milk"',
        'todo add:"eggs"',
        `${LONG}:undefined`,
        'note:{"value":"kept as an object"}',
      ],
    });
  });

  it("tells the model the { value } shape when it sends a scalar command's input unwrapped", async () => {
    const counter = new Counter();
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model, requests } = scriptedModel([
      [{ toolName: "setLimit", input: '{"limit":5}' }],
      "Done.",
    ]);

    await run(mode, { model, tools, prepareStep });

    expect(counter.calls).toEqual([]);
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "error-text",
      value: expect.stringContaining('arguments must be an object { \\"value\\": ... }'),
    });
  });

  it("answers an execute that throws as an error output, and the run goes on", async () => {
    const { tools, prepareStep } = aiSdkTools(failingSave());
    const { model, requests } = scriptedModel([[{ toolName: "save", input: "{}" }], "It failed."]);

    const result = await run(mode, { model, tools, prepareStep });

    expect(result.text).toBe("It failed.");
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "error-text",
      value: 'Error (ExecuteFailed): Command "save" failed: disk full',
    });
  });

  it("passes the abort signal through: the run stops though execute never settles, and the queued call never runs", async () => {
    const controller = new AbortController();
    const started: unknown[] = [];
    const answered = new Map<string, AiSdkToolOutput>();
    const component: AgentComponent = {
      getSchema: () => ({ commands: { work: { input: { type: "integer" } } } }),
      execute: (_command, input) => {
        started.push(input);
        controller.abort(new Error("stopped by the user"));
        return new Promise<never>(() => {});
      },
    };
    const { tools, prepareStep } = aiSdkTools(component);
    const work = tools.work;
    const execute = work?.execute;
    if (!work || !execute) throw new Error("the work tool has no execute");
    // Keep each answer as the AI SDK receives it.
    const watched: typeof tools = {
      work: {
        ...work,
        execute: async (...args: Parameters<typeof execute>) => {
          const output = await execute(...args);
          if (Symbol.asyncIterator in output) throw new Error("not a streamed output");
          answered.set(args[1].toolCallId, output);
          return output;
        },
      },
    };
    const { model, requests } = scriptedModel([
      [
        { toolName: "work", input: '{"value":1}' },
        { toolName: "work", input: '{"value":2}' },
      ],
      "unreachable",
    ]);

    await expect(
      run(mode, { model, tools: watched, prepareStep, abortSignal: controller.signal }),
    ).rejects.toThrow("stopped by the user");

    expect(started).toEqual([1]);
    expect(requests).toHaveLength(1);
    const messageOf = (id: string) => {
      const output = answered.get(id);
      return output?.ok === false ? output.error.message : output;
    };
    expect(messageOf("call-1-0")).toBe(
      'Command "work" failed: was aborted while running. It may still take effect: check the state before calling it again.',
    );
    expect(messageOf("call-1-1")).toBe(
      'Command "work" failed: was aborted before it ran; nothing was executed',
    );
  });

  it("shows the model what project returns, given the call with the AI SDK's toolCallId, and the application the full outcome", async () => {
    const counter = new Counter();
    const seen: unknown[] = [];
    const { tools, prepareStep } = aiSdkTools(counter, {
      project: (observation, call) => {
        seen.push(call);
        return {
          snapshot: { count: (observation.snapshot as { count: number }).count },
          events: [],
        };
      },
    });
    const { model, requests } = scriptedModel([
      [{ toolName: "setLimit", input: '{"value":7}', toolCallId: "call_7" }],
      "Done.",
    ]);

    const result = await run(mode, { model, tools, prepareStep });

    // The AI SDK may build the model's messages, and so call `project`, more than once.
    expect(seen.length).toBeGreaterThan(0);
    for (const call of seen) expect(call).toEqual({ id: "call_7", name: "setLimit", input: 7 });
    expect(toolResultsIn(requests[1])[0]?.output).toEqual({
      type: "text",
      value: '{"snapshot":{"count":0},"events":[]}',
    });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({
      ok: true,
      snapshot: { count: 0, limit: 7, locked: false },
      events: [{ type: "limitChanged", payload: { limit: 7 } }],
    });
  });

  it("leaves a call whose input is not JSON to the AI SDK, which answers it and executes nothing", async () => {
    const counter = new Counter();
    const { tools, prepareStep } = aiSdkTools(counter);
    const { model, requests } = scriptedModel([
      [{ toolName: "increment", input: '{"by": 2' }],
      "Done.",
    ]);

    await run(mode, { model, tools, prepareStep });

    expect(counter.calls).toEqual([]);
    expect(toolResultsIn(requests[1])[0]?.output.type).toBe("error-text");
  });
});

describe("aiSdkTools: the model output", () => {
  it("caps what the model reads at maxResultChars", async () => {
    const { tools } = aiSdkTools(single({ type: "string" }).component, { maxResultChars: 200 });
    const output = await tools.run?.execute?.(
      { value: "x".repeat(1000) },
      { toolCallId: "1", messages: [] },
    );
    if (!output || Symbol.asyncIterator in output) throw new Error("no output");
    const text = await tools.run?.toModelOutput?.({ toolCallId: "1", input: {}, output });
    expect(text).toEqual({ type: "text", value: expect.any(String) });
    const value = text && "value" in text ? String(text.value) : "";
    expect(value.length).toBeLessThanOrEqual(200);
    expect(JSON.parse(value)).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of \d+ characters$/,
      ),
      partial: expect.any(String),
    });
  });

  it("reads AI SDK 5's convention too, where toModelOutput is given the output alone", async () => {
    const { tools } = aiSdkTools(failingSave());
    const save = tools.save;
    const output = await save?.execute?.({}, { toolCallId: "1", messages: [] });
    // AI SDK 5 calls `toModelOutput(output)`; AI SDK 6's types describe only `({ output })`.
    const v5 = save?.toModelOutput as unknown as (given: AiSdkToolOutput) => unknown;
    expect(output && v5(output as AiSdkToolOutput)).toEqual({
      type: "error-text",
      value: 'Error (ExecuteFailed): Command "save" failed: disk full',
    });
  });
});

describe("aiSdkTools: progress as preliminary tool results", () => {
  /** A kettle that reports each step of boiling, and logs when it is done. */
  const kettle = (): AgentComponent<{ celsius: number }> => ({
    getSchema: () => ({ commands: { boil: { title: "Boil water", description: "Boil." } } }),
    async execute(_command, _input, context) {
      for (const celsius of [40, 70, 100]) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        context?.progress({ progress: celsius, total: 100 });
      }
      context?.log("info", "boiled");
      return { state: { celsius: 100 }, events: [] };
    },
  });

  it("streams each progress report as a preliminary result, then the final output, which alone reaches the model", async () => {
    const { tools } = aiSdkTools(kettle(), { preliminary: true });
    const { model, requests } = scriptedModel([
      [{ toolName: "boil", input: "{}", toolCallId: "k1" }],
      "Your water is boiling.",
    ]);
    const result = streamText({ model, tools, prompt: "Boil water.", stopWhen: stepCountIs(3) });
    const results: Array<{ preliminary: boolean; output: unknown }> = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") {
        results.push({ preliminary: part.preliminary === true, output: part.output });
      }
    }

    const final = { ok: true, snapshot: { celsius: 100 }, events: [] };
    expect(results).toEqual([
      {
        preliminary: true,
        output: { running: true, progress: { progress: 40, total: 100 }, logs: [] },
      },
      {
        preliminary: true,
        output: { running: true, progress: { progress: 70, total: 100 }, logs: [] },
      },
      // Reported together (no await between them), 100 °C and the log line are one result.
      {
        preliminary: true,
        output: {
          running: true,
          progress: { progress: 100, total: 100 },
          logs: [{ level: "info", message: "boiled" }],
        },
      },
      // The AI SDK reports the last value of an iterable once more as preliminary, then as final.
      { preliminary: true, output: final },
      { preliminary: false, output: final },
    ]);
    expect(toolResultsIn(requests[1])).toEqual([
      expect.objectContaining({
        toolCallId: "k1",
        output: { type: "text", value: JSON.stringify({ snapshot: { celsius: 100 }, events: [] }) },
      }),
    ]);
  });

  it("returns a plain promise, and so no preliminary result, unless asked for them", async () => {
    const { tools } = aiSdkTools(kettle());
    const { model } = scriptedModel([[{ toolName: "boil", input: "{}" }], "Done."]);
    const result = streamText({ model, tools, prompt: "Boil water.", stopWhen: stepCountIs(3) });
    const outputs: Array<{ preliminary: boolean; output: unknown }> = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") {
        outputs.push({ preliminary: part.preliminary === true, output: part.output });
      }
    }

    expect(outputs).toEqual([
      { preliminary: false, output: { ok: true, snapshot: { celsius: 100 }, events: [] } },
    ]);
  });

  it("gives each tool the command's title", () => {
    expect(aiSdkTools(kettle()).tools.boil?.title).toBe("Boil water");
  });
});
