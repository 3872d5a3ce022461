/**
 * The thermostat the MCP App tests serve: one command, `setTarget`, whose runs are recorded in
 * `ran` and whose result carries a `targetSet` event.
 */
import type { AgentComponent } from "ignite-element/tools";

export interface Thermostat {
  target: number;
}

export function thermostat() {
  const ran: number[] = [];
  const component: AgentComponent<Thermostat> = {
    getSchema: () => ({
      commands: {
        setTarget: {
          description: "Set the target temperature.",
          input: {
            type: "object",
            properties: { celsius: { type: "number", minimum: 5, maximum: 30 } },
            required: ["celsius"],
            additionalProperties: false,
          },
        },
      },
    }),
    execute: (_command, input) => {
      const { celsius } = input as { celsius: number };
      ran.push(celsius);
      return { state: { target: celsius }, events: [{ type: "targetSet", payload: { celsius } }] };
    },
  };
  return { component, ran };
}
