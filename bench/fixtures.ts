/**
 * The data every row measures: a realistic 8-property command schema and input, components of
 * any size, and an OpenAI Chat Completions response with four tool calls.
 */

import type { OpenAIChatResponse } from "../src/tools/dialects/openai/dialect.js";
import type {
  AgentComponent,
  AgentSchema,
  CommandSchema,
  InputValidator,
  JsonSchema,
} from "../src/tools/index.js";

/** A realistic tool input schema: 8 properties, strings with bounds, an enum, a format, an array. */
export function ticketSchema(variant = 0): JsonSchema {
  return {
    type: "object",
    properties: {
      title: { type: "string", minLength: 1, maxLength: 200 + variant },
      body: { type: "string", maxLength: 5000 },
      priority: { enum: ["low", "normal", "high", "urgent"] },
      assignee: { type: "string", pattern: "^[a-z][a-z0-9._-]*$" },
      tags: { type: "array", items: { type: "string", maxLength: 32 }, maxItems: 10 },
      estimateHours: { type: "number", minimum: 0, maximum: 1000 },
      dueDate: { type: "string", format: "date" },
      notify: { type: "boolean" },
    },
    required: ["title", "priority"],
    additionalProperties: false,
  };
}

/** The same schema with declared defaults (ajv then validates a copy, by design). */
export function ticketSchemaWithDefaults(): JsonSchema {
  const schema = ticketSchema();
  const properties = schema.properties as Record<string, JsonSchema>;
  properties.priority = { ...properties.priority, default: "normal" };
  properties.notify = { ...properties.notify, default: false };
  return schema;
}

/** A valid input for `ticketSchema`, every property set. */
export function ticketInput(): Record<string, unknown> {
  return {
    title: "Checkout fails on Safari 17 when the cart has a gift card",
    body:
      "Steps: add any item, apply a gift card, press Pay. Expected: the payment sheet opens. " +
      "Actual: the button spins forever and the console shows a CSP error for the wallet frame.",
    priority: "high",
    assignee: "dana.k",
    tags: ["checkout", "safari", "regression"],
    estimateHours: 3.5,
    dueDate: "2025-07-14",
    notify: true,
  };
}

/** A small deterministic PRNG, so every run shuffles the same way. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const commandName = (index: number) => `command_${String(index).padStart(5, "0")}`;

/**
 * `n` commands, each with its own (distinct by content) 8-property schema, declared in a
 * shuffled order so the manifest's sort has work to do.
 */
export function commands(n: number, seed = 1): Record<string, CommandSchema> {
  const order = Array.from({ length: n }, (_, index) => index);
  const random = prng(seed);
  for (let index = n - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    const swap = order[index] as number;
    order[index] = order[other] as number;
    order[other] = swap;
  }
  const out: Record<string, CommandSchema> = {};
  for (const index of order) {
    out[commandName(index)] = {
      description: `Files ticket kind ${index} in the tracker.`,
      input: ticketSchema(index),
    };
  }
  return out;
}

/** The observation a component returns: a modest, realistic state. */
export function ticketState(): unknown {
  return {
    tickets: Array.from({ length: 5 }, (_, index) => ({
      id: `T-${1040 + index}`,
      title: `Ticket ${index}: checkout fails on Safari`,
      priority: index % 2 === 0 ? "high" : "normal",
      assignee: "dana.k",
      tags: ["checkout", "safari"],
      open: true,
    })),
    filter: { assignee: "dana.k", open: true },
    total: 5,
  };
}

/** What `execute` returns in every row: the state and one event. */
export const RESULT = {
  state: ticketState(),
  events: [{ type: "filed", payload: { id: "T-1045" } }],
};

/** A component whose `execute` returns at once, with the same schema object every call. */
export function stableComponent(schema: AgentSchema): AgentComponent {
  return { getSchema: () => schema, execute: () => RESULT };
}

/** A component whose `getSchema()` builds a fresh, equal object on every call. */
export function freshComponent(n: number): AgentComponent {
  const state = ticketState();
  const result = { state, events: [] };
  return { getSchema: () => ({ commands: commands(n) }), execute: () => result };
}

/** An OpenAI Chat Completions response with one tool call per name, arguments as JSON text. */
export function openaiResponse(names: readonly string[]): OpenAIChatResponse {
  // As the API sends it, fields the dialect does not read included.
  const response = {
    id: "chatcmpl-bench",
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant" as const,
          content: null,
          refusal: null,
          tool_calls: names.map((name, index) => ({
            id: `call_${index}`,
            type: "function" as const,
            function: {
              name,
              arguments: JSON.stringify({ ...ticketInput(), title: `Ticket ${index}` }),
            },
          })),
        },
      },
    ],
  };
  return response;
}

/** A validator that counts what it is asked to do, around a real one. */
export interface CountingValidator extends InputValidator {
  readonly counts: { checkSchema: number; compile: number };
}

export function counting(inner: InputValidator): CountingValidator {
  const counts = { checkSchema: 0, compile: 0 };
  return {
    counts,
    checkSchema(schema) {
      counts.checkSchema++;
      return inner.checkSchema(schema);
    },
    compile(schema) {
      counts.compile++;
      return inner.compile(schema);
    },
  };
}
