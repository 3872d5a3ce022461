import { igniteTools, type LiveChange, observe, until } from "ignite-element/tools";
import { fromMobx, type MobxData, type MobxEvent } from "ignite-element/tools/mobx";
import { openai } from "ignite-element/tools/openai";
import { makeAutoObservable, observable } from "mobx";
import { describe, expectTypeOf, it } from "vitest";

class Playlist {
  tracks: string[] = [];
  playing = false;
  constructor() {
    makeAutoObservable(this);
  }
  get length() {
    return this.tracks.length;
  }
  add(track: string) {
    this.tracks.push(track);
  }
  play(from?: number) {
    this.playing = from === undefined || from < this.tracks.length;
  }
  stop() {
    this.playing = false;
  }
  tick() {}
}

// A getter without a setter is read-only in TypeScript, and so in the snapshot's type.
type Snapshot = { tracks: string[]; playing: boolean; readonly length: number };
type Played =
  | { type: "add"; payload: string }
  | { type: "play"; payload?: number }
  | { type: "stop" };

describe("fromMobx types", () => {
  it("infers the snapshot, every non-method property, and the events of the named actions", () => {
    const tools = igniteTools(
      fromMobx(new Playlist(), {
        commands: { add: { input: { type: "string" } }, play: {}, stop: { gated: true } },
        canExecute: (playlist, command) => {
          expectTypeOf(playlist).toEqualTypeOf<Playlist>();
          expectTypeOf(command).toEqualTypeOf<"add" | "play" | "stop">();
          return playlist.playing;
        },
      }),
      openai,
    );
    observe(tools, (change) => {
      expectTypeOf(change).toEqualTypeOf<LiveChange<MobxData<Playlist>, Played>>();
      expectTypeOf(change.snapshot).toEqualTypeOf<Snapshot>();
      if (change.event?.type === "add") expectTypeOf(change.event.payload).toEqualTypeOf<string>();
    });
    expectTypeOf(until(tools, ({ snapshot }) => snapshot.length > 2)).resolves.toEqualTypeOf<
      LiveChange<Snapshot, Played>
    >();
  });

  it("adds the declared events' actions to the event type, and takes the snapshot's type from its selector", () => {
    const component = fromMobx(new Playlist(), {
      commands: {},
      events: ["tick"],
      snapshot: (playlist) => ({ first: playlist.tracks[0] }),
    });
    expectTypeOf(component.getSnapshot).toEqualTypeOf<
      (() => { first: string | undefined }) | undefined
    >();
    expectTypeOf<Parameters<NonNullable<typeof component.onEvent>>[0]>().toEqualTypeOf<
      (event: { type: "tick" }) => void
    >();
    expectTypeOf<MobxEvent<Playlist, "play" | "tick">>().toEqualTypeOf<
      { type: "play"; payload?: number } | { type: "tick" }
    >();
  });

  it("types a plain observable object the same way", () => {
    const counter = observable({
      count: 0,
      add(by: number) {
        this.count += by;
      },
    });
    const tools = igniteTools(
      fromMobx(counter, { commands: { add: { input: { type: "integer" } } } }),
    );
    observe(tools, ({ snapshot, event }) => {
      expectTypeOf(snapshot).toEqualTypeOf<{ count: number }>();
      expectTypeOf(event).toEqualTypeOf<{ type: "add"; payload: number } | undefined>();
    });
  });

  it("refuses what the store does not have, and an action's argument without its schema", () => {
    const playlist = new Playlist();
    // Type-checked, never run: each would throw at construction too.
    const refused = () => [
      // @ts-expect-error — `shuffle` is not a method of the store
      fromMobx(playlist, { commands: { shuffle: {} } }),
      // @ts-expect-error — `tracks` is a field, not a method
      fromMobx(playlist, { commands: { tracks: {} } }),
      // @ts-expect-error — `add` takes an argument, so its input schema is required
      fromMobx(playlist, { commands: { add: {} } }),
      // @ts-expect-error — `shuffle` is not a method of the store
      fromMobx(playlist, { commands: {}, events: ["shuffle"] }),
    ];
    expectTypeOf(refused).toBeFunction();
    // `play`'s argument is optional: it may be offered without one.
    fromMobx(playlist, { commands: { play: {} } });
  });
});
