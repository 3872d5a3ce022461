/**
 * An XState v5 actor as an agent component: the events you declare become commands, the machine's
 * own transitions decide availability, and what the actor `emit()`s while it handles a command
 * comes back as that command's events.
 */
import type { AgentComponent, AgentSchema, CommandSchema, JsonSchema } from "ignite-element/tools";
import type { EventObject, Observer, SnapshotStatus, Subscription } from "xstate";

/** An object-rooted JSON Schema: the fields of an event besides its `type`. */
export type EventPayloadSchema = JsonSchema & { type: "object" };

/** How one event type is offered as a command. */
export interface EventCommand {
  description?: string;
  /**
   * The event's payload: a schema for the event's fields besides `type`. The validated input is
   * spread into the event, so `{ seconds: 30 }` for `seek` is sent as `{ type: "seek", seconds: 30 }`.
   * Without `input` the event is sent as `{ type }` alone.
   */
  input?: EventPayloadSchema;
  /**
   * Offer the command only when the current state accepts the event. The check is
   * `snapshot.can({ type })`, *without* the payload (there is none before the model calls), so
   * gate only events whose guards do not read the payload: a guard such as
   * `event.seconds <= context.duration` sees `undefined` and the command would never be offered.
   * Leave such events ungated; a payload the guard rejects is still refused when it is sent.
   */
  gated?: boolean;
}

/**
 * The events of a machine offered as commands, keyed by event type. XState types an event's
 * payload in TypeScript only — there is no runtime description of it to introspect (`setup`'s
 * `schemas` is opaque metadata) — so each payload's JSON Schema is declared here, by hand, next
 * to the machine. Events left out are not offered at all (internal events stay internal).
 */
export type EventCommands<TEvent extends EventObject> = {
  readonly [K in TEvent["type"]]?: EventCommand;
};

/** The part of a machine snapshot the wrapper reads. */
export interface MachineSnapshotLike<TEvent extends EventObject> {
  status: SnapshotStatus;
  value: unknown;
  context: unknown;
  can(event: TEvent): boolean;
}

/**
 * The part of an XState v5 `Actor` the wrapper uses; `createActor(machine)` is one. Structural, so
 * the machine's event, emitted-event, state-value and context types are inferred from the actor
 * itself (XState's own `SnapshotFrom<TMachine>` stays unresolved inside a generic function).
 */
export interface MachineActorLike<
  TSnapshot extends MachineSnapshotLike<TEvent>,
  TEvent extends EventObject,
  TEmitted extends EventObject,
> {
  getSnapshot(): TSnapshot;
  send(event: TEvent): void;
  on(type: "*", handler: (emitted: TEmitted) => void): Subscription;
  subscribe(observer: Observer<TSnapshot>): Subscription;
}

/** What a command observes of the actor: its state value and context after the event. */
export interface ActorState<TSnapshot extends MachineSnapshotLike<EventObject>> {
  value: TSnapshot["value"];
  context: TSnapshot["context"];
}

/**
 * Wraps a started actor (`createActor(machine).start()`) as an `AgentComponent`.
 *
 * - `getSchema()` lists the declared events as commands;
 * - `canExecute(type)` is `snapshot.can({ type })` while the actor is active (gated commands only);
 * - `execute(type, input)` sends `{ ...input, type }` and returns `{ value, context }` after it and
 *   exactly the events the actor emitted while handling it. An event the current state does not
 *   accept — checked again with the full payload, so payload guards count — throws, and the bridge
 *   answers the model `ExecuteFailed` with the reason; nothing is sent.
 *
 * @throws TypeError at construction when an `input` is not an object schema: an event's payload
 *   is its fields, so it can only be described by an object schema.
 */
export function fromActor<
  TSnapshot extends MachineSnapshotLike<TEvent>,
  TEvent extends EventObject,
  TEmitted extends EventObject,
>(
  actor: MachineActorLike<TSnapshot, TEvent, TEmitted>,
  commands: EventCommands<TEvent>,
): AgentComponent<ActorState<TSnapshot>, TEmitted> {
  const schema: AgentSchema = { commands: declaredCommands(commands) };

  const active = () => {
    const snapshot = actor.getSnapshot();
    return snapshot.status === "active" ? snapshot : undefined;
  };

  return {
    // One schema object for the actor's lifetime, so the bridge compiles each input schema once.
    getSchema: () => schema,

    canExecute(command) {
      // A probe event without its payload: the question is "does this state take the event at
      // all?", which is exactly what `can` answers for guards that ignore the payload.
      return active()?.can(probe<TEvent>(command)) === true;
    },

    execute(command, input) {
      const snapshot = active();
      if (snapshot === undefined) {
        throw new Error(
          `the machine is no longer running (status "${actor.getSnapshot().status}"); nothing was sent`,
        );
      }
      const event = toEvent<TEvent>(command, input);
      if (!snapshot.can(event)) {
        throw new Error(
          `the machine does not accept "${command}" in state ${JSON.stringify(snapshot.value)} with this input; nothing was sent`,
        );
      }

      const events: TEmitted[] = [];
      let failure: { error: unknown } | undefined;
      const emitted = actor.on("*", (emittedEvent) => {
        events.push(emittedEvent);
      });
      // An error listener makes a throwing action this call's failure, reported to the model,
      // instead of an unhandled error XState would rethrow on a later tick.
      const errors = actor.subscribe({
        error: (error) => {
          failure = { error };
        },
      });
      try {
        actor.send(event);
      } finally {
        emitted.unsubscribe();
        errors.unsubscribe();
      }
      if (failure !== undefined) throw failure.error;

      const after = actor.getSnapshot();
      return { state: { value: after.value, context: after.context }, events };
    },
  };
}

function declaredCommands(commands: Readonly<Record<string, EventCommand | undefined>>) {
  const declared: Record<string, CommandSchema> = {};
  for (const [type, command] of Object.entries(commands)) {
    if (command === undefined) continue;
    if (command.input !== undefined && command.input.type !== "object") {
      throw new TypeError(
        `Event "${type}" has an input schema that is not { type: "object" }: an event's payload is its fields besides \`type\``,
      );
    }
    declared[type] = command;
  }
  return declared;
}

/**
 * The event for `command` with its validated input spread in. The bridge has checked the input
 * against the declared schema, which is the only link between the schema and the event's
 * TypeScript type — so this is where the payload is asserted to be the machine's event.
 */
function toEvent<TEvent extends EventObject>(command: string, input: unknown): TEvent {
  const payload = typeof input === "object" && input !== null ? input : {};
  return { ...payload, type: command } as TEvent;
}

/** `{ type }` alone, for asking whether the state handles the event before any payload exists. */
function probe<TEvent extends EventObject>(command: string): TEvent {
  return toEvent<TEvent>(command, undefined);
}
