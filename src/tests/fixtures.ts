import type {
  AgentComponent,
  AgentSchema,
  CommandSchema,
  ExecuteResult,
  ToolError,
} from "../tools/index.js";

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

/** A component offering `commands`, recording each run in its state as `command:input`. */
export function componentWith(
  commands: Record<string, CommandSchema>,
): AgentComponent<{ ran: string[] }> {
  const ran: string[] = [];
  return {
    getSchema: () => ({ commands }),
    execute: (command, input) => {
      ran.push(`${command}:${JSON.stringify(input)}`);
      return { state: { ran }, events: [] };
    },
  };
}

/** A component whose one command, `save`, throws `disk full`. */
export function failingSave(): AgentComponent {
  return {
    getSchema: () => ({ commands: { save: {} } }),
    execute: () => {
      throw new Error("disk full");
    },
  };
}

/** One error of each kind, as the core hands them to a dialect to answer with. */
export const oneErrorOfEachKind: ToolError[] = [
  { kind: "UnknownCommand", name: "explode", message: 'Unknown command "explode".' },
  { kind: "Unavailable", name: "reset", message: 'Command "reset" is not available.' },
  {
    kind: "InvalidInput",
    name: "setLimit",
    issues: [{ path: "", message: "must be <= 12", keyword: "maximum" }],
    message: 'Invalid input for "setLimit": input must be <= 12.',
  },
  { kind: "ExecuteFailed", name: "save", message: 'Command "save" failed: disk full' },
  {
    kind: "Denied",
    name: "wipe",
    reason: "not on weekends",
    message:
      'Command "wipe" was denied: not on weekends. It did not run; do not call it again with the same input.',
  },
];

/** A command name of 90 characters, longer than the 64 most providers allow. */
export const LONG = `a${"b".repeat(88)}c`;

/**
 * Commands whose names providers do not accept as they are: `todo.add` and `todo add`, two names
 * with one sanitised form; `set limit`, whose schema leaves additionalProperties open; a name too
 * long; and `note`, which is accepted, an object command whose own `value` property must not be
 * unwrapped like a scalar's, with an optional `tag` for strict mode to make nullable.
 */
export const NAMED_COMMANDS: Record<string, CommandSchema> = {
  "todo.add": { description: "Add a todo.", input: { type: "string" } },
  "todo add": { input: { type: "string" } },
  "set limit": {
    input: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  },
  [LONG]: {},
  note: {
    input: {
      type: "object",
      properties: { value: { type: "string" }, tag: { type: "string" } },
      required: ["value"],
      additionalProperties: false,
    },
  },
};

/** A component offering {@link NAMED_COMMANDS}. */
export function named(): AgentComponent<{ ran: string[] }> {
  return componentWith(NAMED_COMMANDS);
}

/**
 * The Counter plus `name`, a scalar command that adds a todo: give it a name the provider does not
 * accept, and a turn exercises name mapping alongside the Counter's own commands.
 */
export function counterWithTodos(name: string) {
  const counter = new Counter();
  const todos: string[] = [];
  const component: AgentComponent<CounterState & { todos: string[] }> = {
    getSchema: () => ({
      commands: {
        ...counterSchema.commands,
        [name]: { description: "Add a todo.", input: { type: "string", minLength: 1 } },
      },
    }),
    canExecute: (command) => counter.canExecute(command),
    async execute(command, input) {
      if (command === name) todos.push(String(input));
      else await counter.execute(command, input);
      return { state: { ...counter.state, todos: [...todos] }, events: [] };
    },
  };
  return { component, counter, todos };
}
