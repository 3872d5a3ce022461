/**
 * `ignite-element/tools/xstate`: an XState v5 actor as an agent component. The events you declare
 * become commands, the machine's own transitions and guards decide which are offered, and what
 * the actor `emit()`s while it handles a command comes back as that command's events.
 *
 * Structural types only: nothing here imports `xstate` at runtime, and any actor with the shape
 * of an XState v5 (≥ 5.13.1) `Actor` can be wrapped.
 */
import type { AgentComponent, AgentSchema, CommandSchema, JsonSchema } from "../core/types.js";

/** An event: XState's `EventObject`. */
export interface EventObject {
  type: string;
}

/** XState's `SnapshotStatus`: only an `"active"` actor takes events. */
export type SnapshotStatus = "active" | "done" | "error" | "stopped";

/** What `actor.subscribe` and `actor.on` return: XState's `Subscription`. */
export interface Subscription {
  unsubscribe(): void;
}

/** An observer of an actor's snapshots: XState's `Observer`. */
export interface ActorObserver<T> {
  next?: (value: T) => void;
  error?: (error: unknown) => void;
  complete?: () => void;
}

/** An object-rooted JSON Schema: the fields of an event besides its `type`. */
export type EventPayloadSchema = JsonSchema & { type: "object" };

/**
 * How one event type is offered as a command: its description, payload schema, output schema
 * and effect flags. There is no `gated`: every event is offered only while the machine takes it.
 */
export interface EventCommand extends Omit<CommandSchema, "input" | "gated"> {
  /**
   * The event's payload: a schema for the event's fields besides `type`. The validated input is
   * spread into the event, so `{ seconds: 30 }` for `seek` is sent as `{ type: "seek", seconds: 30 }`.
   * Without `input` the event is sent as `{ type }` alone.
   */
  input?: EventPayloadSchema;
}

/**
 * The events of a machine offered as commands, keyed by event type. XState types an event's
 * payload in TypeScript only (there is no runtime description of it to read), so each payload's
 * JSON Schema is declared here, next to the machine. Events left out are never offered, so
 * internal events stay internal.
 *
 * @example
 * ```ts
 * const commands: EventCommands<PlayerEvent> = {
 *   play: { description: "Start playing the loaded track." },
 *   seek: { input: { type: "object", properties: { seconds: { type: "integer" } } } },
 * };
 * ```
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
  subscribe(observer: ActorObserver<TSnapshot>): Subscription;
}

/** Options of `fromActor`. */
export interface ActorOptions<TEmitted extends EventObject> {
  /**
   * The types of the events the machine `emit()`s, declared as the schema's `events`: what the
   * model's wait tool may wait for (XState knows them in TypeScript only). Every emitted event
   * reaches `observe` whether declared or not.
   *
   * @default undefined — none declared
   */
  events?: readonly TEmitted["type"][];
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
 * - a command is offered only while the actor is active and its current state takes the event:
 *   `snapshot.can({ type })`, exact for guards that read the context and the state. A guard that
 *   reads the event's payload cannot be decided before the model sends one, so an event with
 *   `input` whose guard reads the payload is offered while such a guard is on its path, and
 *   decided with the payload when it is called. A done, stopped or failed actor offers nothing;
 * - `execute(type, input)` checks `snapshot.can({ ...input, type })` with the payload and, when
 *   the machine would not take it, sends nothing and fails the call with the reason (the bridge
 *   answers `ExecuteFailed`, "nothing was sent"); otherwise it sends the event and returns
 *   `{ value, context }` after it and exactly the events the actor emitted while handling it;
 * - `subscribe(listener)` hears every snapshot, the actor's completion and its error;
 * - `getSnapshot()` is `{ value, context }` of the actor's snapshot (the same object while the
 *   actor has not moved), and `onEvent(listener)` hears everything the actor `emit()`s, during a
 *   call or outside one (`options.events` declares their types for the model's wait).
 *
 * @example
 * ```ts
 * const actor = createActor(playerMachine).start();
 * const tools = igniteTools(fromActor(actor, { play: { description: "Play." } }), anthropic);
 * ```
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
  options: ActorOptions<TEmitted> = {},
): AgentComponent<ActorState<TSnapshot>, TEmitted> {
  // Frozen: it never changes, and a frozen commands object lets the bridge check an unchanged
  // turn without enumerating it (the same cost per command at any size).
  const declared = Object.freeze(declaredCommands(commands));
  const schema: AgentSchema =
    options.events === undefined
      ? { commands: declared }
      : { commands: declared, events: [...options.events] };

  // One state object per actor snapshot: the same value while the actor has not moved.
  let seen: { from: TSnapshot; state: ActorState<TSnapshot> } | undefined;
  const stateOf = (snapshot: TSnapshot): ActorState<TSnapshot> => {
    if (seen?.from !== snapshot) {
      seen = { from: snapshot, state: { value: snapshot.value, context: snapshot.context } };
    }
    return seen.state;
  };

  const active = () => {
    const snapshot = actor.getSnapshot();
    return snapshot.status === "active" ? snapshot : undefined;
  };

  return {
    // One schema object for the actor's lifetime, so the bridge compiles each input schema once.
    getSchema: () => schema,

    canExecute(command) {
      const snapshot = active();
      if (snapshot === undefined || !Object.hasOwn(declared, command)) return false;
      return mayTake(snapshot, command, declared[command]?.input !== undefined);
    },

    execute(command, input) {
      const snapshot = active();
      if (snapshot === undefined) {
        // Unreachable through the bridge, which asks `canExecute` first; kept for direct callers.
        throw new Error(
          `the machine is no longer running (status "${actor.getSnapshot().status}"); nothing was sent`,
        );
      }
      const event = toEvent<TEvent>(command, input);
      refuseUnlessTaken(snapshot, event);

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

      return { state: stateOf(actor.getSnapshot()), events };
    },

    getSnapshot: () => stateOf(actor.getSnapshot()),

    onEvent(listener) {
      const subscription = actor.on("*", listener);
      return () => subscription.unsubscribe();
    },

    subscribe(listener) {
      // `error` too, so a failed actor's tools disappear at once. XState reports an error as
      // unhandled only when some observer has no error handler, so while this one is subscribed
      // the application's own observers decide (docs/sources.md says so).
      const subscription = actor.subscribe({
        next: () => listener(),
        error: () => listener(),
        complete: () => listener(),
      });
      return () => subscription.unsubscribe();
    },
  };
}

/**
 * Whether the current state may take `type` before its payload is known. The probe event is
 * `{ type }` alone and notes whether any guard read a field besides `type`: if none did, `can`
 * has decided exactly; if one did and the command takes a payload, the answer depends on the
 * payload, so the event is offered and decided again, with the payload, when it is called.
 */
function mayTake<TEvent extends EventObject>(
  snapshot: MachineSnapshotLike<TEvent>,
  type: string,
  takesPayload: boolean,
): boolean {
  const probe = payloadProbe<TEvent>(type);
  try {
    return snapshot.can(probe.event) || (takesPayload && probe.readPayload());
  } catch {
    // A guard that throws on a missing field read it first; one that throws otherwise fails closed.
    return takesPayload && probe.readPayload();
  }
}

/** Throws, sending nothing, when the machine would not take `event` with its payload now. */
function refuseUnlessTaken<TEvent extends EventObject>(
  snapshot: MachineSnapshotLike<TEvent>,
  event: TEvent,
): void {
  let taken: boolean;
  try {
    taken = snapshot.can(event);
  } catch (error) {
    // XState wraps the guard's own error in a line naming the state node: keep it on one line.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
    throw new Error(
      `nothing was sent: a guard of "${event.type}" failed on this input (${reason})`,
    );
  }
  if (!taken) {
    throw new Error(
      `the machine does not take "${event.type}" with this input in state ${JSON.stringify(snapshot.value)}; nothing was sent. Change the input or use another tool`,
    );
  }
}

function declaredCommands(
  commands: Readonly<Record<string, EventCommand | undefined>>,
): Record<string, CommandSchema> {
  const declared: Record<string, CommandSchema> = {};
  for (const [type, command] of Object.entries(commands)) {
    if (command === undefined) continue;
    if (command.input !== undefined && command.input.type !== "object") {
      throw new TypeError(
        `Event "${type}" has an input schema that is not { type: "object" }: an event's payload is its fields besides \`type\``,
      );
    }
    // Gated, every one: whether the machine takes an event is a fact of its state right now.
    declared[type] = { ...command, gated: true };
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
  // `type` first, then set again so it wins over a payload's own: on Node 20's V8, a spread
  // followed by a key it lacks takes a slow path (about 1 µs per call).
  const event = { type: command, ...payload };
  event.type = command;
  return event as TEvent;
}

/** `{ type }` alone, noting whether anything looked for a field besides `type`. */
function payloadProbe<TEvent extends EventObject>(
  type: string,
): { event: TEvent; readPayload: () => boolean } {
  let read = false;
  const note = (key: string | symbol) => {
    // Symbols are the language's own protocols (inspection, coercion), not the event's fields.
    if (typeof key === "string" && key !== "type") read = true;
  };
  const event = new Proxy(toEvent<TEvent>(type, undefined), {
    get(target, key, receiver) {
      note(key);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      note(key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      read = true;
      return Reflect.ownKeys(target);
    },
  });
  return { event, readPayload: () => read };
}
