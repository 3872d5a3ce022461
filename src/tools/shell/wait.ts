/**
 * The model's side of live state: one more tool, declared beside the component's commands, with
 * which the model waits — without acting — for an event the component declares, for a command to
 * become available, or for any change, up to a bound the application sets. Declared as a command,
 * it reaches every dialect, the loop, the adapters and the hosts as every command does; the
 * bridge runs it beside the queue, so a wait never holds up another call.
 */
import { isRecord } from "../core/json.js";
import { err, ok, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
  AgentSchema,
  CommandSchema,
  JsonSchema,
  LiveChange,
  Observation,
  RuntimeEvent,
} from "../core/types.js";
import { misuse } from "./checks.js";
import type { Live } from "./live.js";

/**
 * The `wait` option of `igniteTools`: offers the model a tool with which it waits for something to
 * happen in the component.
 *
 * @example
 * ```ts
 * const tools = igniteTools(kitchen, openai, { wait: { maxMs: 60_000 } });
 * ```
 */
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

/** The wait, checked and bound to one bridge. */
export interface Waiter {
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

/** Why a wait gave no answer: cancelled, or the component failed while it was watched. */
export type WaitStopped =
  | { readonly stop: "cancelled" }
  | { readonly stop: "threw"; readonly error: unknown };

/** The wait tool's name when `wait.name` is not given. */
export const DEFAULT_WAIT_NAME = "waitFor";

/** The `wait` option, checked; `undefined` when the bridge offers no wait. */
export function waiterOf(options: WaitOptions | undefined, live: unknown): Waiter | undefined {
  if (options === undefined) return undefined;
  if (!isRecord(options)) misuse("wait must be an object: { maxMs, name? }");
  const { maxMs, name = DEFAULT_WAIT_NAME } = options;
  if (!(typeof maxMs === "number" && Number.isFinite(maxMs) && maxMs > 0)) {
    misuse(`wait.maxMs must be a finite number of milliseconds > 0, not ${String(maxMs)}`);
  }
  if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(name)) {
    misuse(`wait.name must be a tool name (letters, digits, _ and -), not ${String(name)}`);
  }
  if (live === undefined) {
    misuse(
      "wait needs a component with subscribe() and getSnapshot(): without them nothing can be waited for",
    );
  }
  return waiter(maxMs, name);
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
          `the wait tool is named ${JSON.stringify(name)}, as a command is: give igniteTools a wait.name of its own`,
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
