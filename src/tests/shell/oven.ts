import type { AgentComponent } from "../../tools/index.js";

export interface OvenState {
  readonly temperature: number;
  readonly preheated: boolean;
  readonly door: "open" | "closed";
  readonly baking?: string;
}

export type OvenEvent =
  | { type: "preheated" }
  | { type: "doorOpened" }
  | { type: "doorClosed" }
  | { type: "baking"; dish: string };

/**
 * An oven that changes on its own: `world` is everything outside the model's calls (the
 * thermostat that reports it is preheated, a person at the door). Each change makes a new state
 * object, as an external store does, and `notify` can repeat a notification without a change.
 */
export function oven() {
  let state: OvenState = { temperature: 20, preheated: false, door: "closed" };
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: OvenEvent) => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const emit = (event: OvenEvent) => {
    for (const listener of [...eventListeners]) listener(event);
  };
  const set = (next: Partial<OvenState>, event?: OvenEvent) => {
    state = { ...state, ...next };
    if (event) emit(event);
    notify();
  };
  const component: AgentComponent<OvenState, OvenEvent> = {
    getSchema: () => schema,
    canExecute: (command) =>
      command !== "bake" || (state.preheated && state.door === "closed" && !state.baking),
    execute(command, input) {
      if (command === "preheat") {
        const { target } = input as { target: number };
        set({ temperature: target });
        return { state, events: [] };
      }
      if (command === "bake") {
        const { dish } = input as { dish: string };
        const event: OvenEvent = { type: "baking", dish };
        set({ baking: dish }, event);
        return { state, events: [event] };
      }
      return { state, events: [] };
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
  const world = {
    preheated: () => set({ preheated: true }, { type: "preheated" }),
    openDoor: () => set({ door: "open" }, { type: "doorOpened" }),
    closeDoor: () => set({ door: "closed" }, { type: "doorClosed" }),
    /** A notification with nothing changed, as some stores send. */
    notify,
    /** How many listeners the component holds now: what a leak would grow. */
    held: () => listeners.size + eventListeners.size,
  };
  return { component, world, state: () => state };
}

const schema = {
  commands: {
    preheat: {
      description: "Heat the oven to a temperature.",
      input: {
        type: "object",
        properties: { target: { type: "integer", minimum: 50, maximum: 250 } },
        required: ["target"],
        additionalProperties: false,
      },
    },
    bake: {
      description: "Put a dish in and bake it.",
      gated: true,
      availableWhen: "only once the oven is preheated and its door is closed",
      input: {
        type: "object",
        properties: { dish: { type: "string" } },
        required: ["dish"],
        additionalProperties: false,
      },
    },
  },
  events: ["preheated", "doorOpened", "doorClosed", "baking"],
};
