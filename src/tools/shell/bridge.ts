/**
 * The imperative shell: the one place where a component's `execute()` runs. Everything it decides
 * comes from the pure core; everything it answers is a value.
 */

import { describe, executeFailed, unknownCommand } from "../core/errors.js";
import { buildManifest, type CoreOptions } from "../core/manifest.js";
import { resolveToolCall } from "../core/resolve.js";
import { err, ok, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
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
} from "../core/types.js";
import { withDeadline } from "./deadline.js";
import { withDefaults } from "./defaults.js";

/** Options of `igniteTools`. */
export interface IgniteToolsOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends CoreOptions {
  /**
   * How long one `execute` may take before its call is answered `ExecuteFailed`. No limit by
   * default. The queue moves on when the call is answered, not when the late `execute` settles.
   */
  timeoutMs?: number;
  /**
   * What the model sees of a successful call — a summary instead of a large snapshot. `invoke`
   * still returns the full observation; only result blocks are projected.
   */
  project?: (observation: Observation<S, E>, call: NeutralToolCall) => Observation;
}

/** Per-call options. */
export interface InvokeOptions {
  /** Aborting answers the call `ExecuteFailed` at once, whether it is queued or running. */
  signal?: AbortSignalLike;
}

/** One answered call: what was asked, what happened, and the block sent back to the provider. */
export interface ToolCallAnswer<S, E extends RuntimeEvent, ResultBlock> {
  call: NeutralToolCall;
  /** The validated command and input `execute` was called with; absent when it was not called. */
  route: Route | undefined;
  outcome: Result<Observation<S, E>, ToolError>;
  block: ResultBlock;
}

/** What one run of a call produced: its route, when `execute` was called, and its outcome. */
interface Run<S, E extends RuntimeEvent> {
  route?: Route;
  outcome: Result<Observation<S, E>, ToolError>;
}

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
  invoke(
    call: NeutralToolCall,
    options?: InvokeOptions,
  ): Promise<Result<Observation<S, E>, ToolError>>;
}

/** A component bridged to one provider's tool format. */
export interface DialectToolBridge<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>
  extends ToolBridge<S, E> {
  /** The tools available now, in the provider's format. */
  toToolDefs(): ToolDefs;
  /** The tool calls in a provider response, mapped back to commands. */
  parseToolCalls(response: Response): NeutralToolCall[];
  /** One call's outcome in the provider's format (projected, when `project` is set). */
  toToolResult(call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>): ResultBlock;
  /** Parses, invokes each call in order, and answers each: one block per call, same order. */
  handleToolCalls(response: Response, options?: InvokeOptions): Promise<ResultBlock[]>;
  /** `handleToolCalls`, keeping each call and its outcome beside its block. */
  answerToolCalls(
    response: Response,
    options?: InvokeOptions,
  ): Promise<ToolCallAnswer<S, E, ResultBlock>[]>;
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
  options?: IgniteToolsOptions<S, E>,
): LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
/** Bridges `component` to a provider's tool format through `dialect`. */
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>(
  component: AgentComponent<S, E>,
  dialect: ToolDialect<ToolDefs, Response, ResultBlock>,
  options?: IgniteToolsOptions<S, E>,
): DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>;
/** Bridges `component` to neutral tool calls. */
export function igniteTools<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  dialect?: undefined,
  options?: IgniteToolsOptions<S, E>,
): ToolBridge<S, E>;
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>(
  component: AgentComponent<S, E>,
  dialect?:
    | ToolDialect<ToolDefs, Response, ResultBlock>
    | LoopDialect<ToolDefs, Response, ResultBlock, Message>,
  options: IgniteToolsOptions<S, E> = {},
):
  | ToolBridge<S, E>
  | DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>
  | LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message> {
  const { timeoutMs, project } = options;
  const checked = withDefaults(options);
  // Read fresh on every use: availability is a property of the component's state right now.
  const canExecute = () =>
    typeof component.canExecute === "function"
      ? (name: string) => component.canExecute?.(name) === true
      : undefined;
  const manifest = () => buildManifest(component.getSchema(), canExecute(), checked);
  const resolveCall = (name: string, input: unknown) =>
    resolveToolCall(component.getSchema(), { name, input }, canExecute(), checked);

  const step = async (
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
  ): Promise<Run<S, E>> => {
    if (typeof call !== "object" || call === null) {
      return { outcome: err(unknownCommand("(no call)")) };
    }
    let schema: AgentSchema;
    try {
      schema = component.getSchema();
    } catch (error) {
      const reason = `getSchema() threw: ${describe(error)}`;
      return { outcome: err(executeFailed(nameOf(call), error, reason)) };
    }
    const route = resolveToolCall(schema, call, canExecute(), checked);
    if (!route.ok) return { outcome: route };
    const { command, input } = route.value;
    if (signal?.aborted) {
      return { outcome: err(executeFailed(command, signal.reason, ABORTED_BEFORE)) };
    }
    return { route: route.value, outcome: await execute(command, input, signal) };
  };

  const execute = async (
    command: string,
    input: unknown,
    signal: AbortSignalLike | undefined,
  ): Promise<Result<Observation<S, E>, ToolError>> => {
    try {
      // Nothing to race: await the result itself (a throw, sync or async, lands in the catch).
      if (timeoutMs === undefined && signal === undefined) {
        return observe(command, await component.execute(command, input));
      }
      const running = new Promise<ExecuteResultLike<S, E>>((resolve) =>
        resolve(component.execute(command, input)),
      );
      const waited = await withDeadline(running, timeoutMs, signal);
      if (waited.done) return observe(command, waited.value);
      return err(
        waited.stop === "timeout"
          ? executeFailed(command, undefined, `did not finish within ${timeoutMs} ms. ${MAYBE_RAN}`)
          : executeFailed(command, signal?.reason, `was aborted while running. ${MAYBE_RAN}`),
      );
    } catch (error) {
      return err(executeFailed(command, error));
    }
  };

  // One call at a time, in the order made. Each call waits for the one before it to be
  // answered (or for its own signal); a timed-out call is answered, so the queue never stalls.
  let queue: Promise<unknown> = Promise.resolve();
  const run = (call: NeutralToolCall, { signal }: InvokeOptions = {}): Promise<Run<S, E>> => {
    const previous = queue;
    if (signal === undefined) {
      // Nothing can answer this call before its turn: it waits for the one before, then runs.
      const running = previous.then(() => step(call, undefined));
      queue = running;
      return running;
    }
    const running = withDeadline(previous, undefined, signal).then(
      (waited): Promise<Run<S, E>> | Run<S, E> =>
        waited.done
          ? step(call, signal)
          : { outcome: err(executeFailed(nameOf(call), signal?.reason, ABORTED_BEFORE)) },
    );
    queue = Promise.all([previous, running]).then(() => undefined);
    return running;
  };
  const invoke = async (call: NeutralToolCall, invokeOptions?: InvokeOptions) =>
    (await run(call, invokeOptions)).outcome;

  const bridge: ToolBridge<S, E> = { manifest, resolveCall, invoke };
  if (!dialect) return bridge;

  // Parse against every declared command, not only the available ones, so a call to a command
  // that became unavailable maps back to its name and is answered `Unavailable`.
  const declared = (): NeutralManifest => {
    try {
      return buildManifest(component.getSchema(), undefined, checked);
    } catch {
      return []; // each call is then answered by invoke, which reports the broken schema
    }
  };
  const parseToolCalls = (response: Response) => dialect.parseToolCalls(response, declared());
  const toToolResult = (call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>) =>
    dialect.toToolResult(
      call,
      project && result.ok ? projected(project, call, result.value) : result,
    );
  // Every invoke is queued before any settles, so the calls run in the order parsed.
  const answerToolCalls = (response: Response, invokeOptions?: InvokeOptions) =>
    Promise.all(
      parseToolCalls(response).map(async (call) => {
        const { route, outcome } = await run(call, invokeOptions);
        return { call, route, outcome, block: toToolResult(call, outcome) };
      }),
    );
  const withDialect: DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> = {
    ...bridge,
    toToolDefs: () => dialect.toToolDefs(manifest()),
    parseToolCalls,
    toToolResult,
    answerToolCalls,
    handleToolCalls: async (response, invokeOptions) =>
      (await answerToolCalls(response, invokeOptions)).map((answer) => answer.block),
  };
  if (!("appendTurn" in dialect) || typeof dialect.appendTurn !== "function") return withDialect;
  const { appendTurn } = dialect;
  return { ...withDialect, appendTurn: appendTurn.bind(dialect) };
}

const ABORTED_BEFORE = "was aborted before it ran; nothing was executed";
const MAYBE_RAN = "It may still take effect: check the state before calling it again.";

function nameOf(call: NeutralToolCall): string {
  return typeof call === "object" && call !== null && typeof call.name === "string"
    ? call.name
    : "(unnamed)";
}

function projected<S, E extends RuntimeEvent>(
  project: (observation: Observation<S, E>, call: NeutralToolCall) => Observation,
  call: NeutralToolCall,
  observation: Observation<S, E>,
): Result<Observation, ToolError> {
  try {
    return ok(project(observation, call));
  } catch (error) {
    const reason = `ran, but its result could not be prepared for you (${describe(error)}). Do not call it again to retry.`;
    return err(executeFailed(call.name, error, reason));
  }
}

/** `execute()`'s result as an observation; normalises a missing `events` to none. */
function observe<S, E extends RuntimeEvent>(
  command: string,
  result: ExecuteResultLike<S, E>,
): Result<Observation<S, E>, ToolError> {
  if (typeof result !== "object" || result === null) {
    const reason = `execute() returned ${String(result)} instead of { state, events }`;
    return err(executeFailed(command, result, reason));
  }
  const { state, events } = result;
  if (events !== undefined && !Array.isArray(events)) {
    return err(executeFailed(command, events, "execute() returned `events` that is not an array"));
  }
  return ok({ snapshot: state, events: events ?? [] });
}

/** What `execute()` may resolve at runtime, whatever its type says. */
type ExecuteResultLike<S, E> = { state: S; events?: E[] } | null | undefined;
