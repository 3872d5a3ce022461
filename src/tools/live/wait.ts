/**
 * The model's side of live state, the wait layer `waitTool({ maxMs })`: one more tool, declared
 * beside the component's commands, with which the model waits — without acting — for an event the
 * component declares, for a command to become available, or for any change, up to a bound the
 * application sets. Declared as a command, it reaches every dialect, the loop, the adapters and
 * the hosts as every command does; it runs beside the queue, so a wait never holds up another
 * call, and no policy, ledger or deadline but its own applies to it.
 */

import { misuse } from "../bridge/checks.js";
import type { BridgeParts, Layer, Run } from "../bridge/pipeline.js";
import { anObject, check, type Expect, MAX_TIMER_MS, wholeNumber } from "../core/checks.js";
import { executeFailed, threw } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { err, ok, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
  AgentSchema,
  CommandSchema,
  JsonSchema,
  LiveChange,
  NeutralToolCall,
  Observation,
  RuntimeEvent,
} from "../core/types.js";
import { availableNow } from "./available.js";
import { type Live, liveOf } from "./live.js";

/** Options of `waitTool`. */
export interface WaitOptions {
  /**
   * The longest one wait may last, in milliseconds. The model may ask for less (`seconds`), never
   * for more.
   */
  maxMs: number;
  /**
   * The tool's name; choose another when a command already has this one.
   *
   * @default "waitFor"
   */
  name?: string;
}

/**
 * What a wait answers with: the snapshot and events of an `Observation` (the event it waited for,
 * when one came), what happened in words for the model, and the commands available now.
 */
export interface WaitObservation<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends Observation<S, E> {
  /**
   * What ended the wait: `The event "preheated" happened.`, `"bake" is available now.`, `The
   * state changed.`, or `Nothing you waited for happened within 30 s (…)`.
   */
  readonly waited: string;
  /** The commands available when the wait ended (the wait tool itself left out). */
  readonly available: string[];
}

/** Whether `value` is a wait's answer. */
export function isWaitAnswer<S, E extends RuntimeEvent>(
  value: Observation<S, E>,
): value is WaitObservation<S, E> {
  return "waited" in value && typeof value.waited === "string" && "available" in value;
}

/** The input of the wait tool, as its schema admits it. */
interface WaitInput {
  event?: string;
  available?: string;
  seconds?: number;
}

/** The wait layer: what `wait` takes. */
export interface WaitTool extends Layer<"wait"> {
  /** The tool's name. */
  readonly name: string;
  /** The longest one wait may last, in milliseconds. */
  readonly maxMs: number;
}

/** Why a wait gave no answer: cancelled, or the component failed while it was watched. */
type WaitStopped =
  | { readonly stop: "cancelled" }
  | { readonly stop: "threw"; readonly error: unknown };

/** The wait tool's name when `wait.name` is not given. */
export const DEFAULT_WAIT_NAME = "waitFor";

/**
 * The wait layer for `igniteTools`' `wait` option: the model is offered one more tool (`waitFor`,
 * or `name`) with which it waits, without acting, for one of the events the component declares
 * (`getSchema().events`), for a gated command to become available, or for any change — at most
 * `maxMs`. It answers with a `WaitObservation`: what happened, the snapshot and the commands
 * available now, or that nothing did in time. A wait runs beside the other calls (it holds none
 * up); the call's signal cancels it. The component needs `subscribe` and `getSnapshot` (a
 * `TypeError` when the bridge is built otherwise). See docs/live-state.md.
 *
 * @example
 * ```ts
 * const tools = igniteTools(kitchen, openai, { wait: waitTool({ maxMs: 60_000 }) });
 * ```
 */
export function waitTool(options: WaitOptions): WaitTool {
  check("waitTool", "options", options satisfies unknown, anObject);
  const { maxMs, name = DEFAULT_WAIT_NAME } = options;
  check("waitTool", "maxMs", maxMs, wholeNumber(1, MAX_TIMER_MS));
  check("waitTool", "name", name, TOOL_NAME);
  return { layer: "wait", name, maxMs, install: (parts) => install(parts, waiter(maxMs, name)) };
}

/** Joins the wait to one bridge: declared, beside the queue, answered, its answer kept whole. */
function install<S, E extends RuntimeEvent>(parts: BridgeParts<S, E>, waiter: Waiter): void {
  const live = liveOf(parts);
  if (live === undefined) {
    misuse(
      "wait needs a component with subscribe() and getSnapshot(): without them nothing can be waited for",
    );
  }
  const { pipeline } = parts;
  const { name } = waiter;
  const { declare, beside, route, answer } = pipeline;
  pipeline.declare = (schema) => waiter.declare(declare(schema));
  pipeline.beside = (called) => called === name || beside(called);
  pipeline.route = (resolved, call, schema, options, span) => {
    if (resolved.command !== name) return route(resolved, call, schema, options, span);
    span?.phase("execute");
    return waited(waiter, live, parts, resolved.input, call, options?.signal);
  };
  // A wait's answer is projected like any observation, and keeps what it says of the wait.
  if (answer) {
    pipeline.answer = (call, value) => {
      const shown = answer(call, value);
      if (!shown.ok || call.name !== name || !isWaitAnswer(value)) return shown;
      return ok({ waited: value.waited, ...shown.value, available: value.available });
    };
  }
}

/** One wait, answered as a call is: its route, and its outcome. */
async function waited<S, E extends RuntimeEvent>(
  waiter: Waiter,
  live: Live<S, E>,
  parts: BridgeParts<S, E>,
  input: unknown,
  call: NeutralToolCall,
  signal: AbortSignalLike | undefined,
): Promise<Run<S, E>> {
  const { name: command } = waiter;
  const available = () => availableNow(parts) ?? [];
  const answer = await waiter.wait(input, live, available, signal);
  const route = { command, input };
  if (answer.ok) return { route, outcome: answer };
  const called = call.toolName ?? command;
  const outcome =
    answer.error.stop === "cancelled"
      ? executeFailed(command, "cancelled", CANCELLED, { cause: signal?.reason, called })
      : threw(command, answer.error.error, called);
  return { route, outcome: err(outcome) };
}

const CANCELLED = "was cancelled while it waited; waiting changes nothing";

/** The wait, bound to its bound and name. */
interface Waiter {
  readonly name: string;
  /** `schema` with the wait tool declared among its commands (a malformed schema as it is). */
  declare(schema: AgentSchema): AgentSchema;
  /** Waits as `input` asks, unless `signal` aborts; resolves with the answer. Never rejects. */
  wait<S, E extends RuntimeEvent>(
    input: unknown,
    live: Live<S, E>,
    available: () => string[],
    signal: AbortSignalLike | undefined,
  ): Promise<Result<WaitObservation<S, E>, WaitStopped>>;
}

function waiter(maxMs: number, name: string): Waiter {
  // The declaration is kept while the events and gated commands it lists are the same, and the
  // schema while its commands object is frozen and the same: an unchanged turn costs nothing.
  let declared: { key: string; command: CommandSchema } | undefined;
  let last: { from: AgentSchema; commands: unknown; events: unknown; to: AgentSchema } | undefined;

  const declarationFor = (events: string[], gated: string[]): CommandSchema => {
    const key = JSON.stringify([events, gated]);
    if (declared?.key === key) return declared.command;
    const command = waitDeclaration(events, gated, maxMs / 1000);
    declared = { key, command };
    return command;
  };

  return {
    name,
    declare(schema) {
      if (!isRecord(schema) || !isRecord(schema.commands)) return schema; // the core reports it
      const { commands, events } = schema;
      if (
        last?.from === schema &&
        last.commands === commands &&
        last.events === events &&
        Object.isFrozen(commands)
      ) {
        return last.to;
      }
      if (Object.hasOwn(commands, name)) {
        throw new TypeError(
          `the wait tool is named ${JSON.stringify(name)}, as a command is: give waitTool({ name }) a name of its own`,
        );
      }
      const gated = Object.keys(commands).filter((key) => {
        const command = commands[key];
        return isRecord(command) && command.gated === true;
      });
      const eventNames = Array.isArray(events)
        ? events.filter((event): event is string => typeof event === "string")
        : [];
      const withWait = Object.freeze({ ...commands, [name]: declarationFor(eventNames, gated) });
      const to: AgentSchema = { ...schema, commands: withWait };
      last = { from: schema, commands, events, to };
      return to;
    },

    async wait<S, E extends RuntimeEvent>(
      input: unknown,
      live: Live<S, E>,
      available: () => string[],
      signal: AbortSignalLike | undefined,
    ) {
      const { event, available: command, seconds } = input as WaitInput; // validated by its schema
      const ms = Math.min(maxMs, seconds === undefined ? maxMs : seconds * 1000);
      let start: S;
      try {
        start = live.snapshot();
      } catch (error) {
        return err({ stop: "threw", error });
      }
      const matches = (change: LiveChange<S, E>) => {
        if (event !== undefined && change.event?.type === event) return true;
        if (command !== undefined) return available().includes(command);
        // Waiting for nothing in particular: anything that happens.
        return (
          event === undefined && (change.event !== undefined || !Object.is(change.snapshot, start))
        );
      };
      let change: LiveChange<S, E> | undefined;
      try {
        change = await live.until(matches, { timeoutMs: ms, ...(signal ? { signal } : {}) });
      } catch (error) {
        if (error instanceof Error && error.name === "AbortError")
          return err({ stop: "cancelled" });
        if (!(error instanceof Error && error.name === "TimeoutError")) {
          return err({ stop: "threw", error });
        }
      }
      let snapshot: S;
      try {
        snapshot = live.snapshot();
      } catch (error) {
        return err({ stop: "threw", error });
      }
      const events = change?.event === undefined ? [] : [change.event];
      const waited =
        change === undefined
          ? `Nothing you waited for happened within ${ms / 1000} s (you waited for ${wanted(event, command)}).`
          : happened(change, event, command);
      return ok({ waited, snapshot, events, available: available() });
    },
  };
}

/** What the model waited for, in words. */
function wanted(event: string | undefined, command: string | undefined): string {
  const parts: string[] = [];
  if (event !== undefined) parts.push(`the event ${JSON.stringify(event)}`);
  if (command !== undefined) parts.push(`${JSON.stringify(command)} to become available`);
  return parts.length === 0 ? "any change" : parts.join(" or ");
}

/** What ended a wait, in words. */
function happened(
  change: LiveChange<unknown, RuntimeEvent>,
  event: string | undefined,
  command: string | undefined,
): string {
  const type = change.event?.type;
  if (event !== undefined && type === event) return `The event ${JSON.stringify(type)} happened.`;
  if (command !== undefined) return `${JSON.stringify(command)} is available now.`;
  return type === undefined ? "The state changed." : `The event ${JSON.stringify(type)} happened.`;
}

/** The wait tool's declaration: what it waits for is limited to what the component declares. */
function waitDeclaration(events: string[], gated: string[], maxSeconds: number): CommandSchema {
  const properties: Record<string, JsonSchema> = {};
  if (events.length > 0) {
    properties.event = { type: "string", enum: events, description: "Wait for this event." };
  }
  if (gated.length > 0) {
    properties.available = {
      type: "string",
      enum: gated,
      description: "Wait until this command is available.",
    };
  }
  properties.seconds = {
    type: "number",
    minimum: 0,
    maximum: maxSeconds,
    description: `How long to wait at most, in seconds (the default and the most: ${maxSeconds}).`,
  };
  return {
    title: "Wait",
    description:
      "Wait, without acting, until something happens: the event you name, or the command you name becoming available, whichever comes first; name neither to wait for any change. Answers with what happened, the state now and the tools available now, or says that nothing happened in time. Your other tool calls still run while it waits.",
    input: { type: "object", properties, additionalProperties: false },
    readOnly: true,
    idempotent: true,
  };
}

/** A name every provider takes for a tool. */
const TOOL_NAME: Expect<string> = {
  allowed: "a tool name (a letter or _, then letters, digits, _ and -, at most 64)",
  test: (value): value is string =>
    typeof value === "string" && /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(value),
};
