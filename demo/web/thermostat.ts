/**
 * The web demo's component: a thermostat. A plain object speaking the agent-runtime contract, with
 * `subscribe`, so the page's buttons and the browser's agent change the same state and each sees
 * what the other did.
 */
import type { AgentComponent, AgentSchema } from "ignite-element/tools";

export type Mode = "heat" | "cool" | "off";

export interface ThermostatState {
  mode: Mode;
  /** Target temperature in °C. */
  target: number;
  /** Minutes of boost left; 0 when no boost runs. */
  boostMinutes: number;
}

export type ThermostatEvent =
  | { type: "modeChanged"; payload: { from: Mode; to: Mode } }
  | { type: "targetChanged"; payload: { from: number; to: number } }
  | { type: "boostStarted"; payload: { minutes: number } }
  | { type: "reset" };

/** The thermostat as a component, and the changes a person makes on the page. */
export interface Thermostat extends AgentComponent<ThermostatState, ThermostatEvent> {
  readonly state: ThermostatState;
  /** What the page's buttons do: the same change the agent's commands make, announced alike. */
  press(change: { mode: Mode } | { step: number }): void;
}

export const FACTORY: ThermostatState = { mode: "off", target: 19, boostMinutes: 0 };

// Built once: the bridge caches compiled validators by schema identity.
const SCHEMA: AgentSchema = {
  commands: {
    status: {
      description: "Read the thermostat: mode, target temperature and boost. Changes nothing.",
      readOnly: true,
      idempotent: true,
    },
    setMode: {
      description: "Switch between heating, cooling and off. Leaving heat cancels a boost.",
      input: { enum: ["heat", "cool", "off"] },
      idempotent: true,
    },
    setTarget: {
      description: "Set the target temperature in °C, from 10 to 30 in steps of 0.5.",
      input: { type: "number", minimum: 10, maximum: 30, multipleOf: 0.5 },
      idempotent: true,
    },
    boost: {
      description: "Heat at full power for a while. Only offered while heating and not boosting.",
      input: {
        type: "object",
        properties: { minutes: { enum: [15, 30, 60], default: 30 } },
        additionalProperties: false,
      },
      gated: true,
    },
    factoryReset: {
      description: "Forget every setting and go back to 19 °C, off. Cannot be undone.",
      destructive: true,
    },
  },
};

export function createThermostat(initial: ThermostatState = FACTORY): Thermostat {
  let state = initial;
  const listeners = new Set<() => void>();
  const change = (next: ThermostatState, events: ThermostatEvent[]) => {
    state = next;
    if (events.length > 0) for (const listener of [...listeners]) listener();
    return { state, events };
  };
  const setMode = (mode: Mode) =>
    change(
      { ...state, mode, boostMinutes: mode === "heat" ? state.boostMinutes : 0 },
      mode === state.mode ? [] : [{ type: "modeChanged", payload: { from: state.mode, to: mode } }],
    );
  const setTarget = (target: number) =>
    change(
      { ...state, target },
      target === state.target
        ? []
        : [{ type: "targetChanged", payload: { from: state.target, to: target } }],
    );

  return {
    get state() {
      return state;
    },
    getSchema: () => SCHEMA,
    // The state now: what a live view (npm run demo:app) reads between calls.
    getSnapshot: () => state,
    canExecute: (command) =>
      command !== "boost" || (state.mode === "heat" && state.boostMinutes === 0),
    // Inputs arrive validated against SCHEMA (defaults applied): the casts only name their type.
    execute(command, input) {
      switch (command) {
        case "setMode":
          return setMode(input as Mode);
        case "setTarget":
          return setTarget(input as number);
        case "boost": {
          const { minutes } = input as { minutes: number };
          return change({ ...state, boostMinutes: minutes }, [
            { type: "boostStarted", payload: { minutes } },
          ]);
        }
        case "factoryReset":
          return change(FACTORY, [{ type: "reset" }]);
        default:
          return { state, events: [] };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    press(pressed) {
      if ("mode" in pressed) setMode(pressed.mode);
      else setTarget(Math.min(30, Math.max(10, state.target + pressed.step)));
    },
  };
}
