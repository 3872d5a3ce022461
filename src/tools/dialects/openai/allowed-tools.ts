/**
 * `allowedTools(dialect)`: a tool list that keeps OpenAI's prompt cache. Every request carries
 * every declared command — the same bytes, in the same order, whatever the component's state —
 * and what is available now travels as OpenAI's allowed tools, in `tool_choice`, which is not
 * part of the cached prefix. A function of its own, so a bundle that does not use it carries none
 * of it.
 */
import { badArgument } from "../../core/checks.js";
import type { NeutralManifest, ToolDefsContext } from "../../core/types.js";
import type { OpenAIChatDialect, OpenAIChatTool } from "./chat.js";
import type { OpenAIResponsesDialect, OpenAIResponsesTool } from "./responses.js";

/**
 * Which tools the model may call (assignable to the SDK's `ChatCompletionToolChoiceOption`):
 * `"auto"` when every declared command is available, `"none"` when none is, else the subset.
 */
export type OpenAIChatToolChoice =
  | "auto"
  | "none"
  | {
      type: "allowed_tools";
      allowed_tools: { mode: "auto"; tools: { type: "function"; function: { name: string } }[] };
    };

/** What a Chat Completions request takes from `allowedTools(openai)`: spread it into `create`. */
export type OpenAIChatToolRequest = { tools: OpenAIChatTool[]; tool_choice: OpenAIChatToolChoice };

/** `allowedTools(openai)`: every declared tool, and the allowed subset. */
export type OpenAIChatAllowedDialect = Omit<OpenAIChatDialect, "toToolDefs"> & {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): OpenAIChatToolRequest;
};

/**
 * Which tools the model may call (assignable to the Responses API's `tool_choice`): `"auto"`,
 * `"none"`, or the subset as a `ToolChoiceAllowed`.
 */
export type OpenAIResponsesToolChoice =
  | "auto"
  | "none"
  | { type: "allowed_tools"; mode: "auto"; tools: { type: "function"; name: string }[] };

/** What a Responses request takes from `allowedTools(openaiResponses)`: spread it into `create`. */
export type OpenAIResponsesToolRequest = {
  tools: OpenAIResponsesTool[];
  tool_choice: OpenAIResponsesToolChoice;
};

/** `allowedTools(openaiResponses)`: every declared tool, and the allowed subset. */
export type OpenAIResponsesAllowedDialect = Omit<OpenAIResponsesDialect, "toToolDefs"> & {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): OpenAIResponsesToolRequest;
};

/**
 * `dialect` with a tool list that stays the same for the whole conversation: `toToolDefs()` gives
 * `{ tools, tool_choice }` — every declared command, and the ones available now as OpenAI's
 * allowed tools (`"auto"` when all are, `"none"` when none is) — to spread into the SDK call. A
 * call to a command outside the allowed set is still answered `Unavailable`. Under
 * `offer: "declared"` every command is offered, so `tool_choice` is always `"auto"`.
 *
 * @example
 * ```ts
 * const tools = igniteTools(component, allowedTools(openai));
 * await client.chat.completions.create({ model, messages, ...tools.toToolDefs() });
 * ```
 */
export function allowedTools(dialect: OpenAIChatDialect): OpenAIChatAllowedDialect;
export function allowedTools(dialect: OpenAIResponsesDialect): OpenAIResponsesAllowedDialect;
export function allowedTools(dialect: OpenAIChatDialect | OpenAIResponsesDialect): object {
  if (typeof dialect?.toToolDefs !== "function") {
    throw badArgument("allowedTools", "dialect", dialect, "openai or openaiResponses");
  }
  // The list for a frozen declared manifest (the bridge keeps one while no declaration changes)
  // is made once: a change of availability then costs the allowed subset, not the whole list.
  const lists = new WeakMap<NeutralManifest, (OpenAIChatTool | OpenAIResponsesTool)[]>();
  const listOf = (declared: NeutralManifest, context?: ToolDefsContext) => {
    let tools = lists.get(declared);
    if (!tools) {
      tools = dialect.toToolDefs(declared, context);
      if (Object.isFrozen(declared)) lists.set(declared, tools);
    }
    return tools;
  };
  return {
    ...dialect,
    toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext) {
      const declared = context?.declared ?? manifest;
      const tools = listOf(declared, context);
      if (manifest.length >= declared.length) return { tools, tool_choice: "auto" };
      // `tools` holds one definition per declared command, in its order.
      const open = new Set(manifest.map((tool) => tool.name));
      const offered = declared.map((command) => open.has(command.name));
      const allowed = tools.filter((_, index) => offered[index]);
      return { tools, tool_choice: allowed.length === 0 ? "none" : choiceOf(allowed) };
    },
  };
}

/** The allowed-tools choice naming `open`, in the shape of the API its tools are written for. */
function choiceOf(open: (OpenAIChatTool | OpenAIResponsesTool)[]) {
  const names = open.map((tool) => ("function" in tool ? tool.function.name : tool.name));
  if (open.some((tool) => "function" in tool)) {
    const tools = names.map((name) => ({ type: "function", function: { name } }));
    return { type: "allowed_tools", allowed_tools: { mode: "auto", tools } };
  }
  const tools = names.map((name) => ({ type: "function", name }));
  return { type: "allowed_tools", mode: "auto", tools };
}
