/**
 * `igniteTools`: a component bridged to tool calls. It builds one call pipeline — read, queued,
 * resolved against the live schema and availability, routed, executed with its context, answered
 * — and lets the layers it is given (bridge/pipeline.ts) join the stages they need; it names no
 * capability itself.
 */
import { describe } from "../core/errors.js";
import { readCall, resolveToolCall } from "../core/resolve.js";
import { err, type Result } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  AgentComponent,
  AgentSchema,
  LoopDialect,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
  ToolDialect,
  ToolError,
} from "../core/types.js";
import { checkCallOptions } from "./call-options.js";
import { checkComponent, checkDialect, checkOptions, gateOf, onceEach } from "./checks.js";
import { executorOf } from "./execute.js";
import { noParts, projected } from "./observation.js";
import { type BridgeParts, type Pipeline, type Run, register } from "./pipeline.js";
import { CANCELLED, callQueue, failed } from "./queue.js";
import { executed } from "./route.js";
import type { Soon } from "./soon.js";
import { turnCache } from "./turn-cache.js";
import type {
  DialectToolBridge,
  IgniteToolsOptions,
  InvokeOptions,
  LoopToolBridge,
  ToolBridge,
} from "./types.js";

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
  checkDialect(dialect);
  const { timeoutMs, project, offer, layers, checked } = checkOptions(options);
  const warn = onceEach(options.onWarning);
  const canExecute = gateOf(component, warn);
  const executor = executorOf(component, timeoutMs, () => pipeline.parts);

  // The stages every call goes through; the layers given wrap the ones they join.
  const pipeline: Pipeline<S, E> = {
    call: (call, invokeOptions, span) => queued(call, invokeOptions, span),
    declare: (schema) => schema,
    beside: () => false,
    offer: (offered) => offered,
    route: (route, call, _schema, invokeOptions, span) =>
      executed(pipeline, route, call, invokeOptions, span),
    execute: executor.execute,
    answer: project && ((call, value) => projected(project, call, value, pipeline.parts)),
    parts: noParts,
  };
  const parts: BridgeParts<S, E> = {
    component,
    pipeline,
    warn,
    manifest: () => turns.manifest(),
    declared: () => turns.declared(),
    listed: () => turns.listed(),
    dialect,
  };
  for (const layer of layers) layer.install(parts);

  // Where the schema is offered from: the component's own, with what the layers declare. A call
  // to one of the component's commands reads the component's own: a layer's declaration is made
  // from every command (a copy of them unless they are frozen), which such a call does not need.
  const source: AgentComponent<S, E> = {
    getSchema: () => pipeline.declare(component.getSchema()),
    execute: (command, input, context) => component.execute(command, input, context),
  };
  const { canExecute: asked } = component;
  if (typeof asked === "function") source.canExecute = (command) => asked.call(component, command);
  const schemaFor = (name: unknown) =>
    pipeline.beside(name) ? source.getSchema() : component.getSchema();
  // The declared commands, what is available and the tool definitions, kept between turns and
  // checked against the live schema each time (turn-cache.ts); the gating is audited.
  const turns = turnCache(
    source,
    dialect,
    checked,
    canExecute,
    warn,
    !!options.onWarning,
    offer,
    component,
    (offered, all) => pipeline.offer(offered, all),
  );
  // The component is checked now, not at a model's call: a malformed schema is a TypeError.
  turns.declaredIn(schemaAtConstruction(source));

  const manifest = turns.manifest;
  const resolveCall = (name: string, input: unknown) =>
    resolveToolCall(schemaFor(name), { name, input }, canExecute(), checked);

  // A call whose turn came: validated and gated against the schema of now, then routed.
  const step = (
    call: NeutralToolCall,
    invokeOptions: InvokeOptions | undefined,
    span: TraceHandle | undefined,
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
    const signal = invokeOptions?.signal;
    if (signal?.aborted) {
      return { outcome: err(failed(call, "cancelled", CANCELLED, signal.reason)) };
    }
    return pipeline.route(route.value, call, schema, invokeOptions, span);
  };
  const queued = callQueue(step, pipeline, executor.executing);
  const run = (raw: NeutralToolCall, invokeOptions?: InvokeOptions): Soon<Run<S, E>> => {
    // The call's fields are read once, here; a call that cannot be read is answered at once.
    const read = readCall(raw);
    if (!read.ok) return { outcome: read };
    return pipeline.call(read.value, invokeOptions);
  };
  const invoke = async (call: NeutralToolCall, invokeOptions?: InvokeOptions) => {
    checkCallOptions("invoke", invokeOptions);
    const now = run(call, invokeOptions);
    return (now instanceof Promise ? await now : now).outcome;
  };

  const bridge: ToolBridge<S, E> = { manifest, resolveCall, invoke };
  if (!dialect) return registered(bridge, parts);

  // Calls are read through the names of every declared command, not only the available ones, so
  // a call to a command that became unavailable maps back to its name and is answered
  // `Unavailable`.
  const parseToolCalls = turns.parseToolCalls;
  const toToolResult = (call: NeutralToolCall, result: Result<Observation<S, E>, ToolError>) => {
    const { answer } = pipeline;
    return dialect.toToolResult(call, answer && result.ok ? answer(call, result.value) : result);
  };
  // One call answered, its options already checked by the function the caller called.
  const answer = async (call: NeutralToolCall, invokeOptions: InvokeOptions | undefined) => {
    const now = run(call, invokeOptions);
    const { route, outcome, pending } = now instanceof Promise ? await now : now;
    const block = toToolResult(call, outcome);
    return pending ? { call, route, outcome, block, pending } : { call, route, outcome, block };
  };
  const answerToolCall = async (call: NeutralToolCall, invokeOptions?: InvokeOptions) => {
    checkCallOptions("answerToolCall", invokeOptions);
    return answer(call, invokeOptions);
  };
  // Each call is taken in the order parsed, so the calls run in that order; the options are
  // checked once for the whole response. Async, so that a response that is not one rejects (as
  // the calls' answers do), never throws.
  const answerToolCalls = async (response: Response, invokeOptions?: InvokeOptions) => {
    checkCallOptions("answerToolCalls", invokeOptions);
    return Promise.all(parseToolCalls(response).map((call) => answer(call, invokeOptions)));
  };
  const withDialect: DialectToolBridge<S, E, ToolDefs, Response, ResultBlock> = {
    ...bridge,
    toToolDefs: turns.toToolDefs,
    parseToolCalls,
    toToolResult,
    answerToolCalls,
    answerToolCall,
    handleToolCalls: async (response, invokeOptions) =>
      (await answerToolCalls(response, invokeOptions)).map((answer) => answer.block),
  };
  if (!("appendTurn" in dialect) || typeof dialect.appendTurn !== "function") {
    return registered(withDialect, parts);
  }
  const { appendTurn, appendNote } = dialect;
  const loop = { ...withDialect, appendTurn: appendTurn.bind(dialect) };
  return registered(
    typeof appendNote === "function" ? { ...loop, appendNote: appendNote.bind(dialect) } : loop,
    parts,
  );
}

/** `bridge`, known from now on as made of `parts` (by observe, until and the hosts). */
function registered<B extends object, S, E extends RuntimeEvent>(
  bridge: B,
  parts: BridgeParts<S, E>,
): B {
  register(bridge, parts);
  return bridge;
}

/** The component's schema, read to check the component; a throw is the application's bug. */
function schemaAtConstruction(component: AgentComponent<unknown, RuntimeEvent>): AgentSchema {
  try {
    return component.getSchema();
  } catch (error) {
    throw new TypeError(`igniteTools: getSchema() threw: ${describe(error)}`, { cause: error });
  }
}
