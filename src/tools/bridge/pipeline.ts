/**
 * The call pipeline and the port a capability plugs into. A call goes read → queued → resolved
 * (validated and gated) → routed → executed → answered; a layer (approval and exactly-once, the
 * model's wait, live state, …) joins it by wrapping the stages it needs when the bridge is built,
 * so a bridge carries only the code of the layers it was given.
 */

import type { PendingCall } from "../core/approval.js";
import type { Result } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  AgentComponent,
  AgentSchema,
  NeutralManifest,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolDialect,
  ToolError,
  WarningSink,
} from "../core/types.js";
import type { InvokeOptions } from "./call-options.js";
import type { PartsReader } from "./observation.js";
import type { Soon } from "./soon.js";

/** What one run of a call produced: its route, when `execute` was called, and its outcome. */
export interface Run<S, E extends RuntimeEvent> {
  route?: Route | undefined;
  outcome: Result<Observation<S, E>, ToolError>;
  /** Set when a person must decide first: the call did not run. */
  pending?: PendingCall;
}

/**
 * The route stage: what a resolved call comes to. The bridge's own runs it (`execute`); a layer
 * wraps it to answer some calls itself (the wait its own) or to guard them (approval).
 */
export type RouteStage<S, E extends RuntimeEvent> = (
  route: Route,
  call: NeutralToolCall,
  schema: AgentSchema,
  options: InvokeOptions | undefined,
  span: TraceHandle | undefined,
) => Soon<Run<S, E>>;

/**
 * The execute stage: the component's `execute` with the call's context and deadline, its result
 * read as an observation. Live state wraps it to mark the call that is running.
 */
export type ExecuteStage<S, E extends RuntimeEvent> = (
  route: Route,
  call: NeutralToolCall,
  options: InvokeOptions | undefined,
  span: TraceHandle | undefined,
) => Soon<Result<Observation<S, E>, ToolError>>;

/** The answer stage: what the model reads of a successful call (`project`, checked). */
export type AnswerStage<S, E extends RuntimeEvent> = (
  call: NeutralToolCall,
  observation: Observation<S, E>,
) => Result<Observation, ToolError>;

/**
 * The call stage: a call read, from being taken to being answered (queued, resolved, routed).
 * Tracing wraps it to report the call as a unit, whose handle the inner stages hear.
 */
export type CallStage<S, E extends RuntimeEvent> = (
  call: NeutralToolCall,
  options: InvokeOptions | undefined,
  span?: TraceHandle,
) => Soon<Run<S, E>>;

/** The named stages of one bridge, each read at every call: a layer replaces one with a wrapper. */
export interface Pipeline<S, E extends RuntimeEvent> {
  call: CallStage<S, E>;
  /** The schema the commands are offered from: the component's, with what layers declare. */
  declare: (schema: AgentSchema) => AgentSchema;
  /**
   * Whether a call is one of a layer's own tools (the wait): resolved against the declared schema,
   * run beside the queue rather than in it, and no command of the component's.
   */
  beside: (name: unknown) => boolean;
  /**
   * The commands a request is offered, from those the bridge's `offer` gives (`offered`) among
   * every declared one: all of them, unless a layer loads them on demand (the search). Returns
   * the same value while nothing it reads changed, so the tool definitions stay the same value.
   */
  offer: (offered: NeutralManifest, declared: NeutralManifest) => NeutralManifest;
  route: RouteStage<S, E>;
  execute: ExecuteStage<S, E>;
  /** Absent when the model reads every observation as it is. */
  answer: AnswerStage<S, E> | undefined;
  /**
   * How a result's content parts are read: refused unless a layer (`contentParts()`) reads them,
   * so that a bridge never sends what no layer checked.
   */
  parts: PartsReader;
}

/** What a layer is given of the bridge it joins. */
export interface BridgeParts<S, E extends RuntimeEvent> {
  readonly component: AgentComponent<S, E>;
  readonly pipeline: Pipeline<S, E>;
  /** Reports to the application's `onWarning`, each distinct warning once. */
  readonly warn: WarningSink;
  /** The commands available now (throws the schema's `TypeError` when it broke). */
  manifest(): NeutralManifest;
  /**
   * Every declared command, available or not, with what the layers declare: the same value while
   * the declarations are (throws the schema's `TypeError` when it broke).
   */
  declared(): NeutralManifest;
  /**
   * The commands the bridge's `offer` gives, before the offer stage chooses among them (the
   * search's commands on demand): what a framework's fixed tool list holds.
   */
  listed(): NeutralManifest;
  /**
   * The bridge's dialect, for a layer that adapts to its provider (what content it carries,
   * whether its tool list is fixed), if it has one.
   */
  readonly dialect:
    | Pick<ToolDialect<unknown, unknown, unknown>, "carries" | "refuses" | "fixedList">
    | undefined;
}

/**
 * A capability a bridge is built with: the value of its option (`wait: waitTool({ maxMs })`,
 * `approve: approval(policy)`) is the layer, and importing its function is what brings its code
 * into a bundle.
 */
export interface Layer<Name extends string = string> {
  /** Which capability this is: the option that takes it says which name it wants. */
  readonly layer: Name;
  /**
   * Joins one bridge's pipeline, once, while `igniteTools` builds it; throws a `TypeError` when
   * the component cannot have it (the wait on a component without live state).
   */
  install<S, E extends RuntimeEvent>(parts: BridgeParts<S, E>): void;
}

/** Whether `value` is a layer: what `igniteTools` installs of its options. */
export function isLayer(value: unknown): value is Layer {
  return (
    typeof value === "object" &&
    value !== null &&
    "layer" in value &&
    typeof value.layer === "string" &&
    "install" in value &&
    typeof value.install === "function"
  );
}

// Every bridge igniteTools made, and its parts: what the layers' own functions (observe, until,
// the hosts) reach a bridge through. Weak: a bridge nobody holds takes its parts with it.
const made = new WeakMap<object, BridgeParts<never, never>>();

/** Records `bridge` as made of `parts`. */
export function register<S, E extends RuntimeEvent>(
  bridge: object,
  parts: BridgeParts<S, E>,
): void {
  // Stored without its types (a WeakMap holds one type); `partsOf` gives them back.
  made.set(bridge, parts as unknown as BridgeParts<never, never>);
}

/**
 * The parts of a bridge `igniteTools` made, or a `TypeError` (thrown by `who`) for anything else:
 * a copy of a bridge (`{ ...tools }`) is not one.
 */
export function partsOf<S, E extends RuntimeEvent>(bridge: object, who: string): BridgeParts<S, E> {
  const parts = made.get(bridge);
  if (parts === undefined) {
    throw new TypeError(`${who}: not a bridge made by igniteTools (a copy of one is not)`);
  }
  // Registered by igniteTools with the bridge's own S and E.
  return parts as unknown as BridgeParts<S, E>;
}
