/**
 * `ignite-element/tools/openai-agents`: a component's commands as function tools for the OpenAI
 * Agents SDK (`@openai/agents`), each enabled while its command is available and invoked through
 * the bridge.
 */
import {
  type FunctionTool,
  type ToolOutputFileContent,
  type ToolOutputImage,
  type ToolOutputText,
  tool,
} from "@openai/agents";
import type { ContentPart } from "../core/content.js";
import type { AgentComponent, JsonSchema, RuntimeEvent } from "../core/types.js";
import { fileOf, partText } from "../wire/content-parts.js";
import { OPENAI_NAMES } from "../wire/names.js";
import { OPENAI_STRICT } from "../wire/strict.js";
import { type AdapterOptions, adapterTools, frameworkCall } from "./shared.js";

/** Options of `agentsTools`: the `igniteTools` options, the result-text cap, and strict mode. */
export interface AgentsToolsOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends AdapterOptions<S, E> {
  /**
   * Structured outputs: send every tool whose schema OpenAI's strict mode can express in strict
   * form with `strict: true` (optional properties become nullable, and the model's `null`s are
   * removed again before validation); any other tool is sent with `strict: false`.
   * @default false
   */
  strict?: boolean;
}

/**
 * Every command the component declares, as a function tool for `new Agent({ tools })`.
 *
 * - `isEnabled` asks the component's live availability, so a gated command is offered to the
 *   model only while it can run.
 * - `invoke` goes through one `igniteTools` bridge: the input is validated against the command's
 *   own schema, availability is checked again, and `execute` runs exactly once, one call at a
 *   time in the order the SDK made them, with the run's abort signal.
 * - Every outcome is the tool's output text: the observation as JSON, or the `ToolError` as a
 *   message the model can act on — never a thrown error. With `content: contentParts()`, a call
 *   that answers with images or files is the SDK's list of outputs: that text, then each part.
 * - With `approve`, a call the policy asks about is one the SDK's `needsApproval` holds: the run
 *   stops with `interruptions`, and the call runs once `result.state.approve(interruption)` and
 *   a new `run` say so. A call the policy denies is answered `Denied` by the bridge.
 * - Names are provider-safe (`todo.add` becomes `todo_add_…`) and inputs whose root is not an
 *   object are wrapped as `{ value }`; both are mapped back before the component sees them.
 *
 * Throws a `TypeError` naming the command when the component's schema is malformed.
 *
 * @example
 * ```ts
 * import { Agent, run } from "@openai/agents";
 * import { agentsTools } from "ignite-element/tools/openai-agents";
 *
 * const agent = new Agent({ name: "Thermostat", tools: agentsTools(thermostat) });
 * const result = await run(agent, "Heat the room to 22 °C.");
 * ```
 */
export function agentsTools<S, E extends RuntimeEvent, Context = unknown>(
  component: AgentComponent<S, E>,
  options: AgentsToolsOptions<S, E> = {},
): AgentsTool<Context>[] {
  const { strict = false, ...bridgeOptions } = options;
  const adapter = adapterTools(
    component,
    bridgeOptions,
    { names: OPENAI_NAMES, strict: strict ? OPENAI_STRICT : undefined },
    true,
    AGENTS_CARRIES,
    "agentsTools",
  );
  return adapter.tools.map((wire) => {
    const made = tool<ToolParameters, Context, AgentsToolOutput>({
      name: wire.name,
      description: wire.tool.description ?? "",
      parameters: objectSchema(wire.parameters),
      // The SDK's own strict transform would replace ours; its strict flag is set below.
      strict: false,
      isEnabled: () => adapter.isAvailable(wire.tool.name),
      // The policy's "ask" becomes the SDK's own interruption; "deny" is answered by the bridge.
      ...(options.approve === undefined
        ? {}
        : {
            needsApproval: (_context, args, callId) =>
              adapter.asks(wire, frameworkCall(args, callId)),
          }),
      execute: async (args, _context, details) => {
        const call = frameworkCall(args, details?.toolCall?.callId);
        const { text, parts } = await adapter.answer(wire, call, details?.signal);
        // With content parts, the SDK's structured outputs: it sends them as `input_*` items.
        return parts === undefined ? text : [{ type: "text", text }, ...parts.map(agentsOutput)];
      },
    });
    // `tool()` rewrites `-` in names; the provider-safe name is kept exactly, so it maps back.
    return { ...made, name: wire.name, strict: wire.strict };
  });
}

/** The SDK's type of a tool's `parameters`: an object-rooted JSON Schema. */
type ToolParameters = FunctionTool["parameters"];

/**
 * What a tool of `agentsTools` answers: the text the model reads, or, for a call that answered
 * with content parts (`contentParts()`), the SDK's structured outputs — that text, then each
 * image as `ToolOutputImage` and each file as `ToolOutputFileContent`.
 */
export type AgentsToolOutput =
  | string
  | (ToolOutputText | ToolOutputImage | ToolOutputFileContent)[];

/**
 * A function tool of the Agents SDK, as `agentsTools` makes it: its `parameters` are the
 * command's input schema, object-rooted, and it answers with an `AgentsToolOutput`. `Context` is
 * the run context of the agent it is given to; the tool never reads it.
 */
export type AgentsTool<Context = unknown> = FunctionTool<Context, ToolParameters, AgentsToolOutput>;

/** What the Agents SDK takes in a tool's output: texts, images and files (no audio). */
const AGENTS_CARRIES: readonly ContentPart["type"][] = ["text", "image", "resource"];

/** A part as the SDK's structured output: an image, a file's bytes, or text. */
function agentsOutput(part: ContentPart): ToolOutputText | ToolOutputImage | ToolOutputFileContent {
  if (part.type === "image") {
    return { type: "image", image: { data: part.data, mediaType: part.mimeType } };
  }
  const file = fileOf(part);
  if (file) {
    const { data, mimeType, filename } = file;
    return { type: "file", file: { data, mediaType: mimeType, filename } };
  }
  return { type: "text", text: partText(part) };
}

/**
 * The SDK types `parameters` as the object schemas its zod conversion produces, yet sends any
 * schema to the API as it is; `toWire` guarantees the object root, which is all the API needs.
 */
function objectSchema(schema: JsonSchema): Extract<ToolParameters, { additionalProperties: true }> {
  // A cast: the SDK's type cannot describe an arbitrary object-rooted JSON Schema.
  return schema as Extract<ToolParameters, { additionalProperties: true }>;
}
