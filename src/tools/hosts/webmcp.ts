/**
 * `ignite-element/tools/webmcp`: a component's commands offered to the agent in the visitor's
 * browser through WebMCP (`document.modelContext.registerTool`), kept equal to what the component
 * can do right now, every call validated, gated and run once through the bridge.
 */

import { igniteTools } from "#compat";
import { NOT_ASKED } from "../approval/approval.js";
import { answerAsked, type PersonsAnswer } from "../approval/asked.js";
import { isThenable } from "../bridge/soon.js";
import type { IgniteToolsOptions, ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import type { ContentPart } from "../core/content.js";
import { describe } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type {
  AbortSignalLike,
  AgentComponent,
  Answers,
  JsonSchema,
  NeutralManifest,
  NeutralTool,
  RuntimeEvent,
  ToolDefsContext,
  ToolDialect,
} from "../core/types.js";
import { objectArguments } from "../wire/arguments.js";
import { partBlocks, textAndParts } from "../wire/content-parts.js";
import { MCP_NAMES } from "../wire/names.js";
import { toNeutralCall, toWire, type WireOptions, type WireTool } from "../wire/provider-tools.js";
import { maxCharsOf, type ResultOptions, resultText } from "../wire/result-text.js";

// Every browser has it; the ES library types do not. Declared here rather than pulling the DOM
// types into the package.
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

/**
 * What the page tells the agent about a tool's effects. `readOnlyHint` is the draft's; Chromium
 * also reads `consequentialHint` (ask before running it); `destructiveHint` and `idempotentHint`
 * are MCP's names, passed along for agents that read them.
 */
export interface WebMcpAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  consequentialHint?: boolean;
}

/** One text block of a tool's result. */
export interface WebMcpTextContent {
  type: "text";
  text: string;
}

/**
 * What a tool's `execute` resolves to: MCP's `CallToolResult` shape, which agents read — the
 * outcome's text first, then, with `content: contentParts()`, each content part as the MCP
 * content block it already is (an image, audio, a link, an embedded resource, a text).
 */
export interface WebMcpToolResult {
  content: [WebMcpTextContent, ...(WebMcpTextContent | ContentPart)[]];
  /** Set on every error: the call was refused or failed, and the text says why. */
  isError?: true;
}

/** A tool as `registerTool` receives it. */
export interface WebMcpTool {
  /** 1–128 characters of `A–Z a–z 0–9 _ - .`: a command name WebMCP refuses is mapped. */
  name: string;
  /** The command's `title`, when it has one: the name a browser shows the visitor. */
  title?: string;
  /** Never empty: browsers refuse a tool without one. */
  description: string;
  /** Always object-rooted: a scalar input is wrapped as `{ value }`. */
  inputSchema: JsonSchema;
  /**
   * Resolves with the outcome, errors included: it never rejects. `client` is the browser's
   * `ModelContextClient` for this call.
   */
  execute(input: unknown, client?: ModelContextClientLike): Promise<WebMcpToolResult>;
  annotations?: WebMcpAnnotations;
}

/**
 * The agent's side of one call, as the WebMCP draft gives it to `execute`: a page that must ask
 * the visitor does it inside `requestUserInteraction`, so the agent waits for them; the later
 * draft's `signal` aborts when the agent cancels the call. Browsers that do not have one of them
 * yet pass an object without it.
 */
export interface ModelContextClientLike {
  requestUserInteraction?(callback: () => Promise<unknown>): Promise<unknown>;
  /** Aborted when the agent cancels the call: it reaches the command's `context.signal`. */
  signal?: AbortSignalLike;
}

/**
 * The part of WebMCP's `ModelContext` this uses — `document.modelContext` is one. A tool is
 * unregistered by aborting the signal it was registered with.
 */
export interface ModelContextLike {
  /**
   * Registers `tool`. Current browsers return a promise that rejects when the browser refuses the
   * tool (a name already registered, a permissions policy without `tools`); early previews
   * returned nothing.
   */
  registerTool(tool: WebMcpTool, options: { signal: AbortSignalLike }): unknown;
}

/** Options of `provideWebMcp`: the bridge's options, where to register, and who hears failures. */
export interface ProvideWebMcpOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends IgniteToolsOptions<S, E>,
    ResultOptions {
  /**
   * Where the tools are registered.
   * @default document.modelContext (or the deprecated `navigator.modelContext` of early previews)
   */
  modelContext?: ModelContextLike;
  /**
   * Hears what the page cannot answer as a tool result: a registration the browser refused
   * (`tool` names it), or a schema that became unreadable after the start.
   * @default reportError, so it shows in the console like an uncaught error
   */
  onError?: (error: unknown, tool?: string) => void;
  /**
   * Asks the visitor about a call the `approve` policy answers `"ask"`: resolve `true` and it runs
   * (once, with the input `call` shows), `false` and it is answered `Denied`. A call the policy
   * asked questions about (`call.questions`) is answered with the visitor's answers, `{ answers }`,
   * one per question; the policy reads them and may ask again (`confirm` is then called again).
   * It runs inside the browser's `requestUserInteraction` where there is one, so the agent waits
   * for the visitor. One that throws or rejects denies, and `onError` hears of it. See
   * docs/serving.md.
   *
   * @example
   * ```ts
   * provideWebMcp(cart, {
   *   approve: ({ flags }) => (flags.destructive ? "ask" : "allow"),
   *   confirm: (call) => window.confirm(`Let the assistant ${call.command} your cart?`),
   * });
   * ```
   * @default undefined — nobody is asked: `"ask"` is answered `Denied`
   */
  confirm?: (call: PendingCall) => VisitorSaid | Promise<VisitorSaid>;
}

/** What the visitor said of a held call: run it, their answers to its questions, or no. */
export type VisitorSaid = boolean | { readonly answers: Answers };

/**
 * Offers `component`'s commands to the agent in the visitor's browser, through WebMCP.
 *
 * Every command available now is registered as a tool (a scalar input wrapped as `{ value }`, a
 * command without a description given a readable one, effect flags as annotations). The
 * registrations follow availability: they are compared with the live manifest whenever the
 * component's `subscribe` announces a change and after every call, and a tool is registered,
 * replaced or withdrawn to match. Each `execute` runs through one bridge: the input validated
 * (the browser does not), availability checked at call time, one call at a time (the browser runs
 * them concurrently), and every refusal or failure answered as a result with `isError: true` and
 * the bridge's message, never a throw (a throw fails the agent's call without a reason).
 * With `wait`, the wait tool is registered too: a wait answers when what it waits for happens,
 * the agent's other calls run meanwhile, and the call's `signal` (where the browser gives one)
 * ends it.
 *
 * Throws a `TypeError` when there is no `modelContext` to register with, or when the component's
 * schema is malformed (naming the command).
 *
 * @returns a function that withdraws every tool and stops following the component.
 *
 * @example
 * ```ts
 * import { provideWebMcp } from "ignite-element/tools/webmcp";
 *
 * const stop = provideWebMcp(thermostat); // the page's agent can now call its commands
 * // later, when the component leaves the page:
 * stop();
 * ```
 */
export function provideWebMcp<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: ProvideWebMcpOptions<S, E> = {},
): () => void {
  const modelContext = options.modelContext ?? pageModelContext();
  if (modelContext === undefined) throw new TypeError(NO_MODEL_CONTEXT);
  const { onError = report } = options;
  const dialect = webMcpDialect(options);
  const tools = igniteTools(component, dialect, options);

  /** What is registered now, by tool name: the definition it was registered with, to compare. */
  const registered = new Map<string, { key: string; controller: { abort(): void } }>();
  let stopped = false;

  const register = (tool: WireTool, key: string) => {
    const controller = new AbortController();
    registered.set(tool.name, { key, controller });
    const name = tool.name;
    const refused = (error: unknown) => {
      // Aborted by us before the browser settled it: withdrawn, not refused. A refused tool stays
      // recorded, so the same definition is not offered again at every change.
      if (!controller.signal.aborted) onError(error, name);
    };
    try {
      const pending = modelContext.registerTool(
        { ...definitionOf(tool), execute: (input, client) => call(name, input, client) },
        { signal: controller.signal },
      );
      if (isThenable(pending)) Promise.resolve(pending).catch(refused);
    } catch (error) {
      refused(error);
    }
  };

  /** Registers, replaces and withdraws tools until the registrations equal the live manifest. */
  const sync = () => {
    if (stopped) return;
    // The bridge's tools of now, named over every declared command, so a tool keeps its name
    // whatever else is available, and a call maps back through the same names; kept between
    // syncs while nothing changed.
    const offered = new Map<string, WireTool>();
    for (const tool of tools.toToolDefs()) offered.set(tool.name, tool);
    for (const [name, registration] of registered) {
      const tool = offered.get(name);
      if (tool === undefined || keyOf(tool) !== registration.key) {
        // The abort removes the tool at once, so a changed one can be registered again below.
        registration.controller.abort();
        registered.delete(name);
      }
    }
    for (const [name, tool] of offered) {
      if (!registered.has(name)) register(tool, keyOf(tool));
    }
  };
  // After the start, a schema that stopped making sense is reported; the tools stay as they were
  // and each call is answered by the bridge, which says what is wrong.
  const resync = () => {
    try {
      sync();
    } catch (error) {
      onError(error);
    }
  };

  const call = async (
    name: string,
    input: unknown,
    client: ModelContextClientLike | undefined,
  ): Promise<WebMcpToolResult> => {
    // WebMCP has no progress or log channel back to the agent: a command's context.progress and
    // context.log go nowhere here. The call's cancellation, where the browser gives one, does.
    const signal = abortSignalOf(client);
    let [answer] = await tools.answerToolCalls({ name, input }, signal ? { signal } : undefined);
    if (answer?.pending) answer = await decide(answer, answer.pending, client);
    resync(); // the call may have changed what is available; the agent sees it before the result
    return answer?.block ?? notAnswered(name);
  };

  /**
   * A call the policy held, put to the visitor by `confirm` — round after round while the policy,
   * reading their answers, asks more; without `confirm`, it stays denied.
   */
  const decide = async (
    answer: ToolCallAnswer<S, E, WebMcpToolResult>,
    pending: PendingCall,
    client: ModelContextClientLike | undefined,
  ) => {
    const { confirm } = options;
    if (confirm === undefined) return answer;
    let held: PendingCall | undefined = pending;
    let answered = answer;
    while (held !== undefined) {
      const call = held;
      let yes: unknown;
      try {
        const ask = async () => confirm(call);
        const interact = client?.requestUserInteraction;
        yes = await (typeof interact === "function" ? interact.call(client, ask) : ask());
      } catch (error) {
        onError(error, answer.call.toolName ?? answer.call.name);
      }
      answered = await answerAsked(tools, answered, call, visitorSaid(call, yes));
      held = answered.pending;
    }
    return answered;
  };

  sync();
  const unsubscribe = component.subscribe?.(resync);
  return () => {
    if (stopped) return;
    stopped = true;
    if (typeof unsubscribe === "function") unsubscribe();
    for (const registration of registered.values()) registration.controller.abort();
    registered.clear();
  };
}

/** A call as the page receives it: the tool's name and the input the agent sent. */
interface WebMcpRequest {
  name: string;
  input: unknown;
}

/** WebMCP tool names: 1–128 characters of `A–Z a–z 0–9 _ - .`, MCP's rule. */
const WIRE: WireOptions = { names: MCP_NAMES };

/** The pure half: tools as WebMCP wants them, calls mapped back, outcomes as results. */
function webMcpDialect(
  options: ResultOptions,
): ToolDialect<readonly WireTool[], WebMcpRequest, WebMcpToolResult> {
  const maxChars = maxCharsOf("provideWebMcp", options);
  return {
    toToolDefs: (manifest: NeutralManifest, context?: ToolDefsContext) =>
      toWire(manifest, WIRE, context).tools,
    // The browser does not check the input against the schema, so it may be anything.
    parseToolCalls: ({ name, input }, manifest) => [
      toNeutralCall(toWire(manifest, WIRE), { name, ...objectArguments(input, "empty") }),
    ],
    toToolResult(call, result) {
      const sent = textAndParts(call, result, maxChars);
      if (sent === undefined) {
        const content: WebMcpToolResult["content"] = [
          textBlock(resultText(call, result, maxChars)),
        ];
        return result.ok ? { content } : { content, isError: true };
      }
      // The result is MCP's: each part goes as the content block it already is, while it fits.
      const room = maxChars - sent.text.length;
      const parts = partBlocks<WebMcpTextContent | ContentPart>(
        sent.parts,
        room,
        (part) => part,
        textBlock,
      );
      return { content: [textBlock(sent.text), ...parts] };
    },
    // The browser hands the agent the result as the page made it: MCP's every kind of content.
    carries: ["text", "image", "audio", "resource_link", "resource"],
  };
}

const textBlock = (text: string): WebMcpTextContent => ({ type: "text", text });

function definitionOf(tool: WireTool): Omit<WebMcpTool, "execute"> {
  const annotations = annotationsOf(tool.tool);
  const { title } = tool.tool;
  return {
    name: tool.name,
    ...(title === undefined ? {} : { title }),
    description: descriptionOf(tool.tool),
    inputSchema: tool.parameters,
    ...(annotations === undefined ? {} : { annotations }),
  };
}

/** What decides whether a registered tool must be replaced: everything the agent is shown. */
function keyOf(tool: WireTool): string {
  return JSON.stringify(definitionOf(tool));
}

function descriptionOf(tool: NeutralTool): string {
  const { description } = tool;
  return description !== undefined && description.trim() !== ""
    ? description
    : `Runs the page's ${JSON.stringify(tool.name)} command.`;
}

/**
 * The effect flags as annotations. A destructive command is also consequential (an agent should
 * ask first); a command that is not destructive may still be, so `false` is not passed on there.
 */
function annotationsOf(tool: NeutralTool): WebMcpAnnotations | undefined {
  const { readOnly, destructive, idempotent } = tool;
  if (readOnly === undefined && destructive === undefined && idempotent === undefined) {
    return undefined;
  }
  return {
    ...(readOnly === undefined ? {} : { readOnlyHint: readOnly }),
    ...(destructive === undefined ? {} : { destructiveHint: destructive }),
    ...(destructive === true ? { consequentialHint: true } : {}),
    ...(idempotent === undefined ? {} : { idempotentHint: idempotent }),
  };
}

/** The call's `signal`, when the browser gave `execute` one. */
function abortSignalOf(client: ModelContextClientLike | undefined): AbortSignalLike | undefined {
  const signal: unknown = readProperty(client, "signal");
  return isAbortSignal(signal) ? signal : undefined;
}

function isAbortSignal(value: unknown): value is AbortSignalLike {
  return (
    typeof readProperty(value, "aborted") === "boolean" &&
    typeof readProperty(value, "addEventListener") === "function" &&
    typeof readProperty(value, "removeEventListener") === "function"
  );
}

/** The bridge answers every call it parses; this is for the impossible case, as a result. */
function notAnswered(name: string): WebMcpToolResult {
  const text = `Error (ExecuteFailed): ${JSON.stringify(name)} was not answered.`;
  return { content: [{ type: "text", text }], isError: true };
}

const DECLINED = "the visitor declined it";

const NO_MODEL_CONTEXT =
  "provideWebMcp: this page has no WebMCP (`document.modelContext`). Open it in a browser with " +
  "WebMCP enabled (Chrome: the `--enable-features=WebMCP` switch, the “WebMCP for testing” flag " +
  "in chrome://flags, or the origin trial), or pass `{ modelContext }`.";

/** The page's `document.modelContext`, or the deprecated `navigator.modelContext`. */
function pageModelContext(): ModelContextLike | undefined {
  for (const owner of ["document", "navigator"]) {
    const modelContext: unknown = readProperty(Reflect.get(globalThis, owner), "modelContext");
    if (isModelContext(modelContext)) return modelContext;
  }
  return undefined;
}

function readProperty(owner: unknown, key: string): unknown {
  return typeof owner === "object" && owner !== null ? Reflect.get(owner, key) : undefined;
}

function isModelContext(value: unknown): value is ModelContextLike {
  return typeof readProperty(value, "registerTool") === "function";
}

/** The platform's `reportError`, where there is one; otherwise an unhandled rejection. */
function report(error: unknown, tool?: string): void {
  const reason =
    tool === undefined ? describe(error) : `tool ${JSON.stringify(tool)}: ${describe(error)}`;
  const wrapped = new Error(`provideWebMcp: ${reason}`, { cause: error });
  const reportError: unknown = Reflect.get(globalThis, "reportError");
  if (typeof reportError === "function") reportError(wrapped);
  else void Promise.reject(wrapped);
}

/**
 * What `confirm` gave, as the person's answer: `true` runs a call asked no questions, answers
 * (an object per question) answer one asked some; anything else denies it.
 */
function visitorSaid(call: PendingCall, yes: unknown): PersonsAnswer {
  if (yes === true && call.questions === undefined) return "allow";
  const answers = isRecord(yes) ? yes.answers : undefined;
  const asked = call.questions === undefined ? [] : Object.keys(call.questions);
  if (isRecord(answers) && asked.length > 0 && asked.every((key) => isRecord(answers[key]))) {
    // Each asked key checked to hold an object of the form's values.
    return { answers: answers as Answers };
  }
  return { deny: yes === false ? DECLINED : NOT_ASKED };
}
