/**
 * The imperative shell: the one place where a component's `execute()` runs. Everything it decides
 * comes from the pure core; everything it answers is a value.
 */
import { describe, executeFailed, unknownCommand } from "./errors.js";
import { buildManifest, type CoreOptions } from "./manifest.js";
import { err, ok, type Result } from "./result.js";
import { resolveToolCall } from "./route.js";
import type {
  AgentComponent,
  AgentSchema,
  LoopDialect,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolDialect,
  ToolError,
} from "./types.js";
import { defaultValidator } from "./validation.js";

/** Options of `igniteTools`. */
export interface IgniteToolsOptions extends CoreOptions {}

/** A component bridged to tool calls, without a provider format. */
export interface ToolBridge<S, E extends RuntimeEvent> {
  /** The commands available now; call it every turn, availability follows the state. */
  manifest(): NeutralManifest;
  /** The pure check of a call against the live schema and availability; executes nothing. */
  resolveCall(name: string, input: unknown): Result<Route, ToolError>;
  /**
   * Checks the call against a fresh schema and availability, then executes it exactly once.
   * Calls run one at a time, in the order made. Never throws, never rejects.
   */
  invoke(call: NeutralToolCall): Promise<Result<Observation<S, E>, ToolError>>;
}

/** A component bridged to one provider's tool format. */
export interface DialectToolBridge<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>
  extends ToolBridge<S, E> {
  /** The tools available now, in the provider's format. */
  toToolDefs(): ToolDefs;
  /** The tool calls in a provider response, mapped back to commands. */
  parseToolCalls(response: Response): NeutralToolCall[];
  /** One call's outcome in the provider's format. */
  toToolResult(call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>): ResultBlock;
  /** Parses, invokes each call in order, and answers each: one block per call, same order. */
  handleToolCalls(response: Response): Promise<ResultBlock[]>;
}

/** A component bridged to a provider format that can also carry the conversation. */
export interface LoopToolBridge<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>
  extends DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> {
  /** `messages` followed by the model's turn, unchanged, and its result blocks. */
  appendTurn(
    messages: readonly Message[],
    response: Response,
    results: readonly ResultBlock[],
  ): Message[];
}

/** Bridges `component` to a provider's tool and message format through `dialect`. */
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>(
  component: AgentComponent<S, E>,
  dialect: LoopDialect<ToolDefs, Response, ResultBlock, Message>,
  options?: IgniteToolsOptions,
): LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
/** Bridges `component` to a provider's tool format through `dialect`. */
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>(
  component: AgentComponent<S, E>,
  dialect: ToolDialect<ToolDefs, Response, ResultBlock>,
  options?: IgniteToolsOptions,
): DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>;
/** Bridges `component` to neutral tool calls. */
export function igniteTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  dialect?: undefined,
  options?: IgniteToolsOptions,
): ToolBridge<S, E>;
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>(
  component: AgentComponent<S, E>,
  dialect?:
    | ToolDialect<ToolDefs, Response, ResultBlock>
    | LoopDialect<ToolDefs, Response, ResultBlock, Message>,
  options: IgniteToolsOptions = {},
):
  | ToolBridge<S, E>
  | DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>
  | LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message> {
  const validator = options.validator ?? defaultValidator;
  // Read fresh on every use: availability is a property of the component's state right now.
  const canExecute = () =>
    typeof component.canExecute === "function"
      ? (name: string) => component.canExecute?.(name) === true
      : undefined;
  const manifest = () => buildManifest(component.getSchema(), canExecute(), { validator });
  const resolveCall = (name: string, input: unknown) =>
    resolveToolCall(component.getSchema(), { name, input }, canExecute(), validator);

  const step = async (call: NeutralToolCall): Promise<Result<Observation<S, E>, ToolError>> => {
    if (typeof call !== "object" || call === null) return err(unknownCommand("(no call)"));
    let schema: AgentSchema;
    try {
      schema = component.getSchema();
    } catch (error) {
      const name = typeof call.name === "string" ? call.name : "(unnamed)";
      return err(executeFailed(name, error, `getSchema() threw: ${describe(error)}`));
    }
    const route = resolveToolCall(schema, call, canExecute(), validator);
    if (!route.ok) return route;
    const { command, input } = route.value;
    try {
      return observe(command, await component.execute(command, input));
    } catch (error) {
      return err(executeFailed(command, error));
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  const invoke = (call: NeutralToolCall) => {
    const run = queue.then(() => step(call));
    queue = run;
    return run;
  };

  const bridge: ToolBridge<S, E> = { manifest, resolveCall, invoke };
  if (!dialect) return bridge;

  // Parse against every declared command, not only the available ones, so a call to a command
  // that became unavailable maps back to its name and is answered `Unavailable`.
  const declared = (): NeutralManifest => {
    try {
      return buildManifest(component.getSchema(), undefined, { validator });
    } catch {
      return []; // each call is then answered by invoke, which reports the broken schema
    }
  };
  const parseToolCalls = (response: Response) => dialect.parseToolCalls(response, declared());
  const toToolResult = (call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>) =>
    dialect.toToolResult(call, result);
  const withDialect: DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> = {
    ...bridge,
    toToolDefs: () => dialect.toToolDefs(manifest()),
    parseToolCalls,
    toToolResult,
    // Every invoke is queued before any settles, so the calls run in the order parsed.
    handleToolCalls: async (response: Response) =>
      Promise.all(
        parseToolCalls(response).map(async (call) => toToolResult(call, await invoke(call))),
      ),
  };
  if (!("appendTurn" in dialect) || typeof dialect.appendTurn !== "function") return withDialect;
  const { appendTurn } = dialect;
  return { ...withDialect, appendTurn: appendTurn.bind(dialect) };
}

function observe<S, E extends RuntimeEvent>(
  command: string,
  result: ExecuteResultLike<S, E>,
): Result<Observation<S, E>, ToolError> {
  if (typeof result !== "object" || result === null) {
    return err(
      executeFailed(
        command,
        result,
        `execute() returned ${String(result)} instead of { state, events }`,
      ),
    );
  }
  const { state, events } = result;
  if (events !== undefined && !Array.isArray(events)) {
    return err(executeFailed(command, events, "execute() returned `events` that is not an array"));
  }
  return ok({ snapshot: state, events: events ?? [] });
}

/** What `execute()` may resolve at runtime, whatever its type says. */
type ExecuteResultLike<S, E> = { state: S; events?: E[] } | null | undefined;
