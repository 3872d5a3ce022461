import type { AgentComponent, ApprovalPolicy } from "../../tools/index.js";

export interface ThermostatState {
  target: number;
  mode: "heat" | "cool" | "off";
  boosted: boolean;
  schedule: unknown[];
}

/**
 * The component every adapter test drives: a name no provider accepts (`target.set`), scalar
 * roots (a number and an enum), a gated command (`boost`, only while heating), an object command
 * with an optional property (for strict mode), and a command without a description. It records
 * every `execute` call; `hold` makes the next `execute` wait until released. With
 * `boostAvailableWhen`, `boost` also says when it is available (its `availableWhen`).
 */
export function thermostat({ boostAvailableWhen }: { boostAvailableWhen?: string } = {}) {
  let state: ThermostatState = { target: 20, mode: "off", boosted: false, schedule: [] };
  const calls: Array<{ command: string; input: unknown }> = [];
  const holds: Array<Promise<void>> = [];
  const component: AgentComponent<ThermostatState> = {
    getSchema: () => ({
      commands: {
        "target.set": {
          description: "Target temperature in °C.",
          input: { type: "number", minimum: 10, maximum: 30 },
        },
        setMode: {
          description: "Heat, cool or switch off.",
          input: { enum: ["heat", "cool", "off"] },
        },
        boost: {
          description: "Full power for 10 minutes.",
          gated: true,
          ...(boostAvailableWhen === undefined ? {} : { availableWhen: boostAvailableWhen }),
        },
        schedule: {
          description: "Plan a change.",
          input: {
            type: "object",
            properties: { at: { type: "string" }, note: { type: "string" } },
            required: ["at"],
            additionalProperties: false,
          },
        },
        ping: {},
      },
    }),
    canExecute: (command) => command !== "boost" || state.mode === "heat",
    async execute(command, input) {
      calls.push({ command, input });
      await holds.shift();
      if (command === "target.set") state = { ...state, target: Number(input) };
      if (command === "setMode") state = { ...state, mode: input as ThermostatState["mode"] };
      if (command === "boost") state = { ...state, boosted: true };
      if (command === "schedule") state = { ...state, schedule: [...state.schedule, input] };
      return { state, events: [{ type: command, payload: input }] };
    },
  };
  return {
    component,
    calls,
    state: () => state,
    /** Makes the next `execute` wait until the returned function is called. */
    hold(): () => void {
      let release = () => {};
      holds.push(
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return () => release();
    },
  };
}

/** Setting the target asks a person; `ping` is denied; everything else runs. */
export const thermostatPolicy: ApprovalPolicy = ({ route }) =>
  route.command === "target.set"
    ? "ask"
    : route.command === "ping"
      ? { deny: "no pings" }
      : "allow";

/** The thermostat's policy, recording the id of every call it is asked about: each once. */
export function counted() {
  const asked: Array<string | undefined> = [];
  const approve: ApprovalPolicy = (request) => {
    asked.push(request.call.id);
    return thermostatPolicy(request);
  };
  return { asked, approve };
}
