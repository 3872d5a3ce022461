/**
 * The built-in search's tools on demand where the tool list is fixed (`dialect.fixedList`: MCP,
 * whose 2026-07-28 revision says a server's list MUST NOT vary per connection or as a side effect
 * of other requests, and whose hosts cache it). Adding the commands found to the list, as
 * `on-demand.ts` does, is not allowed there; so from `threshold` declared commands on, the list
 * holds the search, `call_tool` and the layers' own tools, and never changes with what was found.
 * The search answers each command found with its input schema, and `call_tool({ name, arguments
 * })` calls it as the command itself: validated, gated, approved, executed once, and answered as
 * the command is (`project` included).
 */

import type { BridgeParts } from "../bridge/pipeline.js";
import { commandsOf } from "../core/manifest.js";
import { err } from "../core/result.js";
import type {
  AgentSchema,
  CommandSchema,
  NeutralManifest,
  NeutralToolCall,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { CALL_TOOL, SEARCH_TOOL } from "../wire/on-demand.js";

/**
 * The declaration of `call_tool`: a command's name, as the search found it, and its input. Its
 * texts are plain strings: a bundler keeps a template in a pure call's arguments, even unused.
 */
const DECLARED: CommandSchema = /* @__PURE__ */ Object.freeze({
  title: "Call a tool found",
  description:
    "Calls one of the tools search_tools found, by its name, with arguments that match the inputSchema the search gave for it.",
  input: {
    type: "object",
    properties: {
      name: {
        type: "string",
        minLength: 1,
        description: "The tool's name, as search_tools answered it.",
      },
      arguments: { type: "object", description: "The tool's arguments." },
    },
    required: ["name"],
    additionalProperties: false,
  },
});

/** Joins `call_tool` to one bridge whose list is fixed, and defers its commands behind it. */
export function throughCallTool<S, E extends RuntimeEvent>(
  parts: BridgeParts<S, E>,
  threshold: number,
): void {
  const { pipeline } = parts;
  const { declare, offer, beside, route, answer } = pipeline;
  pipeline.declare = (schema) => declared(declare(schema));

  let last: { from: NeutralManifest; offered: NeutralManifest } | undefined;
  pipeline.offer = (offered, all) => {
    const from = offer(offered, all);
    if (last?.from === from) return last.offered;
    // The search and `call_tool` are declared too: the component's commands are the others.
    // Below the threshold every command is listed, and `call_tool` would only repeat them.
    const deferring = all.length - 2 >= threshold;
    const kept = from.filter((tool) =>
      tool.name === CALL_TOOL ? deferring : !deferring || pipeline.beside(tool.name),
    );
    last = { from, offered: Object.freeze(kept) };
    return last.offered;
  };

  // `call_tool` is a layer's own tool: resolved (its input checked) against its declaration
  // above, beside the queue; what it asks for is then called as a call of its own, which the
  // queue takes, resolves and gates as the command itself.
  pipeline.beside = (name) => name === CALL_TOOL || beside(name);
  let names: { of: NeutralManifest; commands: Set<string> } | undefined;
  const isCommand = (name: string): boolean => {
    const of = parts.declared();
    if (names?.of !== of) {
      names = {
        of,
        commands: new Set(of.flatMap((tool) => (pipeline.beside(tool.name) ? [] : [tool.name]))),
      };
    }
    return names.commands.has(name);
  };
  pipeline.route = (resolved, called, schema, options, span) => {
    if (resolved.command !== CALL_TOOL) return route(resolved, called, schema, options, span);
    const inner = unwrapped(called.id, resolved.input);
    return isCommand(inner.name)
      ? pipeline.call(inner, options, span)
      : { outcome: err(notFound(inner.name)) };
  };
  // What the model reads of the command is the command's answer: `project` sees its name.
  if (answer) {
    pipeline.answer = (called, value) =>
      called.name === CALL_TOOL
        ? answer(unwrapped(called.id, called.input), value)
        : answer(called, value);
  }
}

/** The call `call_tool` was asked to make, from its input (checked against its declaration). */
function unwrapped(id: string | undefined, input: unknown): NeutralToolCall {
  const { name, arguments: args } = input as { name: string; arguments?: unknown };
  const inner: NeutralToolCall = { name, input: args ?? {} };
  if (id !== undefined) inner.id = id;
  return inner;
}

/** `schema` with `call_tool` declared among its commands (a malformed schema as it is). */
function declared(schema: AgentSchema): AgentSchema {
  const commands = commandsOf(schema);
  if (commands === undefined) return schema;
  if (Object.hasOwn(commands, CALL_TOOL)) throw taken(CALL_TOOL);
  return { ...schema, commands: { ...commands, [CALL_TOOL]: DECLARED } };
}

/** The answer to `call_tool` naming no command: what to do instead. */
function notFound(name: string): ToolError {
  return {
    kind: "UnknownCommand",
    name,
    message: `Unknown command ${JSON.stringify(name.slice(0, 80))}: no tool of this application has that name. Call ${SEARCH_TOOL} to find the tools for what you want to do, then ${CALL_TOOL} with a name it found.`,
  };
}

/** The error for a component whose command has the name of one of the search's own tools. */
export function taken(name: string): TypeError {
  return new TypeError(
    `toolSearch: the component declares a command named ${JSON.stringify(name)}, the name of the search's own tool: rename the command`,
  );
}
