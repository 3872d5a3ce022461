/**
 * `ignite-element/tools/mapping`: the manifest as a provider must see it (safe names, object
 * roots, strict mode when asked) and a provider's call mapped back to a `NeutralToolCall` — the
 * piece every dialect and adapter is built from, for a framework or loop this package does not
 * ship. Pure: a thin face over `toWire`, `toNeutralCall` and the name rules.
 */
import type { JsonSchema, NeutralManifest, NeutralToolCall } from "../core/types.js";
import { decodeArguments, objectArguments } from "./arguments.js";
import {
  ANTHROPIC_NAMES,
  GEMINI_NAMES,
  MCP_NAMES,
  type NameRule,
  OPENAI_NAMES,
  PORTABLE_NAMES,
} from "./names.js";

export { PORTABLE_NAMES } from "./names.js";

import { toNeutralCall, toWire } from "./provider-tools.js";
import { ANTHROPIC_STRICT, OPENAI_STRICT, type StrictRule } from "./strict.js";

export type { NameRule } from "./names.js";
export type { StrictRule } from "./strict.js";

const NAME_RULES = {
  openai: OPENAI_NAMES,
  anthropic: ANTHROPIC_NAMES,
  gemini: GEMINI_NAMES,
  mcp: MCP_NAMES,
  portable: PORTABLE_NAMES,
} as const satisfies Record<string, NameRule>;

const STRICT_RULES = {
  openai: OPENAI_STRICT,
  anthropic: ANTHROPIC_STRICT,
} as const satisfies Record<string, StrictRule>;

/** Whose tool-name rules the names follow: a provider's, names every provider takes, or yours. */
export type NameRules = keyof typeof NAME_RULES | NameRule;

/** Whose strict mode the schemas are written in, when strict mode is wanted. */
export type StrictMode = keyof typeof STRICT_RULES | StrictRule;

/** Options of `toolMapping`. */
export interface ToolMappingOptions {
  /**
   * The provider's tool-name rules. A name it accepts is kept; any other becomes its sanitised
   * form plus a short fingerprint, so `todo.add` and `todo add` stay distinct.
   * @default "portable"
   */
  names?: NameRules;
  /**
   * Write every schema that this provider's strict mode can express in strict form (every
   * property required, optional ones nullable); `toCall` removes the nulls sent for optional
   * properties again. Without it, schemas are sent as they are.
   */
  strict?: StrictMode;
  /**
   * Every declared command, available or not (`buildManifest(component.getSchema())`). Names are
   * computed over it, so a name means the same command whatever is available this turn, and a
   * call to a command that has since become unavailable maps back to it (and is answered
   * `Unavailable`, not `UnknownCommand`). Without it, the manifest given is all there is.
   */
  declared?: NeutralManifest;
}

/** One tool as the provider is given it. */
export interface MappedTool {
  /** The provider-safe name to register the tool under. */
  readonly name: string;
  /** The command it stands for. */
  readonly command: string;
  /** The command's own description, when it has one. */
  readonly description?: string;
  /** The input schema, always object-rooted: a non-object input is wrapped as `{ value }`. */
  readonly parameters: JsonSchema;
  /** Whether `parameters` is in strict form (only with `strict`). */
  readonly strict: boolean;
  /** Whether the input is wrapped as `{ value }`; `toCall` unwraps it. */
  readonly wrapped: boolean;
}

/** A tool call as a provider or framework hands it over. */
export interface ProviderToolCall {
  /** The tool name the model called (a provider-safe name). */
  readonly name: string;
  /**
   * The arguments, as an object or as JSON text. Absent, `""` and `{}` all mean no arguments; text
   * that is not JSON, or anything that is not an object, is answered `InvalidInput` with a
   * message the model can act on.
   */
  readonly arguments?: unknown;
  /** The provider's call id, kept on the neutral call. */
  readonly id?: string;
}

/** The provider's view of a manifest, and the way back. */
export interface ToolMapping {
  /**
   * The tools of the manifest as the provider is given them, in the order of `declared` (of the
   * manifest without it; `buildManifest` sorts both by name).
   */
  readonly tools: readonly MappedTool[];
  /** The provider name of a command (any declared command), or `undefined` when it has none. */
  nameOf(command: string): string | undefined;
  /**
   * The neutral call for a provider's call, ready for `bridge.invoke`: the command name mapped
   * back, arguments decoded and unwrapped. Never throws: a name never offered stays as it is (and
   * is answered `UnknownCommand`), unreadable arguments set `inputError`.
   */
  toCall(call: ProviderToolCall): NeutralToolCall;
}

/**
 * The provider-safe tool definitions of `manifest` by a provider's name rules, and the mapping
 * of that provider's calls back to neutral calls for `bridge.invoke`. Use the same mapping for
 * a turn's tools and its calls.
 *
 * @example
 * ```ts
 * const mapping = toolMapping(bridge.manifest(), { names: "openai", declared });
 * const tools = mapping.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
 * // … the model answers with a call …
 * const result = await bridge.invoke(mapping.toCall({ name: call.name, arguments: call.args, id: call.id }));
 * ```
 */
export function toolMapping(
  manifest: NeutralManifest,
  options: ToolMappingOptions = {},
): ToolMapping {
  const { names = "portable", strict, declared } = options;
  const nameRule = typeof names === "string" ? ruleOf(NAME_RULES, names, "names") : names;
  const strictRule = typeof strict === "string" ? ruleOf(STRICT_RULES, strict, "strict") : strict;
  const known = new Set(declared?.map((tool) => tool.name));
  // Commands offered but missing from `declared` still get a name rather than vanishing.
  const all = declared
    ? [...declared, ...manifest.filter((tool) => !known.has(tool.name))]
    : manifest;
  const wire = toWire(all, { names: nameRule, strict: strictRule });
  const byCommand = new Map(wire.tools.map((tool) => [tool.tool.name, tool]));
  const offered = new Set(manifest.map((tool) => tool.name));
  const tools = wire.tools
    .filter((tool) => offered.has(tool.tool.name))
    .map((tool): MappedTool => {
      const { name: command, description } = tool.tool;
      return {
        name: tool.name,
        command,
        ...(description === undefined ? {} : { description }),
        parameters: tool.parameters,
        strict: tool.strict,
        wrapped: tool.wrapped,
      };
    });
  return {
    tools,
    nameOf: (command) => byCommand.get(command)?.name,
    toCall: ({ name, arguments: args, id }) =>
      toNeutralCall(wire, {
        ...(id === undefined ? {} : { id }),
        name,
        // A framework that hands over decoded arguments may leave them out for no parameters.
        ...(typeof args === "string" ? decodeArguments(args) : objectArguments(args, "empty")),
      }),
  };
}

/** The rule a provider's name stands for; an unknown name is the application's bug. */
function ruleOf<Rule>(rules: Record<string, Rule>, name: string, option: string): Rule {
  const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
  if (rule === undefined) {
    const known = Object.keys(rules).map((key) => JSON.stringify(key));
    throw new TypeError(
      `toolMapping: ${option} ${JSON.stringify(name)} is not one of ${known.join(", ")}; pass one of them or a rule of your own`,
    );
  }
  return rule;
}
