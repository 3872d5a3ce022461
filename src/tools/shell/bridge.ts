/**
 * The imperative shell: the one place where a component's `execute()` runs. Everything it decides
 * comes from the pure core; everything it answers is a value.
 */

import { clip, describe, executeFailed, threw } from "../core/errors.js";
import type { CoreOptions } from "../core/manifest.js";
import { readCall, resolveToolCall } from "../core/resolve.js";
import { err, ok, type Result } from "../core/result.js";
import type { ToolTracer, TraceHandle } from "../core/tracing.js";
import type {
  AbortSignalLike,
  AgentComponent,
  AgentSchema,
  ApprovalPolicy,
  ExecuteFailedReason,
  LiveChange,
  LoopDialect,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolDialect,
  ToolError,
  ToolOffer,
  WarningSink,
} from "../core/types.js";
import { type GuardOptions, guard, type PendingCall } from "./approval.js";
import { checkComponent, checkOptions, onceEach } from "./checks.js";
import { type CallContext, type CallListeners, callContext } from "./context.js";
import { withDeadline } from "./deadline.js";
import { withDefaults } from "./defaults.js";
import { type Live, liveOf, type UntilOptions } from "./live.js";
import { isThenable, type Soon } from "./soon.js";
import { type SpanTracer, toolTracer } from "./spans.js";
import { traceCall } from "./tracing.js";
import { turnCache } from "./turn-cache.js";
import { isWaitAnswer, type Waiter, type WaitOptions, waiterOf } from "./wait.js";

/**
 * Options of `igniteTools`: the input limits and validator of the core, and what the shell adds.
 *
 * @example
 * ```ts
 * const tools = igniteTools(component, openai, {
 *   timeoutMs: 10_000,
 *   project: ({ snapshot, events }) => ({ snapshot: summarise(snapshot), events }),
 *   onWarning: (warning) => log.warn(warning.code, warning.message),
 * });
 * ```
 */
export interface IgniteToolsOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends CoreOptions {
  /**
   * How long one `execute` may take, in milliseconds, before its call is answered
   * `ExecuteFailed` with reason `timeout`. Any length works (beyond the timers' 2³¹−1 ms it is
   * waited in steps); `Infinity` means no limit. The queue moves on when the call is answered,
   * not when the late `execute` settles.
   *
   * @default undefined — no limit
   */
  timeoutMs?: number;
  /**
   * What the model sees of a successful call — a summary instead of a large snapshot. `invoke`
   * still returns the full observation; only result blocks are projected. A `project` that throws
   * or returns something that is not `{ snapshot, events? }` answers the call `ExecuteFailed`
   * with reason `projection` (the command ran); every call is still answered.
   *
   * @default undefined — the model sees the whole observation
   */
  project?: (observation: Observation<S, E>, call: NeutralToolCall) => Observation;
  /**
   * Hears what the application should know and the model never sees: a gated command without
   * `canExecute`, a `canExecute` that is never asked or that throws, and whatever a dialect could
   * not send as it was (strict mode dropped, a keyword or a name changed). Each distinct warning
   * is reported once per bridge, not every turn; a sink that throws is ignored.
   *
   * @default undefined — warnings are dropped
   */
  onWarning?: WarningSink;
  /**
   * Decides, after validation and availability and before `execute`, whether each call may run:
   * `"allow"`, `"deny"` (or `{ deny: reason }`, answered `Denied`), or `"ask"` — `runToolLoop`
   * and `answerToolCalls` then hold the call as `pending` until a person decides; `invoke` and
   * `handleToolCalls`, which cannot wait, answer it `Denied`. A policy that throws denies. See
   * docs/approval.md.
   *
   * @default undefined — every valid, available call runs
   */
  approve?: ApprovalPolicy;
  /**
   * Reports each call — queued, validated, executed, answered — to a tracer: an OpenTelemetry
   * `Tracer` as it is (`trace.getTracer("shop")`), or `otelTracer(tracer, options)` from
   * `ignite-element/tools/otel`, makes one GenAI `execute_tool {name}` span per call; any other
   * `ToolTracer` hears the units of work. See docs/telemetry.md.
   *
   * @default undefined — no spans, no cost
   */
  tracer?: ToolTracer | SpanTracer;
  /**
   * Which commands `toToolDefs` lists: `"available"`, the commands available now (the list
   * follows the state, for a host that reads it every turn), or `"declared"`, every declared
   * command (for a host that keeps the first list it gets): a gated command then says in its
   * description when it is available (`availableWhen`), and a call made while it is not is
   * answered `Unavailable` saying so. `manifest()` is always the commands available now.
   *
   * @default "available"
   */
  offer?: ToolOffer;
  /**
   * Offers the model one more tool (`waitFor`, or `name`) with which it waits, without acting, for
   * one of the events the component declares (`getSchema().events`), for a gated command to
   * become available, or for any change — at most `maxMs`. It answers with a `WaitObservation`:
   * what happened, the snapshot and the commands available now, or that nothing did in time. A
   * wait runs beside the other calls (it holds none up); the call's signal cancels it. The
   * component needs `subscribe` and `getSnapshot`. See docs/live-state.md.
   *
   * @default undefined — no wait tool
   */
  wait?: WaitOptions;
}

/** Per-call options. */
export interface InvokeOptions extends GuardOptions, CallListeners {
  /**
   * Aborting answers the call `ExecuteFailed` at once: reason `cancelled` when it had not run
   * yet (nothing was executed), `aborted` when it was running — and aborts the `signal` of the
   * command's context. One signal may be shared by any number of calls; it carries one listener.
   *
   * @default undefined — the call cannot be aborted
   */
  signal?: AbortSignalLike;
  /**
   * The unit the call is traced under, started by the same `tracer` (the loop passes its turn).
   * Without one, the call's span goes under whatever span the application has active.
   *
   * @default undefined
   */
  parent?: TraceHandle;
}

/** One answered call: what was asked, what happened, and the block sent back to the provider. */
export interface ToolCallAnswer<S, E extends RuntimeEvent, ResultBlock> {
  call: NeutralToolCall;
  /** The validated command and input `execute` was called with; absent when it was not called. */
  route: Route | undefined;
  outcome: Result<Observation<S, E>, ToolError>;
  block: ResultBlock;
  /**
   * Set when the approval policy asked a person about the call: it did not run, and `outcome`
   * and `block` deny it until `resumeToolCalls` applies a decision.
   */
  pending?: PendingCall;
}

/** What one run of a call produced: its route, when `execute` was called, and its outcome. */
interface Run<S, E extends RuntimeEvent> {
  route?: Route;
  outcome: Result<Observation<S, E>, ToolError>;
  pending?: PendingCall;
}

/** A component bridged to tool calls, without a provider format. */
export interface ToolBridge<S, E extends RuntimeEvent> {
  /**
   * Calls `listener` with every change of the component's state and every event it emits, from
   * now on — between calls and during them — in the order they happened, each once, with the
   * snapshot it led to; returns the function that stops it. A listener that throws is reported
   * (`onWarning`, `observer-threw`) and the others still hear the change. The component is
   * subscribed to only while someone observes. Needs a component with `subscribe` and
   * `getSnapshot` (a `TypeError` otherwise).
   *
   * @example
   * ```ts
   * const stop = tools.observe(({ event, snapshot, call }) => {
   *   if (!call) console.log("outside a call:", event?.type ?? "state", snapshot);
   * });
   * ```
   */
  observe(listener: (change: LiveChange<S, E>) => void): () => void;
  /**
   * Resolves with the first change `match` accepts, the state now first (as `{ snapshot }`). Rejects
   * with an `AbortError` when `signal` aborts, a `TimeoutError` after `timeoutMs`, or what `match`
   * throws; its subscription is released in every case. Needs a component with `subscribe` and
   * `getSnapshot` (it rejects with a `TypeError` otherwise).
   *
   * @example
   * ```ts
   * const { snapshot } = await tools.until(({ snapshot }) => snapshot.temperature >= 180, {
   *   timeoutMs: 60_000,
   * });
   * ```
   */
  until(
    match: (change: LiveChange<S, E>) => boolean,
    options?: UntilOptions,
  ): Promise<LiveChange<S, E>>;
  /** The commands available now; call it every turn, availability follows the state. */
  manifest(): NeutralManifest;
  /** The pure check of a call against the live schema and availability; executes nothing. */
  resolveCall(name: string, input: unknown): Result<Route, ToolError>;
  /**
   * Checks the call against a fresh schema and availability, then executes it exactly once with
   * a plain JSON copy of the input that was validated. Calls run one at a time, in the order
   * made. Never throws, never rejects; a call made from inside this bridge's own `execute` is
   * answered `ExecuteFailed` (reason `reentrant`) instead of waiting for itself.
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
  /**
   * Invokes one parsed call and answers it, as `answerToolCalls` does each: queued behind every
   * call made before it, so calls started one by one (as a stream makes them ready) still run in
   * the order started.
   */
  answerToolCall(
    call: NeutralToolCall,
    options?: InvokeOptions,
  ): Promise<ToolCallAnswer<S, E, ResultBlock>>;
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
  /** `messages` followed by a note for the model, when the dialect can write one. */
  appendNote?(messages: readonly Message[], note: string): Message[];
}

/**
 * Bridges `component` to a provider's tool and message format through `dialect`: tool
 * definitions for the commands available now, every call validated, gated, executed once and
 * answered, and the conversation carried for `runToolLoop`.
 *
 * The component is checked here: a missing `getSchema` or `execute`, a malformed schema or a bad
 * option is a `TypeError` naming the problem, thrown now rather than at a model's call.
 *
 * @example
 * ```ts
 * import { igniteTools } from "ignite-element/tools";
 * import { openai } from "ignite-element/tools/openai";
 *
 * const tools = igniteTools(thermostat, openai, { timeoutMs: 5_000 });
 * const reply = await client.chat.completions.create({ model, messages, tools: tools.toToolDefs() });
 * const results = await tools.handleToolCalls(reply); // one tool message per call, in order
 * ```
 */
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock, Message>(
  component: AgentComponent<S, E>,
  // Without the optional `appendNote`: overloads are first matched as subtypes, and a dialect
  // that lacks an optional member is no subtype, so it would be taken for a plain ToolDialect.
  dialect: Omit<LoopDialect<ToolDefs, Response, ResultBlock, Message>, "appendNote">,
  options?: IgniteToolsOptions<S, E>,
): LoopToolBridge<S, E, ToolDefs, Response, ResultBlock, Message>;
/**
 * Bridges `component` to a provider's tool format through `dialect`. Checks the component now:
 * a malformed one is a `TypeError`.
 *
 * @example
 * ```ts
 * const server = igniteTools(component, mcp); // tools/list and tools/call, answered
 * ```
 */
export function igniteTools<S, E extends RuntimeEvent, ToolDefs, Response, ResultBlock>(
  component: AgentComponent<S, E>,
  dialect: ToolDialect<ToolDefs, Response, ResultBlock>,
  options?: IgniteToolsOptions<S, E>,
): DialectToolBridge<S, E, ToolDefs, Response, ResultBlock>;
/**
 * Bridges `component` to neutral tool calls: `manifest()`, `resolveCall` and `invoke`. Checks the
 * component now: a malformed one is a `TypeError`.
 *
 * @example
 * ```ts
 * const tools = igniteTools(counter);
 * const result = await tools.invoke({ name: "increment", input: { by: 2 } });
 * if (result.ok) console.log(result.value.snapshot);
 * ```
 */
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
  checkComponent(component);
  const { timeoutMs, project } = checkOptions(options);
  const tracer = options.tracer && toolTracer(options.tracer);
  const checked = withDefaults(options);
  const warn = onceEach(options.onWarning);

  // Read fresh on every use: availability is a property of the component's state right now. A
  // throw fails closed, and the application hears of it.
  const gate = (name: string) => {
    try {
      return component.canExecute?.(name) === true;
    } catch (error) {
      warn({
        code: "canExecute-threw",
        command: name,
        message: `canExecute(${JSON.stringify(name)}) threw (${describe(error)}): the command is unavailable.`,
      });
      return false;
    }
  };
  const canExecute = () => (typeof component.canExecute === "function" ? gate : undefined);
  // The component's life between calls, when it reports one, and the model's wait on it.
  const live = liveOf(component, warn);
  const waiter = waiterOf(options.wait, live);
  // Where the schema is read: the component's own, with the wait tool declared when offered.
  const source = waiter ? declaring(component, waiter) : component;
  // The declared commands, what is available and the tool definitions, kept between turns and
  // checked against the live schema each time (shell/turn-cache.ts); the gating is audited.
  const turns = turnCache(
    source,
    dialect,
    checked,
    canExecute,
    warn,
    !!options.onWarning,
    offerOf(options.offer),
  );

  // The component is checked now, not at a model's call: a malformed schema is a TypeError.
  turns.declaredIn(schemaAtConstruction(source));

  // A call reads the schema it needs: the wait's declaration is made from every command (a copy
  // of them unless they are frozen), which a call to any other command does not need.
  const schemaFor = (name: unknown) =>
    waiter && name === waiter.name ? source.getSchema() : component.getSchema();
  const manifest = turns.manifest;
  const resolveCall = (name: string, input: unknown) =>
    resolveToolCall(schemaFor(name), { name, input }, canExecute(), checked);

  const step = (
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
    guardOptions?: InvokeOptions,
    span?: TraceHandle,
  ): Soon<Run<S, E>> => {
    span?.phase("validate");
    let schema: AgentSchema;
    try {
      schema = schemaFor(call.name);
    } catch (error) {
      const detail = `getSchema() threw: ${describe(error)}`;
      return { outcome: err(failed(call, "schema", detail, error)) };
    }
    // The input is taken once as plain JSON: what was validated is exactly what runs.
    const route = resolveToolCall(schema, call, canExecute(), checked, true);
    if (!route.ok) return { outcome: route };
    if (signal?.aborted) {
      return { outcome: err(failed(call, "cancelled", CANCELLED, signal.reason)) };
    }
    const { value } = route;
    // The model's wait acts on nothing: no policy, no ledger, no deadline but its own.
    if (live && waiter && value.command === waiter.name) {
      span?.phase("execute");
      return waited(live, waiter, value, call, signal);
    }
    if (options.approve === undefined && guardOptions?.ledger === undefined) {
      span?.phase("execute");
      const outcome = execute(value, call, signal, guardOptions, span);
      return outcome instanceof Promise
        ? outcome.then((settled) => ({ route: value, outcome: settled }))
        : { route: value, outcome };
    }
    span?.phase("approve");
    return guard(options.approve, value, call, schema, guardOptions, signal, async () => {
      span?.phase("execute");
      return execute(value, call, signal, guardOptions, span);
    }).then((guarded) => {
      if (guarded.pending) span?.phase("held");
      return guarded;
    });
  };

  const waited = async (
    live: Live<S, E>,
    waiter: Waiter,
    { command, input }: Route,
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
  ): Promise<Run<S, E>> => {
    const available = () => {
      try {
        return manifest().flatMap((tool) => (tool.name === command ? [] : [tool.name]));
      } catch {
        return []; // a schema that broke is reported by the next call
      }
    };
    const answer = await waiter.wait(input, live, available, signal);
    const route = { command, input };
    if (answer.ok) return { route, outcome: answer };
    const called = call.toolName ?? command;
    const outcome =
      answer.error.stop === "cancelled"
        ? executeFailed(command, "cancelled", WAIT_CANCELLED, { cause: signal?.reason, called })
        : threw(command, answer.error.error, called);
    return { route, outcome: err(outcome) };
  };

  // True only while `component.execute` runs synchronously: an invoke then comes from inside it,
  // and queueing it would wait for the very call that waits for it.
  let executing = false;
  const start = (command: string, input: unknown, context: CallContext) => {
    executing = true;
    try {
      return component.execute(command, input, context);
    } finally {
      executing = false;
    }
  };
  // What happens while a command runs is its call's (`LiveChange.call`), until it is answered.
  const marked = (
    call: NeutralToolCall,
    outcome: Soon<Result<Observation<S, E>, ToolError>>,
  ): Soon<Result<Observation<S, E>, ToolError>> => {
    if (!(outcome instanceof Promise)) {
      live?.leave(call);
      return outcome;
    }
    return outcome.finally(() => live?.leave(call));
  };

  const execute = (
    route: Route,
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
    listeners: CallListeners | undefined,
    span: TraceHandle | undefined,
  ): Soon<Result<Observation<S, E>, ToolError>> => {
    // Marked only while someone observes: a call costs nothing more when nobody does.
    if (!live?.listening()) return executeNow(route, call, signal, listeners, span);
    live.enter(call);
    return marked(call, executeNow(route, call, signal, listeners, span));
  };
  const executeNow = (
    { command, input }: Route,
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
    listeners: CallListeners | undefined,
    span: TraceHandle | undefined,
  ): Soon<Result<Observation<S, E>, ToolError>> => {
    const called = call.toolName ?? command;
    const stoppable = timeoutMs !== undefined || signal !== undefined;
    // Shared and inert when nobody can hear or stop the call: no allocation for a plain call.
    const context = callContext(call, stoppable, listeners, span);
    if (stoppable) return raced(command, input, called, signal, context);
    // Nothing to race: a result given at once is read at once, a promise (or any thenable) is
    // awaited. A throw, sync or async, is the component's. Answered, the context goes quiet.
    let result: unknown;
    try {
      result = start(command, input, context);
      if (!isThenable(result)) {
        context.settle();
        return observe(command, called, result);
      }
    } catch (error) {
      context.settle();
      return err(threw(command, error, called));
    }
    return Promise.resolve(result).then(
      (value) => {
        context.settle();
        return observe<S, E>(command, called, value);
      },
      (error: unknown) => {
        context.settle();
        return err(threw(command, error, called));
      },
    );
  };

  const raced = async (
    command: string,
    input: unknown,
    called: string,
    signal: AbortSignalLike | undefined,
    context: CallContext,
  ): Promise<Result<Observation<S, E>, ToolError>> => {
    try {
      const running = new Promise<unknown>((resolve) => resolve(start(command, input, context)));
      const waited = await withDeadline(running, timeoutMs, signal);
      if (waited.done) return observe(command, called, waited.value);
      // The call is answered now; the command, still running, is told to stop.
      if (waited.stop === "timeout") {
        const detail = `did not finish within ${timeoutMs} ms`;
        context.cancel(timedOut(`${JSON.stringify(called)} ${detail}`));
        return err(executeFailed(command, "timeout", `${detail}. ${MAYBE_RAN}`, { called }));
      }
      context.cancel(signal?.reason);
      const detail = `was aborted while running. ${MAYBE_RAN}`;
      return err(executeFailed(command, "aborted", detail, { cause: signal?.reason, called }));
    } catch (error) {
      return err(threw(command, error, called));
    } finally {
      context.settle();
    }
  };

  // One call at a time, in the order made. Each call waits for the one before it to be
  // answered (or for its own signal); a timed-out call is answered, so the queue never stalls.
  // Every promise in the chain resolves (a run never rejects), so no call can poison the next.
  // A call made while none is waiting or running starts at once, and one its component answers
  // synchronously is answered without waiting a tick: `busy` counts the calls taken and not yet
  // answered.
  let queue: Promise<unknown> = Promise.resolve();
  let busy = 0;
  const run = (raw: NeutralToolCall, invokeOptions?: InvokeOptions): Soon<Run<S, E>> => {
    // The call's fields are read once, here; a call that cannot be read is answered at once.
    const read = readCall(raw);
    if (!read.ok) return { outcome: read };
    const call = read.value;
    if (!tracer) return queued(call, invokeOptions, undefined);
    return traceCall(tracer, call, invokeOptions?.parent, (span) =>
      queued(call, invokeOptions, span),
    );
  };
  const queued = (
    call: NeutralToolCall,
    invokeOptions: InvokeOptions | undefined,
    span: TraceHandle | undefined,
  ): Soon<Run<S, E>> => {
    if (executing) return { outcome: err(failed(call, "reentrant", REENTRANT)) };
    const signal = invokeOptions?.signal;
    // A wait takes no turn in the queue: the calls after it run while it waits.
    if (waiter && call.name === waiter.name) return step(call, signal, invokeOptions, span);
    const previous = queue;
    if (busy++ === 0) {
      const now = started(call, signal, invokeOptions, span);
      if (now instanceof Promise) queue = now;
      return now;
    }
    // Made only for a call that waits: made for every call, it cost 0.4 µs each (bench row 2).
    const start = () => started(call, signal, invokeOptions, span);
    if (signal === undefined) {
      // Nothing can answer this call before its turn: it waits for the one before, then runs.
      const running = previous.then(start);
      queue = running;
      return running;
    }
    // Its signal can: aborted while it waits, it is answered at once, and the next call still
    // waits for the one before.
    const running = withDeadline(previous, undefined, signal).then(start);
    queue = Promise.all([previous, running]);
    return running;
  };
  const started = (
    call: NeutralToolCall,
    signal: AbortSignalLike | undefined,
    invokeOptions: InvokeOptions | undefined,
    span: TraceHandle | undefined,
  ): Soon<Run<S, E>> => {
    let now: Soon<Run<S, E>> | undefined;
    try {
      now = signal?.aborted
        ? { outcome: err(failed(call, "cancelled", CANCELLED, signal.reason)) }
        : step(call, signal, invokeOptions, span);
    } finally {
      // Counted out once answered. A throw here is a tracer's: the call is not answered, but it
      // no longer holds the queue.
      if (!(now instanceof Promise)) busy--;
    }
    return now instanceof Promise
      ? now.finally(() => {
          busy--;
        })
      : now;
  };
  const invoke = async (call: NeutralToolCall, invokeOptions?: InvokeOptions) => {
    const now = run(call, invokeOptions);
    return (now instanceof Promise ? await now : now).outcome;
  };

  const observeChanges = (listener: (change: LiveChange<S, E>) => void) => {
    if (!live) throw new TypeError(`observe ${NOT_LIVE}`);
    return live.observe(listener);
  };
  const until = (match: (change: LiveChange<S, E>) => boolean, untilOptions?: UntilOptions) =>
    live ? live.until(match, untilOptions) : Promise.reject(new TypeError(`until ${NOT_LIVE}`));

  const bridge: ToolBridge<S, E> = {
    manifest,
    resolveCall,
    invoke,
    observe: observeChanges,
    until,
  };
  if (!dialect) return bridge;

  // Calls are read through the names of every declared command, not only the available ones, so
  // a call to a command that became unavailable maps back to its name and is answered
  // `Unavailable`.
  const parseToolCalls = turns.parseToolCalls;
  const toToolResult = (call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>) =>
    dialect.toToolResult(
      call,
      project && result.ok ? projectedAnswer(project, call, result.value) : result,
    );
  // A wait's answer is projected like any observation, and keeps what it says of the wait.
  const projectedAnswer = (
    project: (observation: Observation<S, E>, call: NeutralToolCall) => Observation,
    call: NeutralToolCall,
    value: Observation<S, E>,
  ): Result<Observation, ToolError> => {
    const shown = projected(project, call, value);
    if (!shown.ok || !waiter || call.name !== waiter.name || !isWaitAnswer(value)) return shown;
    return ok({ waited: value.waited, ...shown.value, available: value.available });
  };
  const answerToolCall = async (call: NeutralToolCall, invokeOptions?: InvokeOptions) => {
    const now = run(call, invokeOptions);
    const { route, outcome, pending } = now instanceof Promise ? await now : now;
    const block = toToolResult(call, outcome);
    return pending ? { call, route, outcome, block, pending } : { call, route, outcome, block };
  };
  // Each call is taken in the order parsed, so the calls run in that order.
  const answerToolCalls = (response: Response, invokeOptions?: InvokeOptions) =>
    Promise.all(parseToolCalls(response).map((call) => answerToolCall(call, invokeOptions)));
  const toToolDefs = turns.toToolDefs;
  const withDialect: DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> = {
    ...bridge,
    toToolDefs,
    parseToolCalls,
    toToolResult,
    answerToolCalls,
    answerToolCall,
    handleToolCalls: async (response, invokeOptions) =>
      (await answerToolCalls(response, invokeOptions)).map((answer) => answer.block),
  };
  if (!("appendTurn" in dialect) || typeof dialect.appendTurn !== "function") return withDialect;
  const { appendTurn, appendNote } = dialect;
  const loop = { ...withDialect, appendTurn: appendTurn.bind(dialect) };
  return typeof appendNote === "function"
    ? { ...loop, appendNote: appendNote.bind(dialect) }
    : loop;
}

const CANCELLED = "was aborted before it ran; nothing was executed";
const WAIT_CANCELLED = "was cancelled while it waited; waiting changes nothing";
const NOT_LIVE =
  "needs a component with subscribe() and getSnapshot(): it cannot see the state without them";
const MAYBE_RAN = "It may still take effect: check the state before calling it again.";
const REENTRANT =
  "was called from inside execute() on the same bridge and would wait for itself; nothing ran. " +
  "This is a bug in the application, not in your call.";

/** The reason a timed-out call's signal aborts with: a `TimeoutError`, as `AbortSignal.timeout`'s. */
function timedOut(message: string): Error {
  const error = new Error(message);
  error.name = "TimeoutError";
  return error;
}

/** `component`, with the wait tool declared among its commands: where the bridge reads schemas. */
function declaring<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  waiter: Waiter,
): AgentComponent<S, E> {
  const source: AgentComponent<S, E> = {
    getSchema: () => waiter.declare(component.getSchema()),
    execute: (command, input, context) => component.execute(command, input, context),
  };
  const { canExecute } = component;
  if (typeof canExecute === "function") {
    source.canExecute = (command) => canExecute.call(component, command);
  }
  return source;
}

/** The `offer` option, checked: anything else is the application's mistake, said now. */
function offerOf(offer: unknown): ToolOffer {
  if (offer === undefined || offer === "available") return "available";
  if (offer === "declared") return offer;
  throw new TypeError(`igniteTools: offer must be "available" or "declared", not ${String(offer)}`);
}

/** The component's schema, read to check the component; a throw is the application's bug. */
function schemaAtConstruction(component: AgentComponent<unknown, RuntimeEvent>): AgentSchema {
  try {
    return component.getSchema();
  } catch (error) {
    throw new TypeError(`igniteTools: getSchema() threw: ${describe(error)}`, { cause: error });
  }
}

/**
 * An `ExecuteFailed` for a call that was not resolved: its name is whatever the call said, so it
 * is clipped like any name that was never checked.
 */
function failed(
  call: NeutralToolCall,
  reason: ExecuteFailedReason,
  detail: string,
  cause?: unknown,
): ToolError {
  const name = typeof call.name === "string" ? call.name : "(unnamed)";
  return executeFailed(name, reason, detail, { cause, called: clip(call.toolName ?? name) });
}

/** What `project` made of an observation, checked: a bad projection is still an answer. */
function projected<S, E extends RuntimeEvent>(
  project: (observation: Observation<S, E>, call: NeutralToolCall) => Observation,
  call: NeutralToolCall,
  observation: Observation<S, E>,
): Result<Observation, ToolError> {
  let cause: unknown;
  let read: Result<Observation, string>;
  try {
    read = readObservation(project(observation, call), "project()", "snapshot");
  } catch (error) {
    read = err(describe(error));
    cause = error;
  }
  if (read.ok) return read;
  const detail = `ran, but its result could not be prepared for you (${read.error}). Do not call it again to retry.`;
  return err(executeFailed(call.name, "projection", detail, { cause, called: call.toolName }));
}

/** `execute()`'s result as an observation; a missing `events` is none, a missing `state` a bug. */
function observe<S, E extends RuntimeEvent>(
  command: string,
  called: string,
  result: unknown,
): Result<Observation<S, E>, ToolError> {
  let read: Result<Observation, string>;
  try {
    read = readObservation(result, "execute()", "state");
  } catch (error) {
    read = err(`execute() returned a result that could not be read (${describe(error)})`);
  }
  // Typed by the component's own `execute`; at runtime only its shape could be checked.
  if (read.ok) return read as Result<Observation<S, E>, never>;
  return err(executeFailed(command, "malformed-result", read.error, { cause: result, called }));
}

/**
 * `value` — what `execute` or `project` returned, whatever its type says — read as
 * `{ [key], events? }`: a missing `events` is none, a missing `state` is an error (a `snapshot`
 * may be left out). Throws what a getter or a proxy trap throws.
 */
function readObservation(
  value: unknown,
  who: string,
  key: "state" | "snapshot",
): Result<Observation, string> {
  if (typeof value !== "object" || value === null) {
    return err(`${who} returned ${String(value)} instead of { ${key}, events }`);
  }
  if (key === "state" && !("state" in value)) {
    return err(`${who} returned an object without \`state\` instead of { state, events }`);
  }
  const read = value as Record<string, unknown>;
  const events = read.events;
  if (events !== undefined && !Array.isArray(events)) {
    return err(`${who} returned \`events\` that is not an array`);
  }
  return ok({ snapshot: read[key], events: events ?? [] });
}
