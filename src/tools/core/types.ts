/**
 * The neutral vocabulary of the bridge: the contract a component speaks, the manifest and calls
 * the core works on, the errors it answers with, and the two ports (dialect and validator).
 * Types only; nothing here runs.
 */
import type { Answers } from "./answers.js";
import type { ContentPart } from "./content.js";
import type { Result } from "./result.js";

export type { Answer, Answers } from "./answers.js";

/** A JSON Schema object (draft 2020-12 unless its `$schema` says draft-07). */
export type JsonSchema = Record<string, unknown>;

/** One command a component offers. Without `input` the command takes no argument. */
export interface CommandSchema {
  /**
   * A short human-readable name for the command (`"Boost the heating"`), for hosts that show one:
   * the MCP tool `title` (and `annotations.title`), the WebMCP tool `title`, the AI SDK tool
   * `title`. The model calls the command by its key, never by this.
   */
  title?: string;
  /** What the command does, written for the model: it is the tool's description. */
  description?: string;
  /** JSON Schema of the command's input. */
  input?: JsonSchema;
  /**
   * JSON Schema of the snapshot (`state`) the command's `execute` returns. Hosts that can declare
   * a tool's output (MCP `outputSchema`) do.
   */
  output?: JsonSchema;
  /** Availability depends on the current state and is decided by `canExecute`. */
  gated?: boolean;
  /**
   * When a gated command is available, for the model: the words that complete "It is available
   * …" (`"only while the heating is on"`). A call made while it is not is answered `Unavailable`
   * with this sentence, everywhere; and where the command is listed while unavailable (`offer:
   * "declared"`, a framework's fixed tool list) its description ends with it.
   */
  availableWhen?: string;
  /** The command changes nothing: it only reads. */
  readOnly?: boolean;
  /** The command may destroy or overwrite something that cannot be restored. */
  destructive?: boolean;
  /** Running the command twice with the same input has the same effect as running it once. */
  idempotent?: boolean;
}

/** The facts an application states about a command's effects. */
export type EffectFlags = Pick<CommandSchema, "readOnly" | "destructive" | "idempotent">;

/** What `getSchema()` returns: the commands a component can run. */
export interface AgentSchema {
  commands: Record<string, CommandSchema>;
  events?: string[];
  state?: unknown;
}

/** An event a component emits while it runs a command. */
export interface RuntimeEvent {
  type: string;
  payload?: unknown;
}

/** What `execute()` returns: the state after the command and the events it emitted. */
export interface ExecuteResult<S, E extends RuntimeEvent> {
  state: S;
  events: E[];
  /**
   * Content parts beside the state — an image, audio, a text, a resource or a link to one — sent
   * in each provider's own tool-result form by a bridge built with `content: contentParts()`.
   */
  content?: readonly ContentPart[];
}

/** MCP's (syslog's) levels, lowest first. */
export type LogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

// `ExecuteContext.signal` is the platform's own `AbortSignal`, so a command can pass it to
// `fetch(url, { signal })`. The package names no platform's types (its neutral build has neither
// the DOM's nor Node's), so the global interface is declared here with one member both declare
// the same way: with either loaded, this merges into theirs and adds nothing.
declare global {
  interface AbortSignal {
    readonly aborted: boolean;
  }
}

/** How far a running command is. */
export interface ProgressUpdate {
  /** How much is done: it should grow with each update (MCP requires it to). */
  readonly progress: number;
  /** How much there is to do in all, when it is known. */
  readonly total?: number;
  /** What is happening now, for a person. */
  readonly message?: string;
}

/** One log line a command wrote through `context.log`. */
export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  /** Whatever the command attached: plain JSON data travels best. */
  readonly data?: unknown;
}

/**
 * What a command may use while it runs: plain data and functions, no host types. Each host maps
 * it to what it has (MCP progress and log notifications, span events, `onProgress`).
 *
 * @example
 * ```ts
 * async execute(command, input, context) {
 *   for (let done = 0; done < 3; done++) {
 *     if (context?.signal.aborted) break;
 *     context?.progress({ progress: done, total: 3, message: `step ${done + 1}` });
 *     await step(done);
 *   }
 *   return { state: snapshot(), events: [] };
 * }
 * ```
 */
export interface ExecuteContext {
  /** Aborted when the call is cancelled: the host's cancellation, the loop's signal, a timeout. */
  readonly signal: AbortSignal;
  /** Tells whoever called how far the command is. A no-op once the call has been answered. */
  progress(update: ProgressUpdate): void;
  /** A log line for whoever called. A no-op once the call has been answered. */
  log(level: LogLevel, message: string, data?: unknown): void;
  /** The person's answers to the approval policy's questions, by key; `undefined` when none. */
  readonly answers?: Answers | undefined;
}

/** The agent-runtime contract, duck-typed: anything with these methods can be bridged. */
export interface AgentComponent<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  getSchema(): AgentSchema;
  /**
   * Runs one command. `context` (optional to use) carries the call's cancellation signal and
   * lets a long command report progress and log lines; a command that ignores it works the same.
   */
  execute(
    command: string,
    input?: unknown,
    context?: ExecuteContext,
  ): ExecuteResult<S, E> | Promise<ExecuteResult<S, E>>;
  /** Whether a gated command is available now. Without it every command is offered. */
  canExecute?(command: string): boolean;
  /**
   * Calls `listener` whenever the component's state (and so its schema or availability) may have
   * changed; returns the function that stops it. Hosts use it to announce changed tools; without
   * it they re-read availability after each call.
   */
  subscribe?(listener: () => void): () => void;
  /**
   * The component's state now, as the application sees it: the same value (`Object.is`) while
   * nothing changed, a new one after each change — the contract of React's external stores,
   * XState's `actor.getSnapshot()` and Redux's `store.getState()`. With `subscribe`, it lets the
   * bridge tell a change from a repeated notification, and `observe`, `until`, the model's wait
   * and the loop's `tellChanges` hear the state between calls.
   *
   * A change of the schema is a change: a command added to, removed from or replaced in the
   * commands object in place comes with a new snapshot. While the snapshot is the same, the bridge does not
   * enumerate the commands object again (a sorted walk over every key in V8, the cost of a turn
   * at 10 000 commands); it still reads each command's fields, so a description or an input
   * schema set in place is seen at once. A component without `getSnapshot` is enumerated every
   * turn, and a frozen commands object never needs it.
   */
  getSnapshot?(): S;
  /**
   * Calls `listener` with every event the component emits, whether a command or something outside
   * any call (a timer, a person, a device) caused it; returns the function that stops it. The
   * events of a call also come back in its result (`execute`'s `events`); this is how the bridge
   * hears the others.
   */
  onEvent?(listener: (event: E) => void): () => void;
}

/**
 * One thing that happened to a component, as `observe` and `until` hear it: a change of its state,
 * or an event it emitted, with the snapshot it led to.
 */
export interface LiveChange<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  /** The component's snapshot (`getSnapshot()`) just after it. */
  readonly snapshot: S;
  /** The event, when the component emitted one; absent for a change of state alone. */
  readonly event?: E;
  /**
   * The call of this bridge whose command was running when it happened; absent when it came from
   * outside every call (a timer, a person, another agent), or from a call started while nobody
   * observed.
   */
  readonly call?: NeutralToolCall;
}

/** Why a warning was raised; see `ToolWarning`. */
export type ToolWarningCode =
  /** A tool was sent without strict mode although strict mode was asked for. */
  | "strict-fallback"
  /** A provider's schema dialect could not express part of a schema; the part was dropped. */
  | "schema-downgraded"
  /** A command name the provider does not accept was offered under another name. */
  | "name-mapped"
  /** A gated command, but the component has no `canExecute`: it is offered always. */
  | "gated-without-canExecute"
  /** The component has `canExecute` but no gated command: it is never asked. */
  | "canExecute-without-gated"
  /** `canExecute` threw: the command is treated as unavailable. */
  | "canExecute-threw"
  /** `getSnapshot` threw while the bridge watched the component: the change was not reported. */
  | "getSnapshot-threw"
  /** A listener of `observe` threw: the others still heard the change. */
  | "observer-threw"
  /** The tracer's `start` threw or gave no handle: the unit went on untraced. */
  | "tracer-failed"
  /** The approval policy gave what is not a verdict: the call was denied, saying so. */
  | "policy-not-a-verdict"
  /** An option the function does not take (a typo such as `timeoutMS`): it was ignored. */
  | "unknown-option"
  /** A content part the provider cannot carry in a tool result: a text names it instead. */
  | "content-left-out";

/**
 * Something the application should know and the model never sees: a silent downgrade or a
 * component that does not quite keep the contract. Reported through `onWarning`.
 */
export interface ToolWarning {
  readonly code: ToolWarningCode;
  /** The command it concerns, when it concerns one. */
  readonly command?: string;
  readonly message: string;
}

/** Where warnings go: `igniteTools(component, dialect, { onWarning })`. */
export type WarningSink = (warning: ToolWarning) => void;

/** A command as offered to a model, independent of any provider. */
export interface NeutralTool {
  readonly name: string;
  /** The command's human-readable `title`, when it declares one. */
  readonly title?: string;
  readonly description?: string;
  /** The command's own input schema, or the explicit no-argument object schema. */
  readonly inputSchema: JsonSchema;
  /** The declared schema of the command's snapshot, when the application gave one. */
  readonly outputSchema?: JsonSchema;
  readonly gated: boolean;
  /** When a gated command is available (its `availableWhen`), when it says. */
  readonly availableWhen?: string;
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
}

/** The commands available now, sorted by name. */
export type NeutralManifest = readonly NeutralTool[];

/**
 * Which commands a bridge lists as tools:
 * - `"available"` — the commands available now; a gated command appears and disappears with the
 *   state, for a host that reads the list again (every turn of a loop, a client that re-lists on
 *   `notifications/tools/list_changed`);
 * - `"declared"` — every declared command, whatever the state, for a host that keeps the first
 *   list it gets: a gated command's description ends with its `availableWhen`, and a call made
 *   while it is unavailable is answered `Unavailable` saying when it will be. The list then
 *   changes only when the declarations do (which also keeps a provider's prompt cache warm).
 */
export type ToolOffer = "available" | "declared";

/** A model's request to run one command, translated out of a provider's format. */
export interface NeutralToolCall {
  /** The provider's call id, echoed in the result so the provider can pair them. */
  id?: string;
  /** The command name (already mapped back from a provider-safe tool name). */
  name: string;
  /**
   * The arguments, as the model (or the caller) gave them. Left out for a command that takes no
   * input: `invoke({ name: "reset" })` runs it as `{ name: "reset", input: {} }` does.
   */
  input?: unknown;
  /** The tool name the provider used, when it differs from `name`; results echo it. */
  toolName?: string;
  /**
   * Set by a dialect when the provider's arguments could not be read as input (for example
   * invalid JSON). The call then resolves to `InvalidInput` with this message.
   */
  inputError?: string;
}

/** A call that passed every check: the command to execute and its validated input. */
export interface Route {
  command: string;
  input: unknown;
  /** The person's answers to the approval policy's questions, by key: only when it asked some. */
  answers?: Answers;
}

/** What one executed call observed: the state after it and exactly the events it emitted. */
export interface Observation<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  snapshot: S;
  events: E[];
  /**
   * The content parts `execute` answered with, checked (`content: contentParts()`): each dialect
   * sends them in its provider's own form, never inside the JSON text of the observation.
   */
  content?: readonly ContentPart[];
}

/** One reason an input was rejected, written so a model can fix its next call. */
export interface ValidationIssue {
  /** JSON Pointer into the input; `""` is the input itself. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed, when there is one. */
  keyword?: string;
}

/**
 * Why an `ExecuteFailed` happened, for the application (the model reads the message). Five are
 * the application's bugs to report (`schema`, `malformed-result`, `projection`, `output`,
 * `reentrant`),
 * three are about time (`timeout`, `aborted`, `cancelled`), one is the command's own failure
 * (`threw`).
 *
 * - `threw` — `execute` threw or rejected; `cause` is what it threw. Ran, perhaps in part.
 * - `timeout` — `execute` did not settle within `timeoutMs`. It may still take effect.
 * - `aborted` — the signal aborted while `execute` ran. It may still take effect.
 * - `cancelled` — the signal aborted before the call's turn: nothing was executed, safe to retry.
 * - `malformed-result` — `execute` returned something that is not `{ state, events? }`. It ran.
 * - `schema` — the application's schema could not be used for this call: `getSchema()` threw or
 *   returned no `commands`, the command's declaration is malformed, or its input schema does not
 *   compile. Nothing was executed.
 * - `projection` — `execute` succeeded but `project` threw or returned something that is not an
 *   observation. It ran: not to be retried.
 * - `output` — `execute` succeeded but its result cannot be sent as the command declares it: it
 *   does not match the command's `output` schema, or it is over the host's size cap (an MCP
 *   server). It ran: not to be retried.
 * - `reentrant` — `invoke` was called on the bridge from inside that bridge's own `execute`,
 *   which would wait for itself forever. Nothing was executed.
 * - `interrupted` — the ledger shows the call started in an earlier process that stopped before
 *   its outcome was recorded (its lease ran out). It is not run again; it may have taken effect.
 * - `ledger` — the ledger failed (its store is down, or holds a corrupted entry for the call): the
 *   call is not run without a record. When the failure came after `execute`, the message says it
 *   ran.
 */
export type ExecuteFailedReason =
  | "threw"
  | "timeout"
  | "aborted"
  | "cancelled"
  | "malformed-result"
  | "schema"
  | "projection"
  | "output"
  | "reentrant"
  | "interrupted"
  | "ledger";

/**
 * Why a call was not executed, or failed when it was. Errors are values, never throws: `invoke`
 * resolves a `ToolError` and the dialect turns it into a result block the model reads. `name` is
 * the command (as declared); `message` is written for the model and quotes the tool name it
 * called (the provider name, when the dialect mapped it).
 *
 * @example
 * ```ts
 * const result = await tools.invoke({ name: "save", input: {} });
 * if (!result.ok && result.error.kind === "ExecuteFailed" && result.error.reason === "timeout") {
 *   // retry later; a `schema` or `malformed-result` reason is a bug to report instead
 * }
 * ```
 */
export type ToolError =
  /**
   * The name is not an own command of the schema (the model invented it, or the command was
   * withdrawn). Nothing was executed.
   *
   * @example `Unknown command "explode". Call one of the tools you were offered.`
   */
  | { kind: "UnknownCommand"; name: string; message: string }
  /**
   * The input fails the command's schema or the input limits; `issues` lists every problem with
   * its JSON Pointer. Nothing was executed.
   *
   * @example `Invalid input for "setLimit": input must be <= 12. Fix the input and call again.`
   */
  | { kind: "InvalidInput"; name: string; issues: ValidationIssue[]; message: string }
  /**
   * The command is gated and `canExecute` did not return `true` for it now. Nothing was executed.
   *
   * With the command's `availableWhen`, the message says when it is available instead.
   *
   * @example `Command "boost" is not available in the current state. Use one of the tools offered now.`
   * @example `Command "boost" is not available in the current state. It is available only while the heating is on; until then, use another tool.`
   */
  | { kind: "Unavailable"; name: string; message: string }
  /**
   * The command could not run, or ran and failed; `reason` says which way, `cause` keeps what was
   * thrown. Every `ExecuteFailed` the bridge makes has a `reason`; the field is optional only so
   * that `ToolError` values written by hand before it existed still type-check.
   *
   * @example `Command "save" failed: disk full`
   */
  /**
   * The application's approval policy (`igniteTools(…, { approve })`) or a person refused the
   * call; `reason` is theirs, when they gave one. Nothing was executed, and the message tells the
   * model not to make the same call again.
   *
   * @example `Command "deleteAll" was denied: not on weekends. It did not run; do not call it again with the same input.`
   */
  | { kind: "Denied"; name: string; message: string; reason?: string }
  | {
      kind: "ExecuteFailed";
      name: string;
      message: string;
      /** Machine-readable: retry a `timeout`, report a `schema`. See `ExecuteFailedReason`. */
      reason?: ExecuteFailedReason;
      cause?: unknown;
    };

/** What a dialect may know beyond the commands offered now. */
export interface ToolDefsContext {
  /**
   * Every declared command, available or not. Provider names are computed over it, so a name
   * means the same command whatever is available this turn.
   */
  readonly declared?: NeutralManifest;
  /** Hears what the provider's format could not carry as it was (non-strict, dropped, mapped). */
  readonly warn?: WarningSink;
}

/** The provider port: three pure translators between the neutral types and one wire format. */
export interface ToolDialect<ToolDefs, Response, ResultBlock> {
  /** The manifest (the commands offered now) as the provider's tool definitions. */
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): ToolDefs;
  /**
   * The tool calls in a provider response. The manifest lets a dialect map provider-safe names
   * and wrapped inputs back to commands.
   */
  parseToolCalls(response: Response, manifest: NeutralManifest): NeutralToolCall[];
  /** One call's outcome as the provider's result block. */
  toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): ResultBlock;
  /**
   * The kinds of content part this dialect sends in its provider's own tool-result form; a part
   * of another kind reaches it as a text part standing in for it (`contentParts()`). Absent: the
   * provider takes text only, and the parts travel in the observation's JSON, as text.
   */
  readonly carries?: readonly ContentPart["type"][];
  /**
   * Why the provider takes no such part though it carries its kind (an image of a MIME type it
   * does not read): the part then reaches the dialect as a text naming it, and the application
   * hears `content-left-out`. Absent: it takes every part of the kinds it carries.
   */
  refuses?(part: ContentPart): string | undefined;
  /**
   * `true` when the tool list may change only with the declarations, never as a side effect of
   * calls (MCP 2026-07-28): tools on demand then keep one list, the search and `call_tool`.
   */
  readonly fixedList?: boolean;
}

/**
 * A dialect that can also carry a conversation, so an agent loop never needs to know a provider's
 * message format.
 */
export interface LoopDialect<ToolDefs, Response, ResultBlock, Message>
  extends ToolDialect<ToolDefs, Response, ResultBlock> {
  /**
   * `messages` followed by the model's turn exactly as it was received (reasoning and signature
   * parts included, which providers require back) and then the result blocks, in the provider's
   * message format. Returns a new array; `messages` is not changed.
   */
  appendTurn(
    messages: readonly Message[],
    response: Response,
    results: readonly ResultBlock[],
  ): Message[];
  /**
   * `messages` followed by `note`, a short text for the model (what changed while it was not
   * looking), in the provider's message format: beside the last turn's results where the
   * provider takes text there, else as a user message of its own. Returns a new array;
   * `messages` is not changed. `runToolLoop`'s `tellChanges` needs it.
   */
  appendNote?(messages: readonly Message[], note: string): Message[];
}

/** The part of the standard `AbortSignal` the bridge uses; a real `AbortSignal` is one. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
