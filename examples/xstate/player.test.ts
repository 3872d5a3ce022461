import {
  type FakeMessage,
  fakeDialect,
  igniteTools,
  lastResults,
  runToolLoop,
  type ScriptedTurn,
  scriptedModel,
} from "ignite-element/tools";
import { fromActor } from "ignite-element/tools/xstate";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
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
      ["load", "setVolume"],
      ["load", "setVolume"],
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
      'Command "seek" failed: the machine does not take "seek" with this input in state {"loaded":"playing"}; nothing was sent. Change the input or use another tool',
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

  it("offers seek only with a track loaded, and refuses a position past its end without sending it", async () => {
    const actor = createActor(playerMachine).start();
    const tools = igniteTools(fromActor(actor, playerCommands));
    expect(tools.manifest().map((tool) => tool.name)).toEqual(["load", "setVolume"]);

    await tools.invoke({ name: "load", input: { title: "Blue in Green", duration: 337 } });
    expect(tools.manifest().map((tool) => tool.name)).toContain("seek");
    const past = await tools.invoke({ name: "seek", input: { seconds: 338 } });

    expect(!past.ok && past.error.message).toBe(
      'Command "seek" failed: the machine does not take "seek" with this input in state {"loaded":"paused"}; nothing was sent. Change the input or use another tool',
    );
    expect(actor.getSnapshot().context.position).toBe(0);
  });
});
