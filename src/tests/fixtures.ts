import type { AgentComponent, AgentSchema, ExecuteResult } from "../tools/index.js";

export interface CounterState {
  count: number;
  limit: number;
  locked: boolean;
}

export type CounterEvent =
  | { type: "incremented"; payload: { by: number } }
  | { type: "limitChanged"; payload: { limit: number } }
  | { type: "reset" };

export const counterSchema: AgentSchema = {
  commands: {
    increment: {
      description: "Add `by` (default 1) to the count.",
      input: {
        type: "object",
        properties: { by: { type: "integer", minimum: 1, maximum: 5, default: 1 } },
        additionalProperties: false,
      },
    },
    setLimit: {
      description: "Set the highest count allowed.",
      input: { type: "number", minimum: 0, maximum: 12 },
    },
    reset: { description: "Back to zero.", gated: true },
    unlock: { gated: true },
  },
  events: ["incremented", "limitChanged", "reset"],
};

/** A small but real component: a counter with a limit, whose `reset` is offered only when count > 0. */
export class Counter implements AgentComponent<CounterState, CounterEvent> {
  state: CounterState = { count: 0, limit: 10, locked: false };
  readonly calls: Array<{ command: string; input: unknown }> = [];

  getSchema(): AgentSchema {
    return counterSchema;
  }

  canExecute(command: string): boolean {
    if (command === "reset") return this.state.count > 0;
    if (command === "unlock") return this.state.locked;
    return true;
  }

  async execute(
    command: string,
    input?: unknown,
  ): Promise<ExecuteResult<CounterState, CounterEvent>> {
    this.calls.push({ command, input });
    const events: CounterEvent[] = [];
    if (command === "increment") {
      const by = (input as { by: number }).by;
      this.state = { ...this.state, count: Math.min(this.state.limit, this.state.count + by) };
      events.push({ type: "incremented", payload: { by } });
    } else if (command === "setLimit") {
      const limit = input as number;
      this.state = { ...this.state, limit };
      events.push({ type: "limitChanged", payload: { limit } });
    } else if (command === "reset") {
      this.state = { ...this.state, count: 0 };
      events.push({ type: "reset" });
    }
    return { state: this.state, events };
  }
}

/** A component around one command whose input is `schema`, recording what execute received. */
export function single(input: Record<string, unknown> | undefined) {
  const received: unknown[] = [];
  const component: AgentComponent<{ received: unknown[] }> = {
    getSchema: () => ({ commands: { run: input ? { input } : {} } }),
    execute: (_command, value) => {
      received.push(value);
      return { state: { received }, events: [] };
    },
  };
  return { component, received };
}
