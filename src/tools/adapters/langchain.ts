/**
 * `ignite-element/tools/langchain`: a component's commands as LangChain tools, for
 * `model.bindTools(tools)`, LangGraph's `ToolNode`, `createAgent` and any loop that invokes a tool
 * with the model's `ToolCall`; and the approval policy as the `interruptOn` of LangChain's
 * `humanInTheLoopMiddleware` (`langchainInterruptOn`), and the tools offered now as a middleware
 * that chooses each model call's tools (`langchainActiveTools`), without importing `langchain`.
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
import type { ContentPart } from "../core/content.js";
import { isRecord } from "../core/json.js";
import type { Result } from "../core/result.js";
import type {
  AbortSignalLike,
  AgentComponent,
  JsonSchema,
  Observation,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { fileOf, linkText, partText } from "../wire/content-parts.js";
import type { NameRule } from "../wire/names.js";
import type { WireTool } from "../wire/provider-tools.js";
import { type AdapterOptions, type AdapterTools, adapterTools, frameworkCall } from "./shared.js";

/** Options of `langchainTools`: the `igniteTools` options and the result-text cap. */
export type LangChainToolsOptions<
  S = unknown,
  E extends RuntimeEvent = RuntimeEvent,
> = AdapterOptions<S, E>;

/**
 * A tool's `ToolMessage.artifact`: the call's full outcome as data, kept beside the text the model
 * reads — a command's snapshot and events (or the wait tool's answer), or the `ToolError`.
 */
export type LangChainToolArtifact<S = unknown, E extends RuntimeEvent = RuntimeEvent> =
  | ({ ok: true } & Observation<S, E>)
  | { ok: false; error: ToolError };

/**
 * One tool's entry of `humanInTheLoopMiddleware({ interruptOn })` (LangChain v1's
 * `InterruptOnConfig`, in the part these tools use): `when` asks the approval policy about the
 * call and is true for a call it asks a person about; the person may approve or reject it.
 */
export interface LangChainInterruptOnConfig {
  allowedDecisions: ("approve" | "reject")[];
  when: (request: { toolCall: ToolCall }) => Promise<boolean>;
}

/** A call as LangChain's middleware hands it over: the model's `ToolCall`. */
interface ToolCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly id?: string | undefined;
}

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
 *   message the model can act on, with `status: "error"`; its `artifact` is the full outcome
 *   (`LangChainToolArtifact`). Invoked with bare arguments, it answers with that text. It never
 *   throws at a model's mistake.
 * - Each call goes through one `igniteTools` bridge: validated against the command's own schema,
 *   executed exactly once, one call at a time in the order made, with the run's abort signal.
 * - `schema` is the command's input schema as the model must see it (provider-safe name, object
 *   root): `bindTools` sends it as it is. LangChain checks a tool's input against it before the
 *   tool runs; when that check fails, the call still goes to the bridge, so the model reads the
 *   bridge's issues instead of LangChain's "did not match expected schema".
 *
 * - With `approve`, a call the policy asks about runs only once a person approved it through
 *   LangChain's `humanInTheLoopMiddleware` given `langchainInterruptOn(tools)`; without that
 *   middleware (or for a call it never asked about) it is answered `Denied`. A call the policy
 *   denies is answered `Denied`.
 * - With `search: toolSearch({ onDemand: true })`, the list still holds every command, and the
 *   search: `createAgent`'s middleware `langchainActiveTools(tools)` gives each model call the
 *   search and the commands a search found, and a command no search found is answered
 *   `UnknownCommand` with a hint to search.
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
  // A person is asked only where the application put the middleware: "ask" is approved only for
  // a call its `when` asked about (and so held for a person), never for another.
  const adapter = adapterTools(
    component,
    options,
    { names: LANGCHAIN_NAMES },
    "asked",
    LANGCHAIN_CARRIES,
    "langchainTools",
  );
  return adapter.tools.map((wire) => new BridgedTool(wire, adapter));
}

/**
 * The approval policy of `tools` (made by `langchainTools(component, { approve })`) as the
 * `interruptOn` of LangChain v1's `humanInTheLoopMiddleware`: one entry per tool, whose `when`
 * asks the policy about each call, once, and interrupts the agent for a call it asks a person
 * about. The person's `approve` runs the call, exactly as it was asked about; `reject` answers it
 * with the middleware's own message. Tools of other origins, and tools made without a policy,
 * have no entry. Give the agent a checkpointer: the middleware's interrupt is LangGraph's.
 *
 * @example
 * ```ts
 * import { createAgent, humanInTheLoopMiddleware } from "langchain";
 * import { MemorySaver } from "@langchain/langgraph";
 *
 * const tools = langchainTools(shop, { approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")) });
 * const agent = createAgent({
 *   model,
 *   tools,
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: langchainInterruptOn(tools) })],
 *   checkpointer: new MemorySaver(),
 * });
 * ```
 */
export function langchainInterruptOn(
  tools: readonly StructuredToolInterface[],
): Record<string, LangChainInterruptOnConfig> {
  const interruptOn: Record<string, LangChainInterruptOnConfig> = {};
  for (const tool of tools) {
    if (!(tool instanceof BridgedTool) || !tool.approves) continue;
    interruptOn[tool.name] = {
      allowedDecisions: ["approve", "reject"],
      when: ({ toolCall }) => tool.asks(toolCall),
    };
  }
  return interruptOn;
}

/**
 * A LangChain v1 agent middleware, in the part `langchainActiveTools` uses: LangChain's
 * `AgentMiddleware` takes it as it is (`createAgent({ middleware: [it] })`), whose
 * `wrapModelCall` is given each model call's request, `tools` among it, and the handler that calls
 * the model with the request it is handed.
 */
export interface LangChainActiveToolsMiddleware {
  readonly name: string;
  wrapModelCall<Request extends { tools: unknown[] }, Answer>(
    request: Request,
    handler: (request: Request) => Answer,
  ): Answer;
}

/**
 * A LangChain v1 middleware for `createAgent` that gives each model call only the tools offered
 * now, of `tools` (made by `langchainTools`): the commands available now (a gated command
 * unavailable now is left out) — and with `toolSearch({ onDemand: true })`, from its threshold on,
 * the search and then the commands a search found, in the order found. Tools of other origins
 * (not made by `langchainTools`) are all kept, in the order given, ahead of these: so each call's
 * list starts with the one before it, as a provider's prompt cache wants.
 *
 * The agent still holds every tool, so a call to a tool not offered is answered by the bridge
 * (`UnknownCommand` with a hint to search, or `Unavailable`), as a `ToolMessage`. Give the tools
 * of several `langchainTools` calls to one middleware: LangChain refuses two of the same name.
 * Without `onDemand`, the list then changes with what is available, which a provider's prompt
 * cache reuses less than the fixed list. It imports nothing from `langchain`.
 *
 * @example
 * ```ts
 * import { createAgent } from "langchain";
 * import { toolSearch } from "ignite-element/tools";
 *
 * const tools = langchainTools(shop, { search: toolSearch({ onDemand: true }) });
 * const agent = createAgent({ model, tools, middleware: [langchainActiveTools(tools)] });
 * ```
 */
export function langchainActiveTools(
  tools: readonly StructuredToolInterface[],
): LangChainActiveToolsMiddleware {
  const ours = tools.filter((tool) => tool instanceof BridgedTool);
  return {
    name: "IgniteActiveTools",
    wrapModelCall: (request, handler) => {
      const given = new Set(request.tools);
      const bound = ours.filter((tool) => given.has(tool));
      const mine = new Set<unknown>(bound);
      // Each bridge's tools offered now, in the order it offers them.
      const active = [...new Set(bound.map((tool) => tool.adapter))].flatMap((adapter) => {
        const byCommand = new Map<string, BridgedTool>();
        for (const tool of bound) if (tool.adapter === adapter) byCommand.set(tool.command, tool);
        return offeredNow(adapter).flatMap((command) => byCommand.get(command) ?? []);
      });
      const others = request.tools.filter((tool) => !mine.has(tool));
      return handler({ ...request, tools: [...others, ...active] });
    },
  };
}

/**
 * The commands `adapter`'s bridge offers now, in its order: on demand, the search and then the
 * commands found, in the order found. A component that throws while asked offers nothing.
 */
function offeredNow(adapter: AdapterTools): string[] {
  try {
    const shown = adapter.bridge.toToolDefs().tools.map(({ tool }) => tool.name);
    const available = new Set(adapter.bridge.manifest().map((tool) => tool.name));
    return shown.filter((command) => available.has(command));
  } catch {
    return [];
  }
}

/** One command as a LangChain tool. */
class BridgedTool extends StructuredTool<ToolSchemaBase> {
  name: string;
  description: string;
  schema: ToolSchemaBase;

  constructor(
    private readonly wire: WireTool,
    /** The bridge's tools this one is among: `langchainActiveTools` asks what it offers now. */
    readonly adapter: AdapterTools,
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

  /** The command's name (the tool's is its provider-safe name). */
  get command(): string {
    return this.wire.tool.name;
  }

  /** Whether the policy is asked about this tool's calls (`approve` has one). */
  get approves(): boolean {
    return this.adapter.approves;
  }

  /** Whether the policy asks a person about `call`: the middleware's `when`. */
  asks(call: ToolCall): Promise<boolean> {
    return this.adapter.asks(this.wire, frameworkCall(call.args, call.id));
  }

  private async answer(
    args: unknown,
    id: string | undefined,
    signal: AbortSignalLike | undefined,
  ): Promise<string | ToolMessage> {
    const call = frameworkCall(args, id);
    const outcome = await this.adapter.invoke(this.wire, call, signal ? { signal } : {});
    const { text, isError, parts } = this.adapter.text(this.wire, call, outcome);
    if (id === undefined) return text;
    return new ToolMessage({
      // With content parts, LangChain's standard content blocks: the text, then each part.
      content: parts ? [{ type: "text", text }, ...parts.map(standardBlock)] : text,
      tool_call_id: id,
      name: this.name,
      status: isError ? "error" : "success",
      artifact: artifactOf(outcome),
    });
  }
}

/** What the LangChain adapter carries as standard content blocks of a `ToolMessage`. */
const LANGCHAIN_CARRIES: readonly ContentPart["type"][] = ["text", "image", "audio", "resource"];

/**
 * A content part as LangChain's standard content block (`@langchain/core` 1.x): a text, an image
 * or audio as base64 data with its MIME type, a file's bytes as a `file` block with its name.
 */
function standardBlock(part: ContentPart) {
  switch (part.type) {
    case "image":
    case "audio":
      return { type: part.type, data: part.data, mimeType: part.mimeType };
    case "resource": {
      const file = fileOf(part);
      if (!file) return { type: "text" as const, text: partText(part) };
      const { data, mimeType, filename } = file;
      return { type: "file" as const, data, mimeType, metadata: { filename } };
    }
    case "text":
      return { type: "text" as const, text: part.text };
    default:
      return { type: "text" as const, text: linkText(part) };
  }
}

function artifactOf(outcome: Result<Observation, ToolError>): LangChainToolArtifact {
  return outcome.ok ? { ok: true, ...outcome.value } : { ok: false, error: outcome.error };
}

/** The arguments and id of a `ToolCall` passed in place of arguments, read as LangChain does. */
function toolCallOf(value: unknown): { args: unknown; id: string | undefined } | undefined {
  if (!isRecord(value) || value.type !== "tool_call") return undefined;
  return { args: value.args, id: typeof value.id === "string" ? value.id : undefined };
}
