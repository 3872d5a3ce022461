/**
 * The demo's component: one room of a smart home. Small, but it has everything a model has to get
 * right — ranges, a step size, enums, defaults, commands that exist only in some states, and an
 * event for every change — so the demo shows each way a call can succeed or fail. And it changes
 * on its own, as real rooms do: a boost warms it up on the room's clock, and a person comes home
 * and unlocks the front door while the model is busy, outside every call.
 */
import type { AgentComponent, AgentSchema, ImagePart } from "ignite-element/tools";
import { temperatureChart } from "./chart.js";

export type Colour = "warm" | "neutral" | "daylight";
export type Mode = "heat" | "cool" | "off";

export interface RoomState {
  lights: { brightness: number; colour: Colour };
  /**
   * `temperature` is the room's, in °C, now; `boostMinutes` is 0 when no boost is running.
   */
  thermostat: { mode: Mode; target: number; temperature: number; boostMinutes: number };
  door: "locked" | "unlocked";
}

export type RoomEvent =
  | { type: "lightsChanged"; payload: RoomState["lights"] }
  | { type: "modeChanged"; payload: { from: Mode; to: Mode } }
  | { type: "targetChanged"; payload: { from: number; to: number } }
  | { type: "boostStarted"; payload: { minutes: number } }
  | { type: "boostCancelled" }
  | { type: "warmedUp"; payload: { celsius: number } }
  | { type: "doorLocked" }
  | { type: "doorUnlocked" };

/**
 * The room as a component that reports its changes (`getSnapshot`, `subscribe`, `onEvent`), plus
 * a read of its state for the demo's final report.
 */
export interface Room extends AgentComponent<RoomState, RoomEvent> {
  readonly state: RoomState;
  getSnapshot(): RoomState;
  subscribe(listener: () => void): () => void;
  onEvent(listener: (event: RoomEvent) => void): () => void;
  /** What a person does at the room, outside every call. */
  readonly person: {
    /** Unlocks the front door with a key (emits `doorUnlocked`); nothing when it is unlocked. */
    unlockDoor(): void;
  };
}

/**
 * Where the room's own changes are scheduled: runs `task` once after `ms` milliseconds, and
 * returns the function that cancels it. Injectable, so a test decides when time passes.
 */
export type Clock = (ms: number, task: () => void) => () => void;

/** The real clock. */
export const realClock: Clock = (ms, task) => {
  const timer = setTimeout(task, ms);
  return () => clearTimeout(timer);
};

export interface RoomOptions {
  /** @default lights 80 % daylight, heating off at 19 °C, room at 17 °C, door unlocked */
  initial?: RoomState;
  /** @default realClock */
  clock?: Clock;
  /**
   * How long a boost takes to bring the room up to its target, in ms. The demo's time runs fast:
   * a boost that would take half an hour takes a moment, so the demo never makes anyone wait.
   *
   * @default 40
   */
  warmUpMs?: number;
  /**
   * How long after the first boost a person comes home and unlocks the front door (if it is
   * locked), in ms; `null`: nobody comes.
   *
   * @default 20 — during the warm-up
   */
  homecomingMs?: number | null;
}

const NO_INPUT = { type: "object", properties: {}, additionalProperties: false };

// Built once: the bridge caches compiled validators by schema identity, and a fixed schema
// object makes that cache hit on every turn.
const SCHEMA: AgentSchema = {
  commands: {
    status: {
      description:
        "Read the room: lights, thermostat (with the temperature now) and front door. Changes nothing.",
      readOnly: true,
      input: NO_INPUT,
    },
    setLights: {
      description: "Dim or brighten the lights and choose their colour temperature.",
      input: {
        type: "object",
        properties: {
          brightness: {
            type: "integer",
            minimum: 0,
            maximum: 100,
            description: "Percent: 0 is off, 100 is full.",
          },
          colour: {
            enum: ["warm", "neutral", "daylight"],
            description: "Colour temperature: warm (2700 K), neutral (4000 K), daylight (6500 K).",
          },
        },
        minProperties: 1,
        additionalProperties: false,
      },
    },
    setMode: {
      description: "Switch the heating/cooling mode. Leaving heat cancels a running boost.",
      // A running boost it cancels cannot be restored: the demo's policy asks before it runs.
      destructive: true,
      input: {
        type: "object",
        properties: { mode: { enum: ["heat", "cool", "off"] } },
        required: ["mode"],
        additionalProperties: false,
      },
    },
    setTarget: {
      description: "Set the target temperature in °C, in steps of 0.5.",
      input: {
        type: "object",
        properties: { celsius: { type: "number", minimum: 10, maximum: 30, multipleOf: 0.5 } },
        required: ["celsius"],
        additionalProperties: false,
      },
    },
    boost: {
      description:
        "Heat at full power for a while, so the room reaches its target quickly (event warmedUp when it does). Only in heat mode.",
      gated: true,
      input: {
        type: "object",
        properties: { minutes: { type: "integer", enum: [15, 30, 60], default: 30 } },
        additionalProperties: false,
      },
    },
    chart: {
      description:
        "A chart of the room's temperature, one bar per reading since the start, as a PNG image. Changes nothing.",
      readOnly: true,
      input: NO_INPUT,
    },
    lockDoor: { description: "Lock the front door.", gated: true, input: NO_INPUT },
    unlockDoor: { description: "Unlock the front door.", gated: true, input: NO_INPUT },
  },
  events: [
    "lightsChanged",
    "modeChanged",
    "targetChanged",
    "boostStarted",
    "boostCancelled",
    "warmedUp",
    "doorLocked",
    "doorUnlocked",
  ],
};

const INITIAL: RoomState = {
  lights: { brightness: 80, colour: "daylight" },
  thermostat: { mode: "off", target: 19, temperature: 17, boostMinutes: 0 },
  door: "unlocked",
};

// The bridge validates every input against the schema above before `execute` runs, so these
// are the shapes `execute` can rely on.
type SetLights = { brightness?: number; colour?: Colour };
type SetMode = { mode: Mode };
type SetTarget = { celsius: number };
type Boost = { minutes: number };

/** A new room, by default lights bright and cool, heating off, door unlocked. */
export function createRoom(options: RoomOptions = {}): Room {
  const { clock = realClock, warmUpMs = 40, homecomingMs = 20 } = options;
  // Every change makes a new, frozen state: the snapshot is the same value while nothing
  // changes, and an observation the model was shown never changes under it.
  let state: RoomState = deepFreeze(structuredClone(options.initial ?? INITIAL));
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: RoomEvent) => void>();
  // The warm-up a boost started, cancelled when leaving heat cancels the boost.
  let warming: (() => void) | undefined;
  // The room's temperature each time it moved, for `chart`.
  const readings = [state.thermostat.temperature];

  /** The one way the state changes: new state first, then its events, then "may have changed". */
  const change = (next: RoomState, events: RoomEvent[]) => {
    if (next.thermostat.temperature !== state.thermostat.temperature) {
      readings.push(next.thermostat.temperature);
    }
    state = deepFreeze(next);
    for (const event of events) for (const listener of [...eventListeners]) listener(event);
    for (const listener of [...listeners]) listener();
    return { state, events };
  };
  const thermostat = (next: Partial<RoomState["thermostat"]>): RoomState => ({
    ...state,
    thermostat: { ...state.thermostat, ...next },
  });

  const unlockDoor = () => change({ ...state, door: "unlocked" }, [{ type: "doorUnlocked" }]);
  // A person with a key: a door already unlocked stays as it is, and nothing is reported.
  const personUnlocks = () => {
    if (state.door === "locked") unlockDoor();
  };
  let cameHome = false;

  const startWarmUp = () => {
    warming?.();
    warming = clock(warmUpMs, () => {
      warming = undefined;
      const { target, temperature } = state.thermostat;
      // The target may have moved while it warmed: the room reaches the target it has now.
      if (temperature >= target) return;
      change(thermostat({ temperature: target }), [
        { type: "warmedUp", payload: { celsius: target } },
      ]);
    });
    if (homecomingMs === null || cameHome) return;
    cameHome = true;
    clock(homecomingMs, personUnlocks);
  };

  return {
    get state() {
      return state;
    },
    getSchema: () => SCHEMA,
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    person: { unlockDoor: personUnlocks },
    canExecute(command) {
      if (command === "boost") return state.thermostat.mode === "heat";
      if (command === "lockDoor") return state.door === "unlocked";
      if (command === "unlockDoor") return state.door === "locked";
      return true;
    },
    execute(command, input) {
      switch (command) {
        case "status":
          return { state, events: [] };
        case "chart": {
          const image: ImagePart = {
            type: "image",
            data: temperatureChart(readings),
            mimeType: "image/png",
          };
          return { state, events: [], content: [image] };
        }
        case "setLights": {
          const lights = { ...state.lights, ...(input as SetLights) };
          const changed =
            lights.brightness !== state.lights.brightness || lights.colour !== state.lights.colour;
          if (!changed) return { state, events: [] };
          return change({ ...state, lights }, [{ type: "lightsChanged", payload: lights }]);
        }
        case "setMode": {
          const { mode } = input as SetMode;
          const from = state.thermostat.mode;
          if (mode === from) return { state, events: [] };
          const cancelled = from === "heat" && state.thermostat.boostMinutes > 0;
          if (cancelled) {
            warming?.();
            warming = undefined;
          }
          const events: RoomEvent[] = [{ type: "modeChanged", payload: { from, to: mode } }];
          if (cancelled) events.push({ type: "boostCancelled" });
          return change(thermostat({ mode, boostMinutes: 0 }), events);
        }
        case "setTarget": {
          const { celsius } = input as SetTarget;
          const from = state.thermostat.target;
          if (celsius === from) return { state, events: [] };
          return change(thermostat({ target: celsius }), [
            { type: "targetChanged", payload: { from, to: celsius } },
          ]);
        }
        case "boost": {
          const { minutes } = input as Boost;
          const result = change(thermostat({ boostMinutes: minutes }), [
            { type: "boostStarted", payload: { minutes } },
          ]);
          startWarmUp();
          return result;
        }
        case "lockDoor":
          return change({ ...state, door: "locked" }, [{ type: "doorLocked" }]);
        case "unlockDoor":
          return unlockDoor();
        default:
          // Unreachable through the bridge, which answers unknown names itself.
          throw new Error(`unknown command ${command}`);
      }
    },
  };
}

/** `value`, frozen all the way down: a state nobody can change in place. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
