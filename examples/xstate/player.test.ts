import {
  type FakeMessage,
  fakeDialect,
  igniteTools,
  lastResults,
  runToolLoop,
  type ScriptedTurn,
  scriptedModel,
} from "ignite-element/tools";
import { describe, expect, it } from "vitest";
import { createActor, setup } from "xstate";
import { fromActor } from "./fromActor.js";
import { playerCommands, playerMachine } from "./player.js";

const scripted = (...turns: ScriptedTurn[]) => scriptedModel(turns, "Paused at two minutes.");

const start: FakeMessage[] = [
  { role: "user", content: "Put on 'So What' (9:22) quietly and pause it at two minutes." },
];

describe("an XState media player driven by a scripted model", () => {
  it("answers Unavailable and InvalidInput, takes the corrections, and observes what each call emitted", async () => {
    const actor = createActor(playerMachine).start();
    const { model, offered } = scripted(
      [
        { id: "1", name: "play", input: {} },
        { id: "2", name: "load", input: { title: "", duration: 0 } },
      ],
      (request) => {
        const [play, load] = lastResults(request.messages);
        expect(play).toMatchObject({ ok: false, error: { kind: "Unavailable" } });
        expect(load).toMatchObject({
          ok: false,
          error: {
            kind: "InvalidInput",
            issues: [
              { path: "/title", keyword: "minLength" },
              { path: "/duration", keyword: "minimum" },
            ],
          },
        });
        return {
          toolCalls: [
            { id: "3", name: "load", input: { title: "So What", duration: 562 } },
            { id: "4", name: "setVolume", input: { level: 30 } },
          ],
        };
      },
      [
        { id: "5", name: "play", input: {} },
        // Valid for the schema, but past the end of the track: only the guard can tell.
        { id: "6", name: "seek", input: { seconds: 900 } },
      ],
      [
        { id: "7", name: "seek", input: { seconds: 120 } },
        { id: "8", name: "pause", input: {} },
      ],
    );

    const result = await runToolLoop({
      tools: igniteTools(fromActor(actor, playerCommands), fakeDialect),
      model,
      messages: start,
    });

    expect(result.stop).toBe("done");
    expect(offered()).toEqual([
      ["load", "seek", "setVolume"],
      ["load", "seek", "setVolume"],
      ["play", "seek", "setVolume", "stop"],
      ["pause", "seek", "setVolume", "stop"],
      ["play", "seek", "setVolume", "stop"],
    ]);
    expect(result.steps.map((step) => step.errors.map((error) => error.kind))).toEqual([
      ["Unavailable", "InvalidInput"],
      [],
      ["ExecuteFailed"],
      [],
      [],
    ]);
    expect(result.steps[2]?.errors[0]?.message).toBe(
      'Command "seek" failed: the machine does not accept "seek" in state {"loaded":"playing"} with this input; nothing was sent',
    );

    const emitted = result.steps.map((step) =>
      step.answers.map((answer) => (answer.outcome.ok ? answer.outcome.value.events : [])),
    );
    expect(emitted).toEqual([
      [[], []],
      [
        [{ type: "trackLoaded", title: "So What", duration: 562 }],
        [{ type: "volumeChanged", volume: 30 }],
      ],
      [[{ type: "started", title: "So What", position: 0 }], []],
      [[{ type: "seeked", position: 120 }], [{ type: "paused", position: 120 }]],
      [],
    ]);

    const final = {
      value: { loaded: "paused" },
      context: { track: { title: "So What", duration: 562 }, position: 120, volume: 30 },
    };
    expect(result.snapshot).toEqual(final);
    expect(actor.getSnapshot()).toMatchObject(final);
  });

  it("reports only the events emitted while handling the call, not those of sends from elsewhere", async () => {
    const actor = createActor(playerMachine).start();
    const tools = igniteTools(fromActor(actor, playerCommands));
    actor.send({ type: "setVolume", level: 80 });

    const loaded = await tools.invoke({ name: "load", input: { title: "Freddie", duration: 60 } });

    expect(loaded).toEqual({
      ok: true,
      value: {
        snapshot: {
          value: { loaded: "paused" },
          context: { track: { title: "Freddie", duration: 60 }, position: 0, volume: 80 },
        },
        events: [{ type: "trackLoaded", title: "Freddie", duration: 60 }],
      },
    });
  });

  it("never offers a gated event whose guard reads the payload, because availability is checked without it", async () => {
    const actor = createActor(playerMachine).start();
    actor.send({ type: "load", title: "Blue in Green", duration: 337 });
    const tools = igniteTools(fromActor(actor, { ...playerCommands, seek: { gated: true } }));

    expect(actor.getSnapshot().can({ type: "seek", seconds: 10 })).toBe(true);
    expect(tools.manifest().map((tool) => tool.name)).not.toContain("seek");
    const seek = await tools.invoke({ name: "seek", input: {} });
    expect(!seek.ok && seek.error.kind).toBe("Unavailable");
  });

  it("answers ExecuteFailed when an action throws, and offers no gated command once the actor has failed", async () => {
    const jukebox = setup({
      types: { events: {} as { type: "eject" } | { type: "insert" } },
    }).createMachine({
      on: {
        eject: {
          actions: () => {
            throw new Error("the tray is stuck");
          },
        },
        insert: {},
      },
    });
    const actor = createActor(jukebox).start();
    const tools = igniteTools(
      fromActor(actor, { eject: { gated: true }, insert: { description: "Insert a coin." } }),
    );
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["eject", "insert"]);

    const ejected = await tools.invoke({ name: "eject", input: {} });
    expect(!ejected.ok && ejected.error.message).toBe('Command "eject" failed: the tray is stuck');
    expect(actor.getSnapshot().status).toBe("error");
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["insert"]);
    const inserted = await tools.invoke({ name: "insert", input: {} });
    expect(!inserted.ok && inserted.error.message).toBe(
      'Command "insert" failed: the machine is no longer running (status "error"); nothing was sent',
    );
  });

  it("refuses, at construction, an input schema that is not an object", () => {
    const actor = createActor(playerMachine).start();
    // @ts-expect-error an event's payload is its fields, so only object schemas are accepted
    const scalar = () => fromActor(actor, { seek: { input: { type: "integer" } } });
    expect(scalar).toThrow(TypeError);
    expect(scalar).toThrow(/Event "seek" has an input schema that is not \{ type: "object" \}/);
  });
});
