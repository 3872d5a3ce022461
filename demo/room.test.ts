import { igniteTools, waitTool } from "ignite-element/tools";
import { anthropic } from "ignite-element/tools/anthropic";
import { describe, expect, it } from "vitest";
import { type Clock, createRoom, type RoomEvent } from "./room.js";

/** A clock that moves only when the test says: `advance(ms)` runs what falls due, in order. */
function manualClock() {
  let now = 0;
  const timers = new Set<{ at: number; task: () => void }>();
  const clock: Clock = (ms, task) => {
    const timer = { at: now + ms, task };
    timers.add(timer);
    return () => timers.delete(timer);
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = [...timers].filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers.delete(due);
      now = due.at;
      due.task();
    }
    now = until;
  };
  return { clock, advance, pending: () => timers.size };
}

/** A room on a manual clock, with everything it reports recorded. */
function watchedRoom(options: { homecomingMs?: number | null } = {}) {
  const time = manualClock();
  const room = createRoom({ clock: time.clock, warmUpMs: 40, ...options });
  const events: RoomEvent[] = [];
  let notified = 0;
  room.onEvent((event) => events.push(event));
  room.subscribe(() => notified++);
  return { room, time, events, notified: () => notified };
}

describe("the demo's room", () => {
  it("keeps the same frozen snapshot while nothing changes, and makes a new one with each change", async () => {
    const { room } = watchedRoom();
    const before = room.getSnapshot();
    expect(room.getSnapshot()).toBe(before);
    expect(Object.isFrozen(before.thermostat)).toBe(true);

    await room.execute("status", {});
    await room.execute("setLights", { brightness: 80 }); // what it already is
    expect(room.getSnapshot()).toBe(before);

    await room.execute("setLights", { brightness: 30 });
    expect(room.getSnapshot()).not.toBe(before);
    expect(room.getSnapshot().lights.brightness).toBe(30);
    expect(before.lights.brightness).toBe(80);
  });

  it("reports each event of a call through onEvent, and notifies once per change", async () => {
    const { room, events, notified } = watchedRoom();
    await room.execute("setMode", { mode: "heat" });
    await room.execute("boost", { minutes: 30 });
    await room.execute("setMode", { mode: "off" });
    expect(events).toEqual([
      { type: "modeChanged", payload: { from: "off", to: "heat" } },
      { type: "boostStarted", payload: { minutes: 30 } },
      { type: "modeChanged", payload: { from: "heat", to: "off" } },
      { type: "boostCancelled" },
    ]);
    expect(notified()).toBe(3);
  });

  it("warms up to its target on its own once a boost has run for warmUpMs, emitting warmedUp", async () => {
    const { room, time, events } = watchedRoom({ homecomingMs: null });
    await room.execute("setMode", { mode: "heat" });
    await room.execute("setTarget", { celsius: 21 });
    await room.execute("boost", { minutes: 30 });
    events.length = 0;

    time.advance(39);
    expect(room.getSnapshot().thermostat.temperature).toBe(17);
    // The target moved while it warmed: the room reaches the one it has when it is warm.
    await room.execute("setTarget", { celsius: 21.5 });
    events.length = 0;
    time.advance(1);
    expect(events).toEqual([{ type: "warmedUp", payload: { celsius: 21.5 } }]);
    expect(room.getSnapshot().thermostat.temperature).toBe(21.5);
    expect(time.pending()).toBe(0);
  });

  it("never warms up once leaving heat cancelled the boost", async () => {
    const { room, time, events } = watchedRoom({ homecomingMs: null });
    await room.execute("setMode", { mode: "heat" });
    await room.execute("boost", { minutes: 15 });
    await room.execute("setMode", { mode: "cool" });
    events.length = 0;
    time.advance(1_000);
    expect(events).toEqual([]);
    expect(room.getSnapshot().thermostat.temperature).toBe(17);
  });

  it("has a person come home during the first warm-up and unlock the locked door, outside any call", async () => {
    const { room, time, events } = watchedRoom({ homecomingMs: 20 });
    await room.execute("lockDoor", {});
    await room.execute("setMode", { mode: "heat" });
    await room.execute("setTarget", { celsius: 21.5 });
    await room.execute("boost", { minutes: 30 });
    events.length = 0;

    time.advance(20);
    expect(events).toEqual([{ type: "doorUnlocked" }]);
    expect(room.canExecute?.("lockDoor")).toBe(true);
    time.advance(20);
    expect(events).toEqual([
      { type: "doorUnlocked" },
      { type: "warmedUp", payload: { celsius: 21.5 } },
    ]);

    // Once: a second boost brings nobody else home.
    await room.execute("lockDoor", {});
    await room.execute("boost", { minutes: 15 });
    events.length = 0;
    time.advance(1_000);
    expect(room.getSnapshot().door).toBe("locked");
  });

  it("reports nothing when the person finds the door already unlocked", () => {
    const { room, events, notified } = watchedRoom();
    const before = room.getSnapshot();
    room.person.unlockDoor();
    expect(events).toEqual([]);
    expect(notified()).toBe(0);
    expect(room.getSnapshot()).toBe(before);
  });

  it("offers the model a wait for each event it declares and each gated command", () => {
    const tools = igniteTools(createRoom(), anthropic, { wait: waitTool({ maxMs: 5_000 }) });
    const wait = tools.toToolDefs().find((tool) => tool.name === "waitFor");
    expect(wait?.input_schema.properties).toMatchObject({
      event: { enum: expect.arrayContaining(["warmedUp", "doorUnlocked"]) },
      available: { enum: ["boost", "lockDoor", "unlockDoor"] },
      seconds: { maximum: 5 },
    });
  });
});
