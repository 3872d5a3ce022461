/**
 * What every framework adapter shares. A framework's tool list is fixed when it is made, so it
 * holds every declared command under a provider-safe name (a gated one saying when it is
 * available, from its `availableWhen`), and the wait tool when the bridge offers one; availability
 * is asked live, and each call goes through one bridge — validated, gated, executed once, in
 * order (a wait beside the others) — and comes back as the text the model reads.
 */

import { igniteTools, upgrade } from "#compat";
import { approval as approvalLayer, policyOf } from "../approval/approval.js";
import { frameworkApproval } from "../approval/framework.js";
import { partsOf } from "../bridge/pipeline.js";
import type { DialectToolBridge, IgniteToolsOptions, InvokeOptions } from "../bridge/types.js";
import type { ContentPart } from "../core/content.js";
import type { Result } from "../core/result.js";
import type {
  AbortSignalLike,
  AgentComponent,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
  ToolDialect,
  ToolError,
} from "../core/types.js";
import { objectArguments } from "../wire/arguments.js";
import { partBlocks, textAndParts } from "../wire/content-parts.js";
import {
  type ProviderCall,
  toNeutralCall,
  toWire,
  type WireManifest,
  type WireOptions,
  type WireTool,
} from "../wire/provider-tools.js";
import { DEFAULT_MAX_RESULT_CHARS, type ResultOptions, resultText } from "../wire/result-text.js";

/**
 * Options every framework adapter takes: the `igniteTools` options and the result-text cap. A
 * framework's tool list is fixed, so there is no `offer`: every declared command is a tool.
 */
export interface AdapterOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends Omit<IgniteToolsOptions<S, E>, "offer">,
    ResultOptions {}

/** One call's answer: the text the model reads, and whether it reports a `ToolError`. */
export interface ToolAnswer {
  readonly text: string;
  readonly isError: boolean;
  /**
   * The content parts the call answered with, of the kinds the framework carries as blocks of its
   * own (`contentParts()`), within the size cap; `text` is then the observation without them.
   */
  readonly parts?: readonly ContentPart[];
}

/** A framework's tool call: its id, when it has one, and the arguments as decoded. */
export type FrameworkCall = Omit<ProviderCall, "name">;

/**
 * A framework's call from the arguments it decoded and its call id. Arguments that are not an
 * object are the call's `argsError`; `absent: "empty"` reads missing arguments as `{}`.
 */
export function frameworkCall(
  args: unknown,
  id: string | undefined,
  absent?: "empty",
): FrameworkCall {
  const read = objectArguments(args, absent);
  return id === undefined ? read : { id, ...read };
}

/**
 * `call` under the tool's provider name. The name goes first: on Node 20's V8, a spread followed
 * by a key it lacks takes a slow path (about 1 µs per call).
 */
function named(tool: WireTool, call: FrameworkCall): ProviderCall {
  return { name: tool.name, ...call };
}

/** The declared commands as a framework's tools, and the way each call reaches the component. */
export interface AdapterTools<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  /**
   * Every declared command as the provider sees it, sorted by command name, with the wait tool
   * among them when `wait` is set.
   */
  readonly tools: readonly WireTool[];
  /** Whether `command` is offered now; a component that throws while asked offers nothing. */
  isAvailable(command: string): boolean;
  /** The provider names of the commands offered now, in `tools` order. */
  availableNames(): string[];
  /**
   * The bridge, for a framework that asks what it offers now in its own order (the search's
   * finds in the order found): its tool definitions and its commands available now.
   */
  readonly bridge: Pick<
    DialectToolBridge<S, E, WireManifest, ProviderCall, ToolAnswer>,
    "toToolDefs" | "manifest"
  >;
  /** Answers one call to `tool` through the bridge. Never throws, never rejects. */
  answer(tool: WireTool, call: FrameworkCall, signal?: AbortSignalLike): Promise<ToolAnswer>;
  /**
   * Runs one call to `tool` through the bridge and gives its outcome, for a framework that keeps
   * the observation and asks for the model's text separately (`text`); `options` carry the
   * framework's signal and who hears the command's progress and logs. Never rejects.
   */
  invoke(
    tool: WireTool,
    call: FrameworkCall,
    options?: Pick<InvokeOptions, "signal" | "onProgress" | "onLog">,
  ): Promise<Result<Observation<S, E>, ToolError>>;
  /** The text the model reads for an outcome of a call to `tool` (projected, capped). */
  text(
    tool: WireTool,
    call: FrameworkCall,
    outcome: Result<Observation<S, E>, ToolError>,
  ): ToolAnswer;
  /**
   * Whether the approval policy asks a person about this call (false without a policy). Only
   * for a framework that asks itself: see `adapterTools`' `frameworkAsks`. The verdict is kept
   * for the call's run, so the policy is asked once per call.
   */
  asks(tool: WireTool, call: FrameworkCall): Promise<boolean>;
  /** Whether `approve` has a policy, which `asks` asks (when the framework asks at all). */
  readonly approves: boolean;
}

/**
 * Whether a framework asks a person itself before it runs a call `asks` said needs one: `true`,
 * and the bridge takes the policy's `"ask"` as approved; `"asked"`, the same for the calls `asks`
 * was asked about, any other call's `"ask"` answered `Denied` (a framework where asking is the
 * application's choice: LangChain's human-in-the-loop middleware); `false`, `"ask"` is answered
 * `Denied`.
 */
export type FrameworkAsks = boolean | "asked";

// Every browser and Node has it; the ES library types do not.
declare const queueMicrotask: (callback: () => void) => void;

/**
 * The component's declared commands as provider-safe tools, answered through one `igniteTools`
 * bridge. Throws a `TypeError` naming the command when the schema is malformed, as `igniteTools`
 * users meet it at their first manifest.
 */
export function adapterTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: AdapterOptions<S, E>,
  wireOptions: WireOptions,
  /** Whether the framework asks a person itself: see `FrameworkAsks`. */
  frameworkAsks: FrameworkAsks = false,
  /** The kinds of content part the framework carries as blocks of its own (none: as text). */
  carries: readonly ContentPart["type"][] = [],
  /** The function that made the tools, named in a `TypeError` for an option it cannot honour. */
  who = "the adapter",
): AdapterTools<S, E> {
  // A dialect whose response is one framework call: the bridge then maps it back against every
  // declared command, queues it, and projects what the model reads, as it does for a provider.
  const dialect: ToolDialect<WireManifest, ProviderCall, ToolAnswer> = {
    toToolDefs: (manifest, context) => toWire(manifest, wireOptions, context),
    parseToolCalls: (call, manifest) => [toNeutralCall(toWire(manifest, wireOptions), call)],
    toToolResult: (call: NeutralToolCall, result: Result<Observation, ToolError>) => {
      const max = options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
      // A framework that takes no parts reads them as text in the observation (the layer's).
      const sent = carries.length > 0 ? textAndParts(call, result, max) : undefined;
      if (!sent) return { text: resultText(call, result, max), isError: !result.ok };
      const asText = (line: string): ContentPart => ({ type: "text", text: line });
      const parts = partBlocks(sent.parts, max - sent.text.length, (part) => part, asText);
      return { text: sent.text, isError: false, parts };
    },
    carries,
  };
  // On Node, the option forms before layers too (compat/legacy.ts).
  const given = upgrade(options);
  // Asked once per call: the framework's question and the call's run share the verdict.
  const policy = policyOf(given.approve);
  const approval =
    policy && frameworkAsks !== false
      ? frameworkApproval(policy, { askedOnly: frameworkAsks === "asked" })
      : undefined;
  // A framework's tool list is fixed, so the bridge offers every declared command whatever the
  // state (a gated one saying in its description when it is available), the wait tool included:
  // the list is the bridge's, so it holds exactly what the bridge answers.
  const bridge = igniteTools(component, dialect, {
    ...given,
    offer: "declared",
    ...(approval ? { approve: approvalLayer(approval.policy) } : {}),
  });
  // Every command the bridge lists, whatever its layers offer now: a framework is given its tools
  // once. What is offered now (the commands a search found, on demand) is told it per step.
  const parts = partsOf(bridge, who);
  const { tools } = toWire(parts.listed(), wireOptions, {
    declared: parts.declared(),
    warn: parts.warn,
  });
  const neutral = (tool: WireTool, call: FrameworkCall): NeutralToolCall => {
    const [parsed] = bridge.parseToolCalls(named(tool, call));
    // One framework call parses to exactly one call; the fallback only satisfies the type.
    return parsed ?? { name: tool.name, input: undefined };
  };

  // A framework asks every tool whether it is enabled, one after another in the same tick: the
  // commands offered are read once for all of them, then read fresh at the next tick.
  let offeredNow: ReadonlySet<string> | undefined;
  const offered = (): ReadonlySet<string> => {
    if (offeredNow === undefined) {
      try {
        const shown = new Set(bridge.toToolDefs().tools.map((tool) => tool.tool.name));
        offeredNow = new Set(
          bridge.manifest().flatMap((tool) => (shown.has(tool.name) ? [tool.name] : [])),
        );
      } catch {
        offeredNow = new Set();
      }
      queueMicrotask(() => {
        offeredNow = undefined;
      });
    }
    return offeredNow;
  };

  return {
    tools,
    bridge,
    isAvailable: (command) => offered().has(command),
    availableNames: () => {
      const now = offered();
      return tools.flatMap((tool) => (now.has(tool.tool.name) ? [tool.name] : []));
    },
    async answer(tool, call, signal) {
      const [answer] = await bridge.answerToolCalls(named(tool, call), { signal });
      // parseToolCalls makes exactly one call of it, so this is that call's one answer.
      return answer?.block ?? { text: "Error: the call was not answered.", isError: true };
    },
    invoke: (tool, call, invokeOptions) => bridge.invoke(neutral(tool, call), invokeOptions),
    text: (tool, call, outcome) => bridge.toToolResult(neutral(tool, call), outcome),
    approves: approval !== undefined,
    async asks(tool, call) {
      if (!approval) return false;
      try {
        const asked = neutral(tool, call);
        if (asked.inputError !== undefined) return false;
        const schema = component.getSchema();
        // The wait tool is the bridge's, not the component's: it acts on nothing, and no policy
        // is asked about it.
        if (!Object.hasOwn(schema.commands, asked.name)) return false;
        const route = bridge.resolveCall(asked.name, asked.input);
        return await approval.asks(schema, asked, route);
      } catch {
        return false; // the bridge answers the call, and reports what broke
      }
    },
  };
}
