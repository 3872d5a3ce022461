/**
 * The neutral vocabulary of the bridge: the contract a component speaks, the manifest and calls
 * the core works on, the errors it answers with, and the two ports (dialect and validator).
 * Types only; nothing here runs.
 */
import type { Result } from "./result.js";

/** A JSON Schema object (draft 2020-12 unless its `$schema` says draft-07). */
export type JsonSchema = Record<string, unknown>;

/** One command a component offers. Without `input` the command takes no argument. */
export interface CommandSchema {
  description?: string;
  input?: JsonSchema;
  /** Availability depends on the current state and is decided by `canExecute`. */
  gated?: boolean;
}

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
}

/** The agent-runtime contract, duck-typed: anything with these methods can be bridged. */
export interface AgentComponent<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  getSchema(): AgentSchema;
  execute(command: string, input?: unknown): ExecuteResult<S, E> | Promise<ExecuteResult<S, E>>;
  /** Whether a gated command is available now. Without it every command is offered. */
  canExecute?(command: string): boolean;
}

/** A command as offered to a model, independent of any provider. */
export interface NeutralTool {
  readonly name: string;
  readonly description?: string;
  /** The command's own input schema, or the explicit no-argument object schema. */
  readonly inputSchema: JsonSchema;
  readonly gated: boolean;
}

/** The commands available now, sorted by name. */
export type NeutralManifest = readonly NeutralTool[];

/** A model's request to run one command, translated out of a provider's format. */
export interface NeutralToolCall {
  /** The provider's call id, echoed in the result so the provider can pair them. */
  id?: string;
  /** The command name (already mapped back from a provider-safe tool name). */
  name: string;
  input: unknown;
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
}

/** What one executed call observed: the state after it and exactly the events it emitted. */
export interface Observation<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  snapshot: S;
  events: E[];
}

/** One reason an input was rejected, written so a model can fix its next call. */
export interface ValidationIssue {
  /** JSON Pointer into the input; `""` is the input itself. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed, when there is one. */
  keyword?: string;
}

/** Why a call was not executed, or failed when it was. Errors are values, never throws. */
export type ToolError =
  | { kind: "UnknownCommand"; name: string; message: string }
  | { kind: "InvalidInput"; name: string; issues: ValidationIssue[]; message: string }
  | { kind: "Unavailable"; name: string; message: string }
  | { kind: "ExecuteFailed"; name: string; message: string; cause?: unknown };

/** The provider port: three pure translators between the neutral types and one wire format. */
export interface ToolDialect<ToolDefs, Response, ResultBlock> {
  /** The manifest as the provider's tool definitions. */
  toToolDefs(manifest: NeutralManifest): ToolDefs;
  /**
   * The tool calls in a provider response. The manifest lets a dialect map provider-safe names
   * and wrapped inputs back to commands.
   */
  parseToolCalls(response: Response, manifest: NeutralManifest): NeutralToolCall[];
  /** One call's outcome as the provider's result block. */
  toToolResult(call: NeutralToolCall, result: Result<Observation, ToolError>): ResultBlock;
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
}

/** The part of the standard `AbortSignal` the bridge uses; a real `AbortSignal` is one. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
