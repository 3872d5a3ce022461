/**
 * `ignite-element/tools/langchain`: a component's commands as LangChain tools, for
 * `model.bindTools(tools)`, LangGraph's `ToolNode` and any loop that invokes a tool with the
 * model's `ToolCall`.
 */
import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { ToolMessage } from "@langchain/core/messages";
import {
  StructuredTool,
  type StructuredToolInterface,
  ToolInputParsingException,
  type ToolRunnableConfig,
  type ToolSchemaBase,
} from "@langchain/core/tools";
import { isRecord } from "../core/json.js";
import type { AbortSignalLike, AgentComponent, JsonSchema, RuntimeEvent } from "../core/types.js";
import type { NameRule } from "../wire/names.js";
import type { WireTool } from "../wire/provider-tools.js";
import { type AdapterOptions, type AdapterTools, adapterTools, frameworkCall } from "./shared.js";

/** Options of `langchainTools`: the `igniteTools` options and the result-text cap. */
export type LangChainToolsOptions<
  S = unknown,
  E extends RuntimeEvent = RuntimeEvent,
> = AdapterOptions<S, E>;

/**
 * Names every chat model LangChain binds tools to accepts: OpenAI's and Anthropic's rule
 * (`^[a-zA-Z0-9_-]{1,64}$`) with Gemini's first character (a letter or `_`).
 */
const LANGCHAIN_NAMES: NameRule = {
  invalid: /[^a-zA-Z0-9_-]/g,
  start: /^[a-zA-Z_]/,
  maxLength: 64,
};

/**
 * Every command the component declares, as a LangChain tool.
 *
 * - A bound tool list is fixed, so every declared command is a tool; availability is checked
 *   when it is called, and a command unavailable now is answered `Unavailable`.
 * - Invoked with a `ToolCall` (as `ToolNode` and agent loops do), a tool answers with a
 *   `ToolMessage` carrying the call's id: the observation as JSON, or the `ToolError` as a
 *   message the model can act on, with `status: "error"`. Invoked with bare arguments, it
 *   answers with that text. It never throws at a model's mistake.
 * - Each call goes through one `igniteTools` bridge: validated against the command's own schema,
 *   executed exactly once, one call at a time in the order made, with the run's abort signal.
 * - `schema` is the command's input schema as the model must see it (provider-safe name, object
 *   root): `bindTools` sends it as it is. LangChain checks a tool's input against it before the
 *   tool runs; when that check fails, the call still goes to the bridge, so the model reads the
 *   bridge's issues instead of LangChain's "did not match expected schema".
 *
 * Throws a `TypeError` naming the command when the component's schema is malformed.
 *
 * @example
 * ```ts
 * import { ToolNode } from "@langchain/langgraph/prebuilt";
 * import { langchainTools } from "ignite-element/tools/langchain";
 *
 * const tools = langchainTools(thermostat);
 * const model = chatModel.bindTools(tools);
 * const toolNode = new ToolNode(tools);
 * ```
 */
export function langchainTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: LangChainToolsOptions<S, E> = {},
): StructuredToolInterface[] {
  const adapter = adapterTools(component, options, { names: LANGCHAIN_NAMES });
  return adapter.tools.map((wire) => new BridgedTool(wire, adapter));
}

/** One command as a LangChain tool. */
class BridgedTool extends StructuredTool<ToolSchemaBase> {
  name: string;
  description: string;
  schema: ToolSchemaBase;

  constructor(
    private readonly wire: WireTool,
    private readonly adapter: AdapterTools,
  ) {
    super();
    this.name = wire.name;
    this.description = wire.tool.description ?? "";
    // A copy of its own: LangChain's validator writes hidden annotations into the schema it
    // checks, which must not reach the application's (possibly frozen) schema objects.
    const copy: JsonSchema = JSON.parse(JSON.stringify(wire.parameters));
    this.schema = copy;
  }

  // LangChain validates the input against `schema` first and throws when it fails; the bridge's
  // own answer says what to fix, so such a call is answered by the bridge all the same. Nothing
  // ran before that throw (not even the run's callbacks), so the call still runs at most once.
  override async call(
    arg: Parameters<StructuredTool<ToolSchemaBase>["call"]>[0],
    configArg?: ToolRunnableConfig,
    tags?: string[],
  ) {
    try {
      return await super.call(arg, configArg, tags);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      const toolCall = toolCallOf(arg);
      const id = toolCall ? toolCall.id : configArg?.toolCall?.id;
      return this.answer(toolCall ? toolCall.args : arg, id, configArg?.signal);
    }
  }

  protected override _call(
    args: unknown,
    _runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<string | ToolMessage> {
    return this.answer(args, config?.toolCall?.id, config?.signal);
  }

  private async answer(
    args: unknown,
    id: string | undefined,
    signal: AbortSignalLike | undefined,
  ): Promise<string | ToolMessage> {
    const answer = await this.adapter.answer(this.wire, frameworkCall(args, id), signal);
    if (id === undefined) return answer.text;
    return new ToolMessage({
      content: answer.text,
      tool_call_id: id,
      name: this.name,
      status: answer.isError ? "error" : "success",
    });
  }
}

/** The arguments and id of a `ToolCall` passed in place of arguments, read as LangChain does. */
function toolCallOf(value: unknown): { args: unknown; id: string | undefined } | undefined {
  if (!isRecord(value) || value.type !== "tool_call") return undefined;
  return { args: value.args, id: typeof value.id === "string" ? value.id : undefined };
}
