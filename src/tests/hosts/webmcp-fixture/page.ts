/// <reference lib="dom" />
/**
 * The browser test's page: a thermostat offered through `provideWebMcp`, and hooks the test uses
 * to change it from the page and to read what really ran.
 */
import { type AgentComponent, approval, contentParts } from "ignite-element/tools";
import { provideWebMcp } from "ignite-element/tools/webmcp";

type Mode = "heat" | "cool" | "off";
interface State {
  mode: Mode;
  celsius: number;
  locked: boolean;
}

let state: State = { mode: "off", celsius: 20, locked: false };
let maximum = 30;
const listeners = new Set<() => void>();
const executed: { command: string; input: unknown }[] = [];
const errors: string[] = [];
let running = 0;
let overlapped = false;
const notify = () => {
  for (const listener of listeners) listener();
};

/** What `chart` answers with beside its state: a 1×1 PNG and the data as a CSV file. */
const CHART = [
  {
    type: "image" as const,
    data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    mimeType: "image/png",
  },
  {
    type: "resource" as const,
    resource: { uri: "file:///history.csv", mimeType: "text/csv", text: "hour,celsius\n9,20" },
  },
];

const thermostat: AgentComponent<State> = {
  getSchema: () => ({
    commands: {
      setTarget: {
        description: "Target temperature in °C.",
        input: { type: "number", minimum: 10, maximum },
        idempotent: true,
      },
      setMode: { description: "Heat, cool or off.", input: { enum: ["heat", "cool", "off"] } },
      status: { readOnly: true },
      boost: { description: "Full power for ten minutes.", gated: true },
      "schedule.clear": {
        title: "Clear the schedule",
        description: "Forget the schedule.",
        destructive: true,
      },
      "set limit": { description: "A name WebMCP refuses as it is." },
      chart: { description: "Draw the temperature history.", readOnly: true },
    },
  }),
  canExecute: (command) => command !== "boost" || (state.mode === "heat" && !state.locked),
  async execute(command, input) {
    running++;
    if (running > 1) overlapped = true;
    executed.push({ command, input });
    // Long enough for a concurrent call to arrive while this one runs.
    await new Promise((resolve) => setTimeout(resolve, 30));
    if (command === "setTarget") state = { ...state, celsius: Number(input) };
    if (command === "setMode") state = { ...state, mode: input as Mode }; // validated: an enum value
    running--;
    if (command === "chart") return { state, events: [], content: CHART };
    return { state, events: [{ type: command }] };
  },
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

const fixture = {
  stop: provideWebMcp(thermostat, {
    onError: (error) => errors.push(String(error)),
    // Destructive commands wait for the visitor, asked with the page's own dialog.
    approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
    confirm: (call) => window.confirm(`Let the assistant run ${call.command}?`),
    content: contentParts(),
  }),
  executed,
  errors,
  overlapped: () => overlapped,
  /** A change the page announces, as a click would. */
  setMode(mode: Mode) {
    state = { ...state, mode };
    notify();
  },
  /** A change nobody announces: availability moves, the registrations do not (yet). */
  lockQuietly() {
    state = { ...state, locked: true };
  },
  unlock() {
    state = { ...state, locked: false };
    notify();
  },
  setMaximum(value: number) {
    maximum = value;
    notify();
  },
};
Object.assign(window, { fixture });
export type Fixture = typeof fixture;
