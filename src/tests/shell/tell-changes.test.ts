import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropic } from "../../tools/dialects/anthropic/dialect.js";
import { gemini } from "../../tools/dialects/gemini/dialect.js";
import { ollama } from "../../tools/dialects/ollama/dialect.js";
import { type OllamaChatChunk, ollamaStream } from "../../tools/dialects/ollama/stream.js";
import {
  type AgentComponent,
  approval,
  approveCall,
  changeNotes,
  denyCall,
  type FakeMessage,
  type FakeResponse,
  type FakeResultBlock,
  type FakeToolDefs,
  fakeDialect,
  igniteTools,
  type LoopToolBridge,
  type ModelRequest,
  type NeutralToolCall,
  type PendingCall,
  type RuntimeEvent,
  resumeToolLoop,
  runToolLoop,
  scriptedModel,
  waitTool,
} from "../../tools/index.js";
import { changesNote, MAX_NOTE_EVENTS } from "../../tools/loop/changes.js";
import { argsFor, providers } from "../provider-responses.js";
import { oven } from "./oven.js";

const ask = (text: string): FakeMessage[] => [{ role: "user", content: text }];
const preheat = (target: number, id = "call_1"): NeutralToolCall => ({
  id,
  name: "preheat",
  input: { target },
});
const HEADER = "Since your last request, this changed outside your own tool calls:";
/** The notes a fake conversation carries, in order. */
const notesIn = (messages: readonly FakeMessage[]) =>
  messages.flatMap((message, index) =>
    index > 0 && message.role === "user" ? [message.content] : [],
  );

describe("tellChanges over the fake dialect", () => {
  it("tells the model, at its next request, an event that happened outside its calls, after the turn's results", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const { model, requests } = scriptedModel([
      () => {
        world.preheated(); // the thermostat reports while the model thinks
        return { toolCalls: [preheat(180)] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake bread."),
      tellChanges: changeNotes(),
    });

    const note = [
      HEADER,
      "Events, oldest first:",
      '- {"type":"preheated"}',
      'State now: {"temperature":180,"preheated":true,"door":"closed"}',
      "Now available: bake",
    ].join("\n");
    expect(result.stop).toBe("done");
    expect(requests[1]?.messages.slice(-2)).toEqual([
      {
        role: "tool",
        result: {
          id: "call_1",
          name: "preheat",
          ok: true,
          snapshot: { temperature: 180, preheated: true, door: "closed" },
          events: [],
        },
      },
      { role: "user", content: note },
    ]);
    expect(result.steps.map((step) => step.told)).toEqual([undefined, note]);
    expect(notesIn(result.messages)).toEqual([note]);
  });

  it("tells nothing when nothing changed, or when only the model's own calls changed things", async () => {
    const { component, world } = oven();
    world.preheated(); // before the run: not the run's to tell
    const tools = igniteTools(component, fakeDialect);
    const { model, requests } = scriptedModel([
      () => {
        world.notify(); // a notification with nothing changed
        return { toolCalls: [preheat(200)] };
      },
      [{ id: "call_2", name: "bake", input: { dish: "bread" } }],
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake bread."),
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(requests).toHaveLength(3);
    expect(notesIn(result.messages)).toEqual([]);
    expect(result.steps.every((step) => step.told === undefined)).toBe(true);
  });

  it("does not tell again an event the model's wait answered with, and tells the others", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 5_000 }) });
    const { model } = scriptedModel([
      () => {
        // While the model waits for "preheated", a person opens the door first.
        setTimeout(() => {
          world.openDoor();
          world.preheated();
        });
        return { toolCalls: [{ id: "w1", name: "waitFor", input: { event: "preheated" } }] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake bread once the oven is hot."),
      tellChanges: changeNotes(),
    });

    const [waited] = result.steps[0]?.answers ?? [];
    expect(waited?.outcome.ok && waited.outcome.value.events).toEqual([{ type: "preheated" }]);
    expect(result.steps[1]?.told).toBe(
      [
        HEADER,
        "Events, oldest first:",
        '- {"type":"doorOpened"}',
        'State now: {"temperature":20,"preheated":true,"door":"open"}',
      ].join("\n"),
    );
  });

  it("does not tell an event the wait answered with when it was the only change", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 5_000 }) });
    const { model } = scriptedModel([
      () => {
        setTimeout(() => world.preheated());
        return { toolCalls: [{ id: "w1", name: "waitFor", input: { available: "bake" } }] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake bread once you can."),
      tellChanges: changeNotes(),
    });

    expect(result.steps).toHaveLength(2);
    expect(notesIn(result.messages)).toEqual([]);
  });

  it("names the commands that became available and unavailable since the previous request", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const { model } = scriptedModel([
      () => {
        world.preheated();
        return { toolCalls: [preheat(180)] };
      },
      () => {
        world.openDoor();
        return { toolCalls: [preheat(190, "call_2")] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake bread."),
      tellChanges: changeNotes(),
    });

    const told = result.steps.map((step) => step.told?.split("\n").at(-1));
    expect(told).toEqual([undefined, "Now available: bake", "No longer available: bake"]);
  });

  it("tells a change of state that came without an event, unless the model read that state in a result", async () => {
    let state = { temperature: 20 };
    const listeners = new Set<() => void>();
    const thermometer: AgentComponent<{ temperature: number }> = {
      getSchema: () => ({ commands: { read: { readOnly: true } } }),
      execute: () => ({ state, events: [] }),
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      getSnapshot: () => state,
    };
    const warm = (temperature: number) => {
      state = { temperature };
      for (const listener of listeners) listener();
    };
    const tools = igniteTools(thermometer, fakeDialect);
    const { model } = scriptedModel([
      () => {
        warm(23); // while the model thinks: its read then shows it 23
        return { toolCalls: [{ id: "r1", name: "read" }] };
      },
      [{ id: "r2", name: "read" }],
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Hot?"),
      tellChanges: changeNotes(),
      // Between the turns, after the results: nothing the model read.
      onStep: ({ turn }) => turn === 2 && warm(25),
    });

    expect(result.steps.map((step) => step.told)).toEqual([
      undefined,
      undefined,
      [HEADER, "The state changed (no event was reported).", 'State now: {"temperature":25}'].join(
        "\n",
      ),
    ]);
  });

  it("keeps a note within maxChars for a flood of 10 000 events, listing the first ones in order and counting the rest", async () => {
    for (const maxChars of [500, 1500]) {
      const { component, world } = oven();
      const { model } = scriptedModel([
        () => {
          for (let index = 0; index < 5_000; index++) {
            world.openDoor();
            world.closeDoor();
          }
          return { toolCalls: [preheat(180)] };
        },
      ]);
      const result = await runToolLoop({
        tools: igniteTools(component, fakeDialect),
        model,
        messages: ask("Bake."),
        tellChanges: changeNotes({ maxChars }),
      });
      const told = result.steps[1]?.told ?? "";
      expect(told.length).toBeLessThanOrEqual(maxChars);
      const listed = told.split("\n").filter((line) => line.startsWith("- {"));
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.length).toBeLessThanOrEqual(MAX_NOTE_EVENTS);
      expect(listed).toEqual(
        listed.map((_, index) => `- {"type":"${index % 2 === 0 ? "doorOpened" : "doorClosed"}"}`),
      );
      expect(told).toContain(`- and ${10_000 - listed.length} more events`);
    }
  });

  it("tells an outside event beside a call of the model's that failed, which read nothing", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const { model } = scriptedModel([
      () => {
        world.preheated();
        // Out of range: answered InvalidInput, nothing ran.
        return { toolCalls: [preheat(999)] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake."),
      tellChanges: changeNotes(),
    });

    expect(result.steps[0]?.errors.map((error) => error.kind)).toEqual(["InvalidInput"]);
    expect(result.steps[1]?.told).toContain('- {"type":"preheated"}');
  });

  it("takes the default cap, 1500 characters, from an object without maxChars", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const { model } = scriptedModel([
      () => {
        for (let index = 0; index < 100; index++) world.openDoor();
        return { toolCalls: [preheat(180)] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake."),
      tellChanges: changeNotes({}),
    });

    const told = result.steps[1]?.told ?? "";
    expect(told.length).toBeLessThanOrEqual(1500);
    expect(told).toContain(`- and ${100 - MAX_NOTE_EVENTS} more events`);
  });

  it("leaves availability out of a note when the schema cannot be read at that request", () => {
    let listener: (() => void) | undefined;
    let broken = false;
    const bell: AgentComponent<number> = {
      getSchema: () => {
        if (broken) throw new TypeError("getSchema() threw");
        return { commands: { ring: {} } };
      },
      execute: () => ({ state: 2, events: [] }),
      getSnapshot: () => (broken ? 2 : 1),
      subscribe: (heard) => {
        listener = heard;
        return () => undefined;
      },
      onEvent: () => () => undefined,
    };
    const teller = changeNotes().start(igniteTools(bell, fakeDialect), "runToolLoop");
    broken = true;
    listener?.();

    const { messages, told } = teller.tell([], []);

    expect(told).toBe(
      [HEADER, "The state changed (no event was reported).", "State now: 2"].join("\n"),
    );
    expect(messages).toEqual([{ role: "user", content: told }]);
  });

  it("is off by default: nothing is observed and nothing told", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const held: number[] = [];
    const { model } = scriptedModel([
      () => {
        held.push(world.held());
        world.preheated();
        return { toolCalls: [preheat(180)] };
      },
    ]);

    const result = await runToolLoop({ tools, model, messages: ask("Bake.") });

    expect(held).toEqual([0]);
    expect(notesIn(result.messages)).toEqual([]);
  });
});

describe("availability the model's own calls moved", () => {
  /** A lamp: turnOn makes turnOff available and itself unavailable; a timer rings outside. */
  function lamp() {
    let on = false;
    const listeners = new Set<() => void>();
    const eventListeners = new Set<(event: RuntimeEvent) => void>();
    const component: AgentComponent<{ on: boolean }> = {
      getSchema: () => ({ commands: { turnOn: { gated: true }, turnOff: { gated: true } } }),
      canExecute: (command) => (command === "turnOn" ? !on : on),
      execute(command) {
        on = command === "turnOn";
        for (const listener of [...listeners]) listener();
        return { state: { on }, events: [] };
      },
      getSnapshot: () => ({ on }),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onEvent: (listener) => {
        eventListeners.add(listener);
        return () => eventListeners.delete(listener);
      },
    };
    const ring = () => {
      for (const listener of [...eventListeners]) listener({ type: "rang" });
    };
    return { component, ring };
  }

  it("is never told as an outside change, while what the world did beside it is", async () => {
    const { component, ring } = lamp();
    const { model } = scriptedModel([
      () => {
        ring();
        return { toolCalls: [{ id: "1", name: "turnOn", input: {} }] };
      },
      [],
    ]);
    const result = await runToolLoop({
      tools: igniteTools(component, fakeDialect),
      model,
      messages: ask("Light, please."),
      tellChanges: changeNotes(),
    });

    const told = result.steps[1]?.told ?? "";
    expect(told).toContain('- {"type":"rang"}');
    expect(told).not.toContain("available");
  });
});

describe("tellChanges releases its observation however the loop ends", () => {
  const ends = {
    done: () => ({}),
    maxTurns: () => ({ maxTurns: 1 }),
    error: () => ({
      model: async () => {
        throw new Error("rate limited");
      },
    }),
    aborted: () => {
      const controller = new AbortController();
      return {
        signal: controller.signal,
        model: () => {
          controller.abort();
          return new Promise<FakeResponse>(() => {});
        },
      };
    },
  };

  it.each(Object.keys(ends) as (keyof typeof ends)[])("when it ends %s", async (stop) => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const held: number[] = [];
    const { model } = scriptedModel([
      () => {
        held.push(world.held());
        return { toolCalls: [preheat(180)] };
      },
    ]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake."),
      tellChanges: changeNotes(),
      ...ends[stop](),
    });

    expect(result.stop).toBe(stop);
    expect(held.every((count) => count === 2)).toBe(true);
    expect(world.held()).toBe(0);
  });

  it("when it pauses for approval", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const { model } = scriptedModel([[preheat(180)]]);

    const result = await runToolLoop({
      tools,
      model,
      messages: ask("Bake."),
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("approval");
    expect(world.held()).toBe(0);
  });

  it("when onStep throws", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect);
    const { model } = scriptedModel([[preheat(180)]]);

    const run = runToolLoop({
      tools,
      model,
      messages: ask("Bake."),
      tellChanges: changeNotes(),
      onStep: () => {
        throw new Error("the application's bug");
      },
    });

    await expect(run).rejects.toThrow("the application's bug");
    expect(world.held()).toBe(0);
  });

  it("when a streamed turn is read", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, ollama);
    const sent: unknown[][] = [];
    const chunks = (turn: number): OllamaChatChunk[] =>
      turn === 1
        ? [
            {
              done: false,
              message: {
                role: "assistant",
                content: "",
                tool_calls: [{ function: { name: "preheat", arguments: { target: 180 } } }],
              },
            },
            {
              done: true,
              done_reason: "stop",
              message: { role: "assistant", content: "" },
            },
          ]
        : [
            {
              done: true,
              done_reason: "stop",
              message: { role: "assistant", content: "Hot." },
            },
          ];

    const result = await runToolLoop({
      tools,
      stream: ollamaStream,
      model: async function* ({ messages, turn }) {
        sent.push(messages);
        if (turn === 1) world.preheated();
        yield* chunks(turn);
      },
      messages: [{ role: "user", content: "Bake." }],
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(sent[1]?.at(-1)).toEqual({ role: "user", content: result.steps[1]?.told });
    expect(result.steps[1]?.told).toContain('- {"type":"preheated"}');
    expect(world.held()).toBe(0);
  });
});

describe("tellChanges is refused at the loop's start when it cannot work", () => {
  type Bridge = LoopToolBridge<
    unknown,
    RuntimeEvent,
    FakeToolDefs,
    FakeResponse,
    FakeResultBlock,
    FakeMessage
  >;
  const cases: [string, () => Bridge, unknown, RegExp][] = [
    [
      "the component cannot report its state",
      () =>
        igniteTools(
          {
            getSchema: () => ({ commands: { go: {} } }),
            execute: () => ({ state: 1, events: [] }),
          },
          fakeDialect,
        ),
      changeNotes(),
      /tellChanges could not observe the component: observe needs a component with subscribe\(\) and getSnapshot\(\)/,
    ],
    [
      "the dialect cannot write a note",
      () => {
        const { appendNote: _, ...noNotes } = fakeDialect;
        const tools = igniteTools(oven().component, noNotes);
        return tools;
      },
      changeNotes(),
      /tellChanges needs a dialect that can write a note/,
    ],
    [
      "it is not what changeNotes makes",
      () => igniteTools(oven().component, fakeDialect),
      "yes",
      /tellChanges takes what changeNotes\(\{ maxChars \}\) makes, not a string/,
    ],
  ];

  it.each(cases)("%s", async (_, bridge, tellChanges, message) => {
    const { model, requests } = scriptedModel([]);
    // Given as a JavaScript caller gives anything: the types admit only what changeNotes makes.
    const notes = tellChanges as ReturnType<typeof changeNotes>;
    const run = runToolLoop({ tools: bridge(), model, messages: ask("Go."), tellChanges: notes });
    await expect(run).rejects.toThrow(TypeError);
    await expect(run).rejects.toThrow(message);
    expect(requests).toHaveLength(0);
  });

  it("refuses a maxChars below the smallest note when the notes are made", () => {
    expect(() => changeNotes({ maxChars: 100 })).toThrow(
      /changeNotes: maxChars must be a whole number ≥ 500, not 100/,
    );
  });
});

/**
 * An oven whose run paused for approval (every call is asked about) in a turn during which the
 * world preheated it: what the notes heard and had not told when it paused.
 */
async function pausedWhilePreheated() {
  const { component, world, state } = oven();
  const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
  const paused = await runToolLoop({
    tools,
    model: scriptedModel([
      () => {
        world.preheated();
        return { toolCalls: [preheat(180)] };
      },
    ]).model,
    messages: ask("Heat up."),
    tellChanges: changeNotes(),
  });
  if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);
  return { world, state, tools, paused };
}

describe("tellChanges after resumeToolLoop", () => {
  it("tells what changed outside the calls from the resume's start, not what happened while it was paused", async () => {
    const { component, world } = oven();
    world.preheated();
    const tools = igniteTools(component, fakeDialect, {
      approve: approval(({ route }) => (route.command === "bake" ? "ask" : "allow")),
    });
    const paused = await runToolLoop({
      tools,
      model: scriptedModel([[{ id: "b1", name: "bake", input: { dish: "bread" } }]]).model,
      messages: ask("Bake bread."),
      tellChanges: changeNotes(),
    });
    if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);
    expect(world.held()).toBe(0);

    // While nobody looks: not told.
    world.openDoor();
    world.closeDoor();
    const { model } = scriptedModel([
      () => {
        world.openDoor(); // told at the request after this one
        return { toolCalls: [preheat(200, "p2")] };
      },
    ]);
    const result = await resumeToolLoop({
      tools,
      model,
      state: paused.state,
      decisions: paused.pending.map((call) => approveCall(call)),
      tellChanges: changeNotes(),
    });

    expect(result.stop).toBe("done");
    expect(result.steps.map((step) => step.told?.split("\n").slice(1, 3))).toEqual([
      undefined,
      undefined,
      ["Events, oldest first:", '- {"type":"doorOpened"}'],
    ]);
    expect(world.held()).toBe(0);
  });

  it("tells an outside change made while the paused turn was settled", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const paused = await runToolLoop({
      tools,
      model: scriptedModel([[preheat(180)]]).model,
      messages: ask("Heat up."),
    });
    if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);

    let once = true;
    const result = await resumeToolLoop({
      tools,
      model: scriptedModel([]).model,
      state: paused.state,
      decisions: paused.pending.map((call) => approveCall(call)),
      tellChanges: changeNotes(),
      // Outside every call, once the settled turn is answered (as a timer could fire then).
      onStep: () => {
        if (once) world.preheated();
        once = false;
      },
    });

    expect(result.steps.map((step) => step.told)).toEqual([
      undefined,
      [
        HEADER,
        "Events, oldest first:",
        '- {"type":"preheated"}',
        'State now: {"temperature":180,"preheated":true,"door":"closed"}',
        "Now available: bake",
      ].join("\n"),
    ]);
    expect(world.held()).toBe(0);
  });

  it("tells after the resume, once, an outside event heard while the model thought in the turn that paused, before what the resume heard", async () => {
    const { component, world } = oven();
    world.openDoor(); // before the run: nobody observes it
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const paused = await runToolLoop({
      tools,
      model: scriptedModel([
        () => {
          world.preheated(); // heard while the model thinks, in the turn that then pauses
          return { toolCalls: [preheat(180)] };
        },
      ]).model,
      messages: ask("Heat up."),
      tellChanges: changeNotes(),
    });
    if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);
    expect(world.held()).toBe(0);
    // Stored as JSON and read back, as an application does.
    const state: typeof paused.state = JSON.parse(JSON.stringify(paused.state));
    expect(state.untold).toEqual({
      events: [{ type: "preheated" }],
      available: [],
      unavailable: [],
    });

    let once = true;
    const { model, requests } = scriptedModel([]);
    const result = await resumeToolLoop({
      tools,
      model,
      state,
      decisions: paused.pending.map((call) => approveCall(call)),
      tellChanges: changeNotes(),
      // Heard by the resume, once the settled turn is answered and before its first request.
      onStep: () => {
        if (once) world.closeDoor();
        once = false;
      },
    });

    const note = [
      HEADER,
      "Events, oldest first:",
      '- {"type":"preheated"}',
      '- {"type":"doorClosed"}',
      'State now: {"temperature":180,"preheated":true,"door":"closed"}',
      "Now available: bake",
    ].join("\n");
    expect(result.stop).toBe("done");
    expect(result.steps.map((step) => step.told)).toEqual([undefined, note]);
    expect(notesIn(requests[0]?.messages ?? [])).toEqual([note]);
    expect(world.held()).toBe(0);
  });

  it("carries what was heard and untold as plain JSON, and tells it even when the resume heard nothing", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, {
      approve: approval(({ route }) => (route.command === "bake" ? "ask" : "allow")),
    });
    const paused = await runToolLoop({
      tools,
      model: scriptedModel([
        () => {
          world.preheated();
          world.notify(); // a repeat: not a change
          return { toolCalls: [{ id: "b1", name: "bake", input: { dish: "bread" } }] };
        },
      ]).model,
      messages: ask("Bake bread."),
      tellChanges: changeNotes(),
    });
    if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);
    expect(JSON.parse(JSON.stringify(paused.state))).toEqual(paused.state);
    // bake became available while the model thought: the world's doing, not told yet.
    expect(paused.state.untold).toEqual({
      events: [{ type: "preheated" }],
      available: ["bake"],
      unavailable: [],
    });

    const result = await resumeToolLoop({
      tools,
      model: scriptedModel([]).model,
      state: paused.state,
      decisions: paused.pending.map((call) => denyCall(call, "not now")),
      tellChanges: changeNotes(),
    });

    expect(result.steps.map((step) => step.told)).toEqual([
      undefined,
      [
        HEADER,
        "Events, oldest first:",
        '- {"type":"preheated"}',
        'State now: {"temperature":20,"preheated":true,"door":"closed"}',
        "Now available: bake",
      ].join("\n"),
    ]);
    expect(world.held()).toBe(0);
  });

  it("carries nothing when everything heard was told or read, and nothing without tellChanges", async () => {
    const { component } = oven();
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const withNotes = await runToolLoop({
      tools,
      model: scriptedModel([[preheat(180)]]).model,
      messages: ask("Heat up."),
      tellChanges: changeNotes(),
    });
    const { component: other, world } = oven();
    const without = await runToolLoop({
      tools: igniteTools(other, fakeDialect, { approve: approval(() => "ask") }),
      model: scriptedModel([
        () => {
          world.preheated();
          return { toolCalls: [preheat(180)] };
        },
      ]).model,
      messages: ask("Heat up."),
    });

    expect(withNotes.state).toBeDefined();
    expect(withNotes.state && "untold" in withNotes.state).toBe(false);
    expect(without.state && "untold" in without.state).toBe(false);
  });

  it("resumes a state paused without untold (by an earlier version) as one with nothing untold", async () => {
    const { world, tools, paused } = await pausedWhilePreheated();
    const { untold, ...older } = paused.state;
    expect(untold).toBeDefined();
    expect(older.version).toBe(1);

    let once = true;
    const result = await resumeToolLoop({
      tools,
      model: scriptedModel([]).model,
      state: older,
      decisions: paused.pending.map((call) => approveCall(call)),
      tellChanges: changeNotes(),
      onStep: () => {
        if (once) world.openDoor();
        once = false;
      },
    });

    expect(result.stop).toBe("done");
    expect(result.steps[1]?.told?.split("\n").slice(1, 3)).toEqual([
      "Events, oldest first:",
      '- {"type":"doorOpened"}',
    ]);
    expect(world.held()).toBe(0);
  });

  it("refuses, before anything runs, a state whose untold changes are not what a pause stores", async () => {
    const { world, state, tools, paused } = await pausedWhilePreheated();
    const { model, requests } = scriptedModel([]);

    const resume = resumeToolLoop({
      tools,
      model,
      state: { ...paused.state, untold: { events: "preheated" } as never },
      decisions: paused.pending.map((call) => approveCall(call)),
      tellChanges: changeNotes(),
    });

    await expect(resume).rejects.toMatchObject({ name: "ApprovalError", code: "tampered" });
    expect(state().temperature).toBe(20);
    expect(requests).toEqual([]);
    expect(world.held()).toBe(0);
  });

  it("releases its observation when the resume is refused", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, fakeDialect, { approve: approval(() => "ask") });
    const paused = await runToolLoop({
      tools,
      model: scriptedModel([[preheat(180)]]).model,
      messages: ask("Heat up."),
    });
    if (paused.stop !== "approval") throw new Error(`expected a pause, got ${paused.stop}`);

    const resume = resumeToolLoop({
      tools,
      model: scriptedModel([]).model,
      state: paused.state,
      decisions: [],
      tellChanges: changeNotes(),
    });

    await expect(resume).rejects.toThrow();
    expect(world.held()).toBe(0);
  });
});

describe.each(providers)("tellChanges over $name", (provider) => {
  // Where each provider's note goes, as its docs have it: after the turn's results.
  const expected: Record<string, (note: string) => unknown[]> = {
    anthropic: (note) => [
      {
        role: "user",
        content: [
          expect.objectContaining({ type: "tool_result", tool_use_id: "call_1" }),
          { type: "text", text: note },
        ],
      },
    ],
    openai: (note) => [
      expect.objectContaining({ role: "tool", tool_call_id: "call_1" }),
      { role: "user", content: note },
    ],
    openaiResponses: (note) => [
      expect.objectContaining({ type: "function_call_output", call_id: "call_1" }),
      { type: "message", role: "user", content: [{ type: "input_text", text: note }] },
    ],
    gemini: (note) => [
      {
        role: "user",
        parts: [{ functionResponse: expect.objectContaining({ name: "preheat" }) }, { text: note }],
      },
    ],
    ollama: (note) => [
      expect.objectContaining({ role: "tool", tool_name: "preheat" }),
      { role: "user", content: note },
    ],
  };

  it("tells an outside event at the next request, in the provider's own format", async () => {
    const { component, world } = oven();
    const tools = igniteTools(component, provider.dialect);
    const sent: unknown[][] = [];
    const call = { id: "call_1", name: "preheat", args: argsFor(provider, { target: 180 }) };

    const result = await runToolLoop({
      tools,
      model: async ({ messages, turn }) => {
        sent.push(messages);
        if (turn > 1) return provider.respond([], "Preheating.") as never;
        world.preheated();
        return provider.respond([call]) as never;
      },
      messages: [],
      tellChanges: changeNotes(),
    });

    const note = result.steps[1]?.told ?? "";
    expect(note).toContain('- {"type":"preheated"}');
    const shape = expected[provider.name]?.(note) ?? [];
    expect(sent[1]?.slice(-shape.length)).toEqual(shape);
    expect(world.held()).toBe(0);
  });
});

describe("appendNote where no results came before", () => {
  it("is a user message of its own for Anthropic and Gemini, and changes no message it was given", () => {
    const anthropicHistory = [{ role: "user" as const, content: "Hi." }];
    const geminiHistory = [{ role: "model", parts: [{ text: "Hello." }] }];

    expect(anthropic.appendNote?.(anthropicHistory, "note")).toEqual([
      { role: "user", content: "Hi." },
      { role: "user", content: [{ type: "text", text: "note" }] },
    ]);
    expect(gemini.appendNote?.(geminiHistory, "note")).toEqual([
      { role: "model", parts: [{ text: "Hello." }] },
      { role: "user", parts: [{ text: "note" }] },
    ]);
    expect(anthropicHistory).toEqual([{ role: "user", content: "Hi." }]);
    expect(geminiHistory).toEqual([{ role: "model", parts: [{ text: "Hello." }] }]);
  });

  it("adds to a copy of the message holding the results, never to the message itself", () => {
    const results = {
      role: "user" as const,
      content: [{ type: "tool_result" as const, tool_use_id: "t1", content: "{}" }],
    };
    const noted = anthropic.appendNote?.([results], "note");

    expect(noted?.[0]?.content).toEqual([...results.content, { type: "text", text: "note" }]);
    expect(results.content).toHaveLength(1);
  });
});

describe("the note's bound and order (properties)", () => {
  it("never exceeds maxChars, whatever the events, the state and the names", () => {
    fc.assert(
      fc.property(
        fc.array(fc.anything(), { maxLength: 60 }),
        fc.anything(),
        fc.array(fc.string({ maxLength: 80 }), { maxLength: 30 }),
        fc.array(fc.string({ maxLength: 80 }), { maxLength: 30 }),
        fc.integer({ min: 500, max: 4_000 }),
        (events, snapshot, available, unavailable, maxChars) => {
          const note = changesNote({ events, snapshot, available, unavailable }, maxChars);
          expect(note.length).toBeLessThanOrEqual(maxChars);
          expect(note.startsWith(HEADER)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("tells every outside event exactly once, in order, however outside changes, calls and waits interleave", async () => {
    const turn = fc.record({
      // Events from outside while the model thinks.
      knocks: fc.nat({ max: 4 }),
      // The model's own calls, each emitting an event of the call.
      rings: fc.nat({ max: 2 }),
      // A wait that an outside knock ends, and so answers with.
      waits: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 6 }), async (turns) => {
        const { component, knock } = bell();
        const tools = igniteTools(component, fakeDialect, { wait: waitTool({ maxMs: 5_000 }) });
        let count = 0;
        const knocked: number[] = [];
        const answered: number[] = [];
        const result = await runToolLoop({
          tools,
          maxTurns: turns.length + 1,
          messages: ask("Listen."),
          tellChanges: changeNotes(),
          model: async ({ turn: number }) => {
            const now = turns[number - 1];
            if (now === undefined) return { toolCalls: [] };
            for (let index = 0; index < now.knocks; index++) {
              knocked.push(count);
              knock(count++);
            }
            const calls: NeutralToolCall[] = [];
            for (let index = 0; index < now.rings; index++) calls.push({ name: "ring" });
            // A turn without calls would end the loop.
            if (now.rings === 0 && !now.waits) calls.push({ name: "ring" });
            if (now.waits) {
              const heard = count++;
              answered.push(heard);
              setTimeout(() => knock(heard));
              calls.push({ name: "waitFor", input: { event: "knock" } });
            }
            return { toolCalls: calls };
          },
        });

        expect(result.stop).toBe("done");
        const told = result.steps.flatMap((step) =>
          (step.told ?? "")
            .split("\n")
            .filter((line) => line.startsWith("- {"))
            .map((line) => (JSON.parse(line.slice(2)) as { payload: number }).payload),
        );
        expect(told).toEqual(knocked);
        const waited = result.steps.flatMap((step) =>
          step.answers.flatMap(({ outcome }) =>
            outcome.ok && "waited" in outcome.value
              ? outcome.value.events.map((event) => event.payload)
              : [],
          ),
        );
        expect(waited).toEqual(answered);
        // A request is told something exactly when something happened outside since the last.
        expect(result.steps.map((step) => step.told !== undefined)).toEqual(
          result.steps.map((_, index) => index > 0 && (turns[index - 1]?.knocks ?? 0) > 0),
        );
      }),
      { numRuns: 40 },
    );
  });

  it("tells every outside event it heard exactly once, in order, across pauses for approval and their resumes", async () => {
    const turn = fc.record({
      // Events from outside while the model thinks.
      knocks: fc.nat({ max: 3 }),
      // The model's own calls, each emitting an event of the call.
      rings: fc.nat({ max: 2 }),
      // A wait that an outside knock ends, and so answers with.
      waits: fc.boolean(),
      // A call a person is asked about: the loop pauses, and is resumed.
      asks: fc.boolean(),
      // Events from outside while the loop is paused: nobody hears them, nobody tells them.
      whilePaused: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 6 }), async (turns) => {
        const { component, knock, held } = bell();
        const tools = igniteTools(component, fakeDialect, {
          wait: waitTool({ maxMs: 5_000 }),
          approve: approval(({ route }) => (route.command === "open" ? "ask" : "allow")),
        });
        let count = 0;
        const knocked: number[] = [];
        // Each request's note, read where the model reads it: a paused turn's step is not kept.
        const notes: string[] = [];
        const model = async ({
          turn: number,
          messages,
        }: ModelRequest<unknown, FakeMessage>): Promise<FakeResponse> => {
          const last = messages.at(-1);
          if (messages.length > 1 && last?.role === "user") notes.push(last.content);
          const now = turns[number - 1];
          if (now === undefined) return { toolCalls: [] };
          for (let index = 0; index < now.knocks; index++) {
            knocked.push(count);
            knock(count++);
          }
          const calls: NeutralToolCall[] = [];
          for (let index = 0; index < now.rings; index++) calls.push({ name: "ring" });
          if (now.waits) {
            const heard = count++;
            setTimeout(() => knock(heard));
            calls.push({ name: "waitFor", input: { event: "knock" } });
          }
          if (now.asks || calls.length === 0) calls.push({ name: "open" });
          return { toolCalls: calls };
        };
        const options = { tools, model, tellChanges: changeNotes() };
        let result = await runToolLoop({
          ...options,
          maxTurns: turns.length + 1,
          messages: ask("Listen."),
        });
        const steps = [...result.steps];
        while (result.stop === "approval") {
          for (let index = 0; index < (turns[result.state.turn - 1]?.whilePaused ?? 0); index++) {
            knock(count++); // never heard: not in `knocked`
          }
          const { pending, state } = JSON.parse(JSON.stringify(result));
          result = await resumeToolLoop({
            ...options,
            state,
            decisions: pending.map((call: PendingCall) => approveCall(call)),
          });
          steps.push(...result.steps);
        }

        expect(result.stop).toBe("done");
        // Every turn answered once: before a pause, or settled by its resume.
        expect(steps.map((step) => step.turn)).toEqual(steps.map((_, index) => index + 1));
        const told = notes.flatMap((note) =>
          note
            .split("\n")
            .filter((line) => line.startsWith("- {"))
            .map((line) => JSON.parse(line.slice(2)) as BellEvent)
            .filter((event) => event.type === "knock")
            .map((event) => event.payload),
        );
        expect(told).toEqual(knocked);
        expect(held()).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});

type BellEvent = { type: "knock"; payload: number } | { type: "rang"; payload: number };

/** A door bell: the model rings it (or opens the door, ringing too), and someone outside knocks. */
function bell() {
  let state = { rings: 0, knocks: 0 };
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: BellEvent) => void>();
  const change = (next: typeof state, event: BellEvent) => {
    state = next;
    for (const listener of [...eventListeners]) listener(event);
    for (const listener of [...listeners]) listener();
  };
  const component: AgentComponent<typeof state, BellEvent> = {
    getSchema: () => ({ commands: { ring: {}, open: {} }, events: ["knock", "rang"] }),
    execute() {
      const event: BellEvent = { type: "rang", payload: state.rings + 1 };
      change({ ...state, rings: state.rings + 1 }, event);
      return { state, events: [event] };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
  const knock = (payload: number) =>
    change({ ...state, knocks: state.knocks + 1 }, { type: "knock", payload });
  return { component, knock, held: () => listeners.size + eventListeners.size };
}
