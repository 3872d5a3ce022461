import {
  type AgentComponent,
  type AgentSchema,
  approval,
  type PendingCall,
} from "ignite-element/tools";
import {
  type ModelContextLike,
  type ProvideWebMcpOptions,
  provideWebMcp,
  type WebMcpTool,
} from "ignite-element/tools/webmcp";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { FakeModelContext, textOf } from "./webmcp-model-context.js";

/** A promise with its resolver outside, for execute calls the test releases by hand. */
function gate<T = void>() {
  let open: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

interface State {
  mode: "heat" | "cool" | "off";
  celsius: number;
  locked: boolean;
}

/** A thermostat whose `boost` is gated on heating, with a log of what really ran. */
function thermostat(options: { subscribe?: boolean; slow?: boolean } = {}) {
  let state: State = { mode: "off", celsius: 20, locked: false };
  let maximum = 30;
  const listeners = new Set<() => void>();
  const executed: { command: string; input: unknown }[] = [];
  let running = 0;
  let overlapped = false;
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const component: AgentComponent<State> = {
    getSchema: (): AgentSchema => ({
      commands: {
        setTarget: {
          description: "Target temperature in °C.",
          input: { type: "number", minimum: 10, maximum },
          idempotent: true,
        },
        setMode: {
          description: "Heat, cool or switch off.",
          input: { type: "object", properties: { mode: { enum: ["heat", "cool", "off"] } } },
        },
        status: { readOnly: true },
        boost: { description: "Full power for ten minutes.", gated: true },
        "schedule.clear": { description: "Forget the schedule.", destructive: true },
        "set limit": { description: "   ", destructive: false },
      },
    }),
    canExecute: (command) => command !== "boost" || (state.mode === "heat" && !state.locked),
    async execute(command, input) {
      running++;
      if (running > 1) overlapped = true;
      executed.push({ command, input });
      if (options.slow) await new Promise((resolve) => setTimeout(resolve, 5));
      if (command === "setTarget" && typeof input === "number")
        state = { ...state, celsius: input };
      if (command === "setMode")
        state = { ...state, mode: (input as { mode: State["mode"] }).mode };
      running--;
      return { state, events: [{ type: command }] };
    },
  };
  if (options.subscribe !== false) {
    component.subscribe = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
  }
  return {
    component,
    executed,
    listeners,
    overlapped: () => overlapped,
    /** A change the component announces, as a click in the page would be. */
    setMode(mode: State["mode"]) {
      state = { ...state, mode };
      notify();
    },
    /** A change nobody announces: availability moves without a notification. */
    lockQuietly() {
      state = { ...state, locked: true };
    },
    setMaximum(value: number) {
      maximum = value;
      notify();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("provideWebMcp registers what the component offers now", () => {
  it("registers every declared command with offer: declared, and answers the gated one Unavailable until it is available", async () => {
    const context = new FakeModelContext();
    const device = thermostat();
    provideWebMcp(device.component, { modelContext: context, offer: "declared" });
    expect(context.names()).toContain("boost");
    const early = await context.callTool("boost", {});
    expect(early.isError).toBe(true);
    expect(textOf(early)).toContain('Command "boost" is not available in the current state.');
    expect(device.executed).toEqual([]);
  });

  it("registers every available command with a name, a description, an object schema and annotations", () => {
    const context = new FakeModelContext();
    provideWebMcp(thermostat().component, { modelContext: context });
    const byName = new Map(context.tools().map((tool) => [tool.name, tool]));
    // `boost` is gated and the heating is off; `set limit` is a name WebMCP refuses, so mapped.
    expect(context.names()).toEqual([
      "schedule.clear",
      "setMode",
      "setTarget",
      expect.stringMatching(/^set_limit_[0-9a-z]+$/),
      "status",
    ]);
    expect(byName.get("setTarget")).toEqual({
      name: "setTarget",
      description: "Target temperature in °C.",
      inputSchema: {
        type: "object",
        properties: { value: { type: "number", minimum: 10, maximum: 30 } },
        required: ["value"],
        additionalProperties: false,
      },
      annotations: { idempotentHint: true },
    });
    expect(byName.get("status")).toEqual({
      name: "status",
      description: 'Runs the page\'s "status" command.',
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true },
    });
    expect(byName.get("schedule.clear")?.annotations).toEqual({
      destructiveHint: true,
      consequentialHint: true,
    });
    // Not destructive does not mean not consequential: nothing is claimed about that.
    const setLimit = context.tools().find((tool) => tool.name.startsWith("set_limit_"));
    expect(setLimit?.annotations).toEqual({ destructiveHint: false });
    expect(setLimit?.description).toBe('Runs the page\'s "set limit" command.');
    expect(byName.get("setMode")).not.toHaveProperty("annotations");
  });

  it("fails at once, with what to do, when the page has no WebMCP", () => {
    expect(() => provideWebMcp(thermostat().component)).toThrow(
      new TypeError(
        "provideWebMcp: this page has no WebMCP (`document.modelContext`). Open it in a browser with WebMCP enabled (Chrome: the `--enable-features=WebMCP` switch, the “WebMCP for testing” flag in chrome://flags, or the origin trial), or pass `{ modelContext }`.",
      ),
    );
    vi.stubGlobal("document", { modelContext: { title: "not a model context" } });
    expect(() => provideWebMcp(thermostat().component)).toThrow(TypeError);
  });

  it("finds document.modelContext, and the deprecated navigator.modelContext of early previews", () => {
    const page = new FakeModelContext();
    vi.stubGlobal("document", { modelContext: page });
    provideWebMcp(thermostat().component);
    expect(page.names()).toContain("setMode");

    vi.stubGlobal("document", {});
    const preview = new FakeModelContext();
    vi.stubGlobal("navigator", { modelContext: preview });
    provideWebMcp(thermostat().component);
    expect(preview.names()).toContain("setMode");
  });

  it("throws a TypeError naming the command when the schema is malformed", () => {
    const broken: AgentComponent = {
      getSchema: () => ({ commands: { setMode: { input: { type: "nonsense" } } } }),
      execute: () => ({ state: null, events: [] }),
    };
    expect(() => provideWebMcp(broken, { modelContext: new FakeModelContext() })).toThrow(
      /Command "setMode" has an invalid input schema/,
    );
  });
});

describe("each call runs through the bridge and is answered as a result", () => {
  it("executes a valid call once and answers with the snapshot and events", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    const result = await context.callTool("setTarget", { value: 22 });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: '{"snapshot":{"mode":"off","celsius":22,"locked":false},"events":[{"type":"setTarget"}]}',
        },
      ],
    });
    expect(room.executed).toEqual([{ command: "setTarget", input: 22 }]);
  });

  it("answers invalid input with isError and the issues, and executes nothing", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    const tooHot = await context.callTool("setTarget", { value: 35 });
    expect(tooHot.isError).toBe(true);
    expect(textOf(tooHot)).toMatch(/^Error \(InvalidInput\): Invalid input for "setTarget"/);
    expect(textOf(tooHot)).toContain('"keyword":"maximum"');
    // The browser passes whatever the agent sent: not an object, or not wrapped.
    const scalar = await context.callTool("setTarget", 22);
    expect(textOf(scalar)).toContain("arguments must be a JSON object, not a number");
    const unwrapped = await context.callTool("setTarget", { celsius: 22 });
    expect(textOf(unwrapped)).toContain('arguments must be an object { \\"value\\": ... }');
    expect(room.executed).toEqual([]);
  });

  it("reads a call without input as no arguments", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    const status = context.tools().find((tool) => tool.name === "status");
    expect(status).toBeDefined();
    const result = await context.callTool("status", undefined);
    expect(result.isError).toBeUndefined();
    expect(room.executed).toEqual([{ command: "status", input: undefined }]);
  });

  it("answers a failing execute as a result, never a rejection", async () => {
    const component: AgentComponent = {
      getSchema: () => ({ commands: { fail: { description: "Always fails." } } }),
      execute: () => {
        throw new Error("the boiler is offline");
      },
    };
    const context = new FakeModelContext();
    provideWebMcp(component, { modelContext: context });
    const result = await context.callTool("fail");
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Error (ExecuteFailed): Command "fail" failed: the boiler is offline',
        },
      ],
      isError: true,
    });
  });

  it("speaks the command's tool name in errors of a mapped command", async () => {
    const context = new FakeModelContext();
    provideWebMcp(thermostat().component, { modelContext: context });
    const name = context.names().find((tool) => tool.startsWith("set_limit_")) ?? "";
    const result = await context.callTool(name, { unexpected: true });
    expect(textOf(result)).toContain(`Invalid input for ${JSON.stringify(name)}`);
  });

  it("projects what the agent reads and caps its length", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, {
      modelContext: context,
      project: ({ snapshot }) => ({ snapshot: { celsius: snapshot.celsius }, events: [] }),
    });
    expect(textOf(await context.callTool("setTarget", { value: 21 }))).toBe(
      '{"snapshot":{"celsius":21},"events":[]}',
    );
    const capped = new FakeModelContext();
    provideWebMcp(thermostat().component, {
      modelContext: capped,
      project: () => ({ snapshot: { log: "x".repeat(300) }, events: [] }),
      maxResultChars: 128,
    });
    const text = textOf(await capped.callTool("status"));
    expect(text.length).toBeLessThanOrEqual(128);
    expect(JSON.parse(text)).toEqual({
      truncated: expect.stringMatching(
        /^the result was cut: showing the first \d+ of 335 characters$/,
      ),
      partial: expect.stringMatching(/^\{"snapshot":\{"log":"x+$/),
    });
  });

  it("refuses, with a TypeError, a cap too small to say a result was cut", () => {
    expect(() =>
      provideWebMcp(thermostat().component, {
        modelContext: new FakeModelContext(),
        maxResultChars: 10,
      }),
    ).toThrow(/maxResultChars.*128/);
  });

  it("runs calls the browser makes at the same time one at a time, each once", async () => {
    const room = thermostat({ slow: true });
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    const results = await Promise.all([
      context.callTool("setTarget", { value: 21 }),
      context.callTool("setTarget", { value: 22 }),
      context.callTool("status"),
    ]);
    expect(results.map((result) => result.isError)).toEqual([undefined, undefined, undefined]);
    expect(room.overlapped()).toBe(false);
    expect(room.executed).toEqual([
      { command: "setTarget", input: 21 },
      { command: "setTarget", input: 22 },
      { command: "status", input: undefined },
    ]);
  });
});

describe("what a WebMCP tool carries of the execute context", () => {
  it("registers the command's title, and aborts the command's signal when the browser's call signal aborts", async () => {
    const started = gate();
    let signal: AbortSignal | undefined;
    const downloads: AgentComponent<string> = {
      getSchema: () => ({
        commands: { fetchReport: { title: "Fetch the report", description: "Fetch it." } },
      }),
      execute(_command, _input, context) {
        signal = context?.signal;
        started.open();
        return new Promise(() => undefined);
      },
    };
    const modelContext = new FakeModelContext();
    provideWebMcp(downloads, { modelContext });
    expect(modelContext.tools()[0]?.title).toBe("Fetch the report");
    const controller = new AbortController();

    const calling = modelContext.callTool("fetchReport", {}, { signal: controller.signal });
    await started.promise;
    controller.abort("the agent moved on");

    expect(textOf(await calling)).toContain("was aborted while running");
    expect(signal?.reason).toBe("the agent moved on");
  });
});

describe("a call the approval policy asks about", () => {
  const askToClear = {
    approve: approval(({ flags }: { flags: { destructive?: boolean } }) =>
      flags.destructive ? ("ask" as const) : ("allow" as const),
    ),
  };

  it("runs once the visitor confirms, and confirm is shown the command and its exact input", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const shown: PendingCall[] = [];
    provideWebMcp(room.component, {
      modelContext: context,
      approve: approval(({ route }) => (route.command === "setTarget" ? "ask" : "allow")),
      confirm: (call) => {
        shown.push(call);
        return true;
      },
    });

    const result = await context.callTool("setTarget", { value: 24 });

    expect(result.isError).toBeUndefined();
    expect(room.executed).toEqual([{ command: "setTarget", input: 24 }]);
    expect(shown).toEqual([expect.objectContaining({ command: "setTarget", input: 24 })]);
  });

  it("asks inside the browser's requestUserInteraction, where there is one", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const order: string[] = [];
    provideWebMcp(room.component, {
      modelContext: context,
      ...askToClear,
      confirm: () => {
        order.push("confirm");
        return true;
      },
    });
    const client = {
      requestUserInteraction: async (callback: () => Promise<unknown>) => {
        order.push("interaction");
        return callback();
      },
    };

    await context.callTool("schedule.clear", {}, client);

    expect(order).toEqual(["interaction", "confirm"]);
    expect(room.executed.map((run) => run.command)).toEqual(["schedule.clear"]);
  });

  it("answers Denied and runs nothing when the visitor says no", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context, ...askToClear, confirm: () => false });

    const result = await context.callTool("schedule.clear");

    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'Error (Denied): Command "schedule.clear" was denied: the visitor declined it.',
    );
    expect(room.executed).toEqual([]);
  });

  it("answers Denied, and tells onError, when confirm throws", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const heard: unknown[] = [];
    const broken = new Error("the dialog failed");
    provideWebMcp(room.component, {
      modelContext: context,
      ...askToClear,
      onError: (error, tool) => heard.push([error, tool]),
      confirm: () => Promise.reject(broken),
    });

    const result = await context.callTool("schedule.clear");

    expect(textOf(result)).toContain("needs a person's approval, which was not given");
    expect(heard).toEqual([[broken, "schedule.clear"]]);
    expect(room.executed).toEqual([]);
  });

  it("puts the policy's questions to the visitor, round after round, and runs the call once with their answers", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const asked: string[][] = [];
    const question = (message: string) => ({
      message,
      schema: { type: "object" as const, properties: { word: { type: "string" } } },
    });
    provideWebMcp(room.component, {
      modelContext: context,
      approve: approval(({ route }) => {
        if (route.command !== "schedule.clear") return "allow";
        if (!route.answers?.why) return { ask: { why: question("Why clear it?") } };
        if (!route.answers.sure) return { ask: { sure: question("Sure?") } };
        return "allow";
      }),
      confirm: (call) => {
        const keys = Object.keys(call.questions ?? {});
        asked.push(keys);
        return { answers: Object.fromEntries(keys.map((key) => [key, { word: "yes" }])) };
      },
    });

    const result = await context.callTool("schedule.clear");

    expect(result.isError).toBeUndefined();
    expect(asked).toEqual([["why"], ["sure"]]);
    expect(room.executed.map((run) => run.command)).toEqual(["schedule.clear"]);
  });

  it("answers Denied a call asked questions that confirm only says yes to, running nothing", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, {
      modelContext: context,
      approve: approval(() => ({
        ask: { why: { message: "Why?", schema: { type: "object", properties: {} } } },
      })),
      confirm: () => true,
    });

    const result = await context.callTool("schedule.clear");

    expect(textOf(result)).toContain("needs a person's approval, which was not given");
    expect(room.executed).toEqual([]);
  });

  it("answers Denied without confirm: nobody can be asked", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context, ...askToClear });

    const result = await context.callTool("schedule.clear");

    expect(textOf(result)).toContain("needs a person's approval, which was not given");
    expect(room.executed).toEqual([]);
  });
});

describe("the registrations follow availability", () => {
  it("registers a gated command after the call that made it available", async () => {
    const room = thermostat({ subscribe: false });
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    expect(context.names()).not.toContain("boost");
    await context.callTool("setMode", { mode: "heat" });
    expect(context.names()).toContain("boost");
    expect((await context.callTool("boost")).isError).toBeUndefined();
  });

  it("answers a tool that became unavailable unnoticed as Unavailable, then withdraws it", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    room.setMode("heat");
    room.lockQuietly(); // nothing announces it: the tool is still registered
    expect(context.names()).toContain("boost");
    const result = await context.callTool("boost");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error \(Unavailable\): /);
    expect(context.names()).not.toContain("boost");
    expect(room.executed).toEqual([]);
  });

  it("registers and withdraws on the component's subscribe, without any call", () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    room.setMode("heat");
    expect(context.names()).toContain("boost");
    room.setMode("off");
    expect(context.names()).not.toContain("boost");
    room.setMode("heat");
    expect(context.names()).toContain("boost");
  });

  it("replaces a tool whose definition changed, under the same name", () => {
    const room = thermostat();
    const context = new FakeModelContext();
    provideWebMcp(room.component, { modelContext: context });
    const registered = context.registrations.length;
    room.setMaximum(25);
    const setTarget = context.tools().find((tool) => tool.name === "setTarget");
    expect(setTarget?.inputSchema).toMatchObject({ properties: { value: { maximum: 25 } } });
    // Only the changed tool was registered again; the others were left alone.
    expect(context.registrations.slice(registered)).toEqual(["setTarget"]);
  });

  it("keeps the tools when the schema breaks later, and says so", () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const onError = vi.fn();
    provideWebMcp(room.component, { modelContext: context, onError });
    const before = context.names();
    room.component.getSchema = () => {
      throw new Error("schema unavailable");
    };
    room.setMode("heat");
    expect(onError).toHaveBeenCalledWith(new Error("schema unavailable"));
    expect(context.names()).toEqual(before);
  });
});

describe("a registration the browser refuses", () => {
  it("is reported with the tool's name, once per definition", async () => {
    const context = new FakeModelContext();
    // Another script on the page already has a tool of that name.
    const other = new AbortController();
    void context.registerTool(
      { name: "setMode", description: "Someone else's.", inputSchema: {}, execute: vi.fn() },
      { signal: other.signal },
    );
    const onError = vi.fn();
    const room = thermostat();
    provideWebMcp(room.component, { modelContext: context, onError });
    await settle();
    expect(onError).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ name: "InvalidStateError" }),
      "setMode",
    );
    room.setMode("heat"); // a change elsewhere does not offer the refused tool again
    await settle();
    expect(onError).toHaveBeenCalledOnce();
  });

  it("is reported through reportError by default", async () => {
    const reportError = vi.fn();
    vi.stubGlobal("reportError", reportError);
    const refusing: ModelContextLike = {
      registerTool: (tool) => Promise.reject(new Error(`no room for ${tool.name}`)),
    };
    provideWebMcp(
      { getSchema: () => ({ commands: { ping: {} } }), execute: () => ({ state: 1, events: [] }) },
      { modelContext: refusing },
    );
    await settle();
    expect(reportError).toHaveBeenCalledWith(
      new Error('provideWebMcp: tool "ping": no room for ping'),
    );
  });

  it("reports a schema that broke later through reportError too", () => {
    const reportError = vi.fn();
    vi.stubGlobal("reportError", reportError);
    const room = thermostat();
    provideWebMcp(room.component, { modelContext: new FakeModelContext() });
    room.component.getSchema = () => {
      throw new Error("schema unavailable");
    };
    room.setMode("heat");
    expect(reportError).toHaveBeenCalledWith(new Error("provideWebMcp: schema unavailable"));
  });

  it("is reported when registerTool throws, and accepted when it returns nothing", () => {
    const onError = vi.fn();
    const registered: string[] = [];
    const preview: ModelContextLike = {
      registerTool(tool) {
        if (tool.name === "bad") throw new TypeError("bad tool");
        registered.push(tool.name);
      },
    };
    provideWebMcp(
      {
        getSchema: () => ({ commands: { bad: {}, good: {} } }),
        execute: () => ({ state: 1, events: [] }),
      },
      { modelContext: preview, onError },
    );
    expect(registered).toEqual(["good"]);
    expect(onError).toHaveBeenCalledWith(new TypeError("bad tool"), "bad");
  });
});

describe("the returned function", () => {
  it("withdraws every tool and stops following the component", async () => {
    const room = thermostat();
    const context = new FakeModelContext();
    const onError = vi.fn();
    const stop = provideWebMcp(room.component, { modelContext: context, onError });
    stop(); // before the browser settled the registrations: withdrawn, not refused
    await settle();
    expect(context.names()).toEqual([]);
    expect(room.listeners.size).toBe(0);
    room.setMode("heat");
    expect(context.names()).toEqual([]);
    stop();
    expect(onError).not.toHaveBeenCalled();
  });

  it("stops even when the component's subscribe returned no function", () => {
    const room = thermostat({ subscribe: false });
    room.component.subscribe = () => undefined as unknown as () => void; // a component's bug
    const context = new FakeModelContext();
    const stop = provideWebMcp(room.component, { modelContext: context });
    expect(() => stop()).not.toThrow();
    expect(context.names()).toEqual([]);
  });

  it("lets a call already made finish without registering anything again", async () => {
    const room = thermostat({ slow: true });
    const context = new FakeModelContext();
    const stop = provideWebMcp(room.component, { modelContext: context });
    const running = context.callTool("setMode", { mode: "heat" });
    stop();
    expect((await running).isError).toBeUndefined();
    expect(context.names()).toEqual([]);
  });
});

describe("types", () => {
  it("types the projection by the component's state", () => {
    const room = thermostat();
    expectTypeOf<Parameters<typeof provideWebMcp<State, { type: string }>>[1]>().toEqualTypeOf<
      ProvideWebMcpOptions<State, { type: string }> | undefined
    >();
    provideWebMcp(room.component, {
      modelContext: new FakeModelContext(),
      project: ({ snapshot }) => {
        expectTypeOf(snapshot).toEqualTypeOf<State>();
        return { snapshot: snapshot.mode, events: [] };
      },
    });
    expectTypeOf<WebMcpTool["execute"]>().returns.resolves.toHaveProperty("content");
  });
});
