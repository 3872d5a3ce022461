/**
 * `ignite-element/tools/mobx`: a MobX store (an observable object, or a class instance made
 * observable with `makeObservable`/`makeAutoObservable`) as an agent component. The actions you
 * name are its commands, its state is a plain copy kept while nothing changed, and every run of
 * a named action is an event, whoever ran it.
 *
 * Unlike the XState and Redux sources, this one imports its library: `reaction`, `computed`,
 * `toJS` and `spy` are MobX's functions, not the store's, so the store and this entrypoint must
 * share one `mobx` (an optional peer dependency, installed once).
 */

import { action, computed, isAction, isObservable, reaction, spy, toJS } from "mobx";
import { anObject, check, type Expect } from "../core/checks.js";
import { setOwn } from "../core/json.js";
import type { AgentComponent, AgentSchema, CommandSchema, JsonSchema } from "../core/types.js";

/** Any method. */
type Method = (...args: never[]) => unknown;

/** The names of the store's methods: what may be declared as commands and events. */
export type MethodKeys<TStore> = {
  [K in keyof TStore]: TStore[K] extends Method ? K : never;
}[keyof TStore] &
  string;

/** How one action is offered as a command: a `CommandSchema`. */
export interface MobxCommand extends CommandSchema {
  /** The schema of the action's one argument: what `store[name](input)` is called with. */
  input?: JsonSchema;
  /** Offer the command only when `canExecute(store, name)` says so. */
  gated?: boolean;
}

/** A method that must be called with an argument. */
type TakesInput<TMethod> = TMethod extends () => unknown ? false : true;

/**
 * The actions of a store offered as commands, keyed by method name; methods left out are never
 * offered. MobX knows an argument's type only in TypeScript, so its JSON Schema is declared here:
 * required (as `input`) for an action that must be called with an argument; an action without
 * `input` is called with none.
 */
export type MobxCommands<TStore> = {
  readonly [K in MethodKeys<TStore> as TakesInput<TStore[K]> extends true
    ? K
    : never]?: MobxCommand & {
    input: JsonSchema;
  };
} & {
  readonly [K in MethodKeys<TStore> as TakesInput<TStore[K]> extends true
    ? never
    : K]?: MobxCommand;
};

/**
 * What the default snapshot holds: every property of the store that is not a method, its fields
 * and its getters (computed values), as plain data.
 */
export type MobxData<TStore> = {
  [K in keyof TStore as K extends string
    ? TStore[K] extends Method
      ? never
      : K
    : never]: TStore[K];
};

/**
 * One run of the action `K`: `{ type: K }` for an action that takes no argument, and with its
 * argument (a command's input) as `payload` otherwise.
 */
export type MobxEvent<TStore, K extends MethodKeys<TStore>> = K extends unknown
  ? TStore[K] extends (...args: infer TArgs) => unknown
    ? TArgs extends []
      ? { type: K }
      : TArgs extends [unknown, ...unknown[]]
        ? { type: K; payload: TArgs[0] }
        : { type: K; payload?: TArgs[0] }
    : never
  : never;

/** What to offer of a store, what its snapshot is, and which of its actions are events. */
export interface MobxOptions<
  TStore,
  TCommands extends MobxCommands<TStore>,
  S,
  TEvents extends MethodKeys<TStore>,
> {
  /** The actions offered as commands, by method name; each must be a MobX action (or flow). */
  commands: TCommands & { readonly [K in Exclude<keyof TCommands, MethodKeys<TStore>>]: never };
  /**
   * Whether a gated command is available now, given the store itself (its computed values
   * included). An action cannot refuse to run, so this is the only place availability is
   * decided. Required when any command is gated.
   */
  canExecute?: (store: TStore, command: keyof TCommands & string) => boolean;
  /**
   * What the model and observers see of the store: run inside a MobX `computed`, so what it reads
   * is what is watched, and made plain data (`toJS` for each observable in it). Give one when the store holds more than
   * its state (another store, a client, a DOM node), which the default would copy too.
   *
   * @default every property of the store that is not a method, its getters included (`MobxData`)
   */
  snapshot?: (store: TStore) => S;
  /**
   * Other actions of the store reported as events besides the commands (a timer's `tick`), and
   * declared, with the commands, as the schema's `events`: what the model's wait tool may wait
   * for. Each must be a MobX action.
   *
   * @default undefined — the commands only
   */
  events?: readonly TEvents[];
}

/**
 * Wraps a MobX store as an `AgentComponent`: the actions named in `commands` are its commands.
 *
 * - `execute(name, input)` runs `store[name](input)` (`store[name]()` for a command without
 *   `input`), awaits it when it returns a promise (an async action, a `flow`), and returns
 *   `{ state: getSnapshot(), events: [{ type: name, payload: input }] }`; an action that throws or
 *   rejects fails the call (`ExecuteFailed`), and MobX keeps what it changed before it threw;
 * - `canExecute` is your `canExecute(store, command)`, for gated commands;
 * - `getSnapshot()` is the snapshot (`options.snapshot`, or every non-method property) as plain
 *   data, the same object while nothing in it changed: kept in a MobX `computed` while someone
 *   subscribes, and compared with the one given last otherwise;
 * - `subscribe(listener)` is a MobX `reaction` on the snapshot and the gated commands'
 *   availability: a change made anywhere is heard once its outermost action ends. Unsubscribing
 *   disposes it;
 * - `onEvent(listener)` hears every run of a command's action (and of `options.events`) that no
 *   other of them ran, once it has ended: a call's from the call itself, the others' through
 *   MobX's `spy`, which MobX has in its development build only (in production the calls' runs
 *   are the only events; changes made outside are still heard by `subscribe`).
 *
 * @example
 * ```ts
 * const todos = new TodoStore(); // makeAutoObservable(this) in its constructor
 * const tools = igniteTools(fromMobx(todos, { commands: { add: { input: { type: "string" } } } }));
 * ```
 *
 * @throws TypeError at construction when a command or an event names a method that is not a MobX
 *   action (or flow) of the store, or a command is gated and no `canExecute` is given.
 */
export function fromMobx<
  TStore extends object,
  TCommands extends MobxCommands<TStore>,
  S = MobxData<TStore>,
  TEvents extends MethodKeys<TStore> = never,
>(
  store: TStore,
  options: MobxOptions<TStore, TCommands, S, TEvents>,
): AgentComponent<S, MobxEvent<TStore, (keyof TCommands & MethodKeys<TStore>) | TEvents>> {
  type E = MobxEvent<TStore, (keyof TCommands & MethodKeys<TStore>) | TEvents>;
  check("fromMobx", "store", store satisfies unknown, anObject);
  check("fromMobx", "options", options satisfies unknown, OPTIONS);
  const { canExecute, events: extra = [] } = options;
  const declared: Readonly<Record<string, MobxCommand | undefined>> = options.commands;
  // Frozen: it never changes, and a frozen commands object lets the bridge check an unchanged
  // turn without enumerating it (the same cost per command at any size).
  const commands: Record<string, CommandSchema> = {};
  for (const [name, command] of Object.entries(declared)) {
    if (command === undefined) continue;
    actionOf(store, name, "Command");
    if (command.gated && canExecute === undefined) {
      throw new TypeError(
        `Command "${name}" is gated, but no canExecute(store, command) was given`,
      );
    }
    commands[name] = command;
  }
  Object.freeze(commands);
  const isCommand = (name: string): name is keyof TCommands & string =>
    Object.hasOwn(commands, name);
  const gated = Object.keys(commands).filter(
    (name): name is keyof TCommands & string => commands[name]?.gated === true,
  );
  // The name MobX's spy reports for each action an event is made of, and the event's type.
  const reported = new Map<string, string>();
  for (const name of [...Object.keys(commands), ...extra]) {
    const run = actionOf(store, name, Object.hasOwn(commands, name) ? "Command" : "Event");
    reported.set(name, name);
    if (run.name) reported.set(run.name, name);
  }
  const schema: AgentSchema = { commands, events: [...new Set(reported.values())] };

  // The snapshot as plain data. Observed by a subscriber's reaction, MobX keeps it until what it
  // read changes (and recomputes it at once when it is read inside an action after a change);
  // unobserved, MobX keeps nothing, so each read is compared with the snapshot given last, which
  // is kept while equal: the same value while nothing changed, whoever asks and when.
  const select = options.snapshot ?? (dataOf as (store: TStore) => S);
  // A plain copy has the type of what it copies: observables are typed as the plain data they hold.
  const read = () => plainOf(select(store)) as S;
  const plain = computed(read);
  let watching = 0;
  let raw: unknown;
  let given: { value: S } | undefined;
  const getSnapshot = (): S => {
    const now = watching > 0 ? plain.get() : read();
    if (given !== undefined && (now === raw || sameData(now, given.value))) {
      raw = now;
      return given.value;
    }
    raw = now;
    given = { value: now };
    return now;
  };
  const available = () =>
    gated
      .map((name) => {
        try {
          return canExecute?.(store, name) ? "1" : "0";
        } catch {
          return "0";
        }
      })
      .join("");

  const listeners = new Set<(event: E) => void>();
  const emit = (event: E) => {
    for (const listener of [...listeners]) listener(event);
  };
  // While a call runs its action, the call reports it, once the action has returned (or its
  // promise resolved): the spy would report it even when it throws.
  let calling = 0;
  let stopSpy: (() => void) | undefined;

  return {
    // One schema object for the store's lifetime, so the bridge compiles each input schema once.
    getSchema: () => schema,

    ...(canExecute && {
      canExecute: (command: string) => isCommand(command) && canExecute(store, command),
    }),

    execute(command, input) {
      if (!isCommand(command)) throw new Error(`the store has no command "${command}"`);
      const args = commands[command]?.input === undefined ? [] : [input];
      let result: unknown;
      calling++;
      try {
        result = Reflect.apply(actionOf(store, command, "Command"), store, args);
      } finally {
        calling--;
      }
      const done = () => {
        const event = eventOf<E>(command, args);
        emit(event);
        return { state: getSnapshot(), events: [event] };
      };
      return isThenable(result) ? Promise.resolve(result).then(done) : done();
    },

    getSnapshot,

    subscribe(listener) {
      watching++;
      const dispose = reaction(
        () => [plain.get(), available()] as const,
        () => listener(),
        { equals: (a, b) => a[0] === b[0] && a[1] === b[1] },
      );
      let done = false;
      return () => {
        if (done) return;
        done = true;
        dispose();
        watching--;
      };
    },

    onEvent(listener) {
      const own = (event: E) => listener(event);
      listeners.add(own);
      if (listeners.size === 1) stopSpy = spyOn(store, reported, () => calling > 0, emit);
      return () => {
        if (!listeners.delete(own) || listeners.size > 0) return;
        stopSpy?.();
        stopSpy = undefined;
      };
    },
  };
}

/**
 * `store[name]` when it is a MobX action (or, for a command, a flow), else a `TypeError` naming
 * what it was declared as. A flow's runs from outside are not heard (the spy reports each of its
 * steps as an action of its own name), so only a command, heard through its calls, may be one.
 */
function actionOf(store: object, name: string, what: "Command" | "Event"): Method {
  const run: unknown = Reflect.get(store, name);
  if (typeof run === "function" && (isAction(run) || (what === "Command" && isFlow(run)))) {
    return run as Method;
  }
  const marks = what === "Command" ? "`action` or `flow`" : "`action`";
  throw new TypeError(
    `${what} "${name}" is not an action of the store: mark it with ${marks} in makeObservable, or use makeAutoObservable`,
  );
}

/**
 * What MobX's `isFlow` reads, which MobX 6.0 does not export: the mark `flow` (and
 * makeAutoObservable, for a generator method) puts on the function it makes, from 6.0 to 7.
 */
function isFlow(run: object): boolean {
  return (run as { isMobXFlow?: unknown }).isMobXFlow === true;
}

function eventOf<E>(type: string, args: readonly unknown[]): E {
  // An event's type is the method's name and its payload the argument it was given: the two are
  // tied only by the declarations, so this is where the event is asserted to be the store's.
  return (args.length === 0 ? { type } : { type, payload: args[0] }) as E;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

// Whether this MobX has a spy: its production build has none (`spy` warns and does nothing).
// Found out once, the first time something listens, so MobX warns at most once.
let spyWorks: boolean | undefined;
const PROBE = "ignite-element/tools/mobx: is the spy on?";

/**
 * Listens, through MobX's `spy`, for the runs of the store's `reported` actions that none of them
 * ran (a nested run is its caller's), and hands each to `emit` once it has ended, after the
 * reactions it caused: none while `inCall()` says a call reports its own. Returns the stop, or
 * `undefined` when MobX has no spy.
 */
function spyOn<E>(
  store: object,
  reported: ReadonlyMap<string, string>,
  inCall: () => boolean,
  emit: (event: E) => void,
): (() => void) | undefined {
  if (spyWorks === false) return undefined;
  // One entry per report MobX opens (actions, changes, reactions), closed by its `report-end`.
  const open: { own: boolean; event?: E }[] = [];
  let depth = 0;
  let probed = false;
  const stop = spy((change) => {
    if (change.type === "report-end") {
      const closed = open.pop();
      if (closed?.own) depth--;
      if (closed?.event !== undefined) emit(closed.event);
      return;
    }
    if (!change.spyReportStart) return;
    if (change.type !== "action") {
      open.push({ own: false });
      return;
    }
    if (change.name === PROBE) probed = true;
    const type = change.object === store ? reported.get(change.name) : undefined;
    if (type === undefined) {
      open.push({ own: false });
      return;
    }
    open.push(
      depth === 0 && !inCall()
        ? { own: true, event: eventOf<E>(type, change.arguments) }
        : { own: true },
    );
    depth++;
  });
  if (spyWorks === undefined) {
    action(PROBE, () => undefined)();
    spyWorks = probed;
  }
  if (spyWorks) return stop;
  stop();
  return undefined;
}

/** The default snapshot: every property of `store` that is not a method, its getters included. */
function dataOf(store: object): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const take = (key: string) => {
    if (Object.hasOwn(data, key)) return;
    const value: unknown = Reflect.get(store, key);
    if (typeof value !== "function") setOwn(data, key, value);
  };
  for (const key of Object.keys(store)) take(key);
  // Getters: a class's, on its prototypes, and an observable object's own computed values, which
  // are not enumerable.
  for (
    let from: object | null = store;
    from !== null && from !== Object.prototype;
    from = Object.getPrototypeOf(from)
  ) {
    for (const key of Object.getOwnPropertyNames(from)) {
      if (typeof Object.getOwnPropertyDescriptor(from, key)?.get === "function") take(key);
    }
  }
  return data;
}

/**
 * `value` as plain data: each observable in it (at any depth of plain objects and arrays) as
 * `toJS` copies it, the rest as it is. Reading it all is what makes the `computed` watch it all.
 */
function plainOf(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isObservable(value)) return toJS(value);
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(plainOf(item, seen));
    return copy;
  }
  if (!isPlain(value)) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) setOwn(copy, key, plainOf(item, seen));
  return copy;
}

/** Whether two plain-data snapshots hold the same data. */
function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameData(item, b[index]))
    );
  }
  if ((a instanceof Map && b instanceof Map) || (a instanceof Set && b instanceof Set)) {
    return sameData([...a], [...b]);
  }
  // Anything else but plain objects (a Date, a class instance) is the same only as itself.
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** What `fromMobx` takes second: at least the commands, by action name. */
const OPTIONS: Expect<object> = {
  allowed:
    "an object with commands (the store's actions by name, such as { commands: { add: {} } })",
  test: (value): value is object =>
    anObject.test(value) && anObject.test(Reflect.get(value, "commands")),
};
