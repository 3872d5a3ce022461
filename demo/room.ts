/**
 * The demo's component: one room of a smart home. Small, but it has everything a model has to get
 * right — ranges, a step size, enums, defaults, commands that exist only in some states, and an
 * event for every change — so the demo shows each way a call can succeed or fail.
 */
import type { AgentComponent, AgentSchema } from "ignite-element/tools";

export type Colour = "warm" | "neutral" | "daylight";
export type Mode = "heat" | "cool" | "off";

export interface RoomState {
  lights: { brightness: number; colour: Colour };
  /** `boostMinutes` is 0 when no boost is running. */
  thermostat: { mode: Mode; target: number; boostMinutes: number };
  door: "locked" | "unlocked";
}

export type RoomEvent =
  | { type: "lightsChanged"; payload: RoomState["lights"] }
  | { type: "modeChanged"; payload: { from: Mode; to: Mode } }
  | { type: "targetChanged"; payload: { from: number; to: number } }
  | { type: "boostStarted"; payload: { minutes: number } }
  | { type: "boostCancelled" }
  | { type: "doorLocked" }
  | { type: "doorUnlocked" };

/** The room as a component, plus a read of its state for the demo's final report. */
export interface Room extends AgentComponent<RoomState, RoomEvent> {
  readonly state: RoomState;
}

const NO_INPUT = { type: "object", properties: {}, additionalProperties: false };

// Built once: the bridge caches compiled validators by schema identity, and a fixed schema
// object makes that cache hit on every turn.
const SCHEMA: AgentSchema = {
  commands: {
    status: {
      description: "Read the room: lights, thermostat and front door. Changes nothing.",
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
      description: "Heat at full power for a while. Only in heat mode.",
      gated: true,
      input: {
        type: "object",
        properties: { minutes: { type: "integer", enum: [15, 30, 60], default: 30 } },
        additionalProperties: false,
      },
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
    "doorLocked",
    "doorUnlocked",
  ],
};

const INITIAL: RoomState = {
  lights: { brightness: 80, colour: "daylight" },
  thermostat: { mode: "off", target: 19, boostMinutes: 0 },
  door: "unlocked",
};

// The bridge validates every input against the schema above before `execute` runs, so these
// are the shapes `execute` can rely on.
type SetLights = { brightness?: number; colour?: Colour };
type SetMode = { mode: Mode };
type SetTarget = { celsius: number };
type Boost = { minutes: number };

/** A new room, by default lights bright and cool, heating off, door unlocked. */
export function createRoom(initial: RoomState = INITIAL): Room {
  let state = structuredClone(initial);
  // Snapshots are copies, so an observation the model was shown never changes under it.
  const done = (events: RoomEvent[]) => ({ state: structuredClone(state), events });

  return {
    get state() {
      return structuredClone(state);
    },
    getSchema: () => SCHEMA,
    canExecute(command) {
      if (command === "boost") return state.thermostat.mode === "heat";
      if (command === "lockDoor") return state.door === "unlocked";
      if (command === "unlockDoor") return state.door === "locked";
      return true;
    },
    execute(command, input) {
      switch (command) {
        case "status":
          return done([]);
        case "setLights": {
          const lights = { ...state.lights, ...(input as SetLights) };
          const changed =
            lights.brightness !== state.lights.brightness || lights.colour !== state.lights.colour;
          state = { ...state, lights };
          return done(changed ? [{ type: "lightsChanged", payload: lights }] : []);
        }
        case "setMode": {
          const { mode } = input as SetMode;
          const from = state.thermostat.mode;
          if (mode === from) return done([]);
          const cancelled = from === "heat" && state.thermostat.boostMinutes > 0;
          state = { ...state, thermostat: { ...state.thermostat, mode, boostMinutes: 0 } };
          const events: RoomEvent[] = [{ type: "modeChanged", payload: { from, to: mode } }];
          if (cancelled) events.push({ type: "boostCancelled" });
          return done(events);
        }
        case "setTarget": {
          const { celsius } = input as SetTarget;
          const from = state.thermostat.target;
          state = { ...state, thermostat: { ...state.thermostat, target: celsius } };
          return done(
            celsius === from ? [] : [{ type: "targetChanged", payload: { from, to: celsius } }],
          );
        }
        case "boost": {
          const { minutes } = input as Boost;
          state = { ...state, thermostat: { ...state.thermostat, boostMinutes: minutes } };
          return done([{ type: "boostStarted", payload: { minutes } }]);
        }
        case "lockDoor":
          state = { ...state, door: "locked" };
          return done([{ type: "doorLocked" }]);
        case "unlockDoor":
          state = { ...state, door: "unlocked" };
          return done([{ type: "doorUnlocked" }]);
        default:
          // Unreachable through the bridge, which answers unknown names itself.
          throw new Error(`unknown command ${command}`);
      }
    },
  };
}
