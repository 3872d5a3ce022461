/**
 * `ignite-element/tools/redux`: a Redux Toolkit slice, dispatched through its store, as an agent
 * component. Each action creator is a command, the payload schemas and any availability rule are
 * declared beside the slice, and each call observes the store's state after the dispatch and the
 * action it dispatched.
 *
 * Structural types only: nothing here imports `@reduxjs/toolkit`, and any store with `getState`,
 * `dispatch` and `subscribe` (RTK's `configureStore()`, Redux's `createStore()`) can be wrapped.
 */
import { anObject, check, type Expect, hasMethods } from "../core/checks.js";
import type { AgentComponent, AgentSchema, CommandSchema, JsonSchema } from "../core/types.js";

/** An action as RTK's action creators build it: `{ type, payload }` (and `meta`/`error` when prepared). */
export type SliceAction = { type: string; payload: unknown };

/** Any action creator; RTK's `slice.actions[name]` are these. */
export type ActionCreator = (...args: never[]) => SliceAction;

/** The part of a slice the wrapper uses: its action creators. */
export interface SliceLike<TActions extends Record<string, ActionCreator>> {
  readonly actions: TActions;
}

/** The part of a store the wrapper uses; RTK's `configureStore()` returns one. */
export interface StoreLike<TState> {
  getState(): TState;
  dispatch(action: SliceAction): unknown;
  /** Redux calls `listener` after every dispatch, from anywhere; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** How one action is offered as a command: a `CommandSchema`. */
export interface ActionCommand extends CommandSchema {
  /** The schema of the action creator's argument: what `slice.actions[name](input)` is called with. */
  input?: JsonSchema;
  /** Offer the command only when `canExecute(state, name)` says so. */
  gated?: boolean;
}

/** An action creator that must be called with an argument. */
type TakesPayload<TCreator> = TCreator extends () => unknown ? false : true;

/**
 * The commands of a slice. Redux knows a payload's type only in TypeScript, so its JSON Schema is
 * declared here: required (with `input`) for every action that takes a payload, optional for the
 * rest, which take none.
 */
export type SliceCommands<TActions extends Record<string, ActionCreator>> = {
  readonly [K in keyof TActions as TakesPayload<TActions[K]> extends true
    ? K
    : never]: ActionCommand & { input: JsonSchema };
} & {
  readonly [K in keyof TActions as TakesPayload<TActions[K]> extends true
    ? never
    : K]?: ActionCommand;
};

/** What to offer of a slice, and when. */
export interface SliceOptions<TState, TActions extends Record<string, ActionCreator>> {
  commands: SliceCommands<TActions>;
  /**
   * Whether a gated command is available in `state`, the store's whole state now (a combined
   * store's, when the slice is one of several). A reducer cannot refuse an action, so this is the
   * only place availability is decided. Required when any command is gated.
   */
  canExecute?: (state: TState, command: keyof TActions & string) => boolean;
  /**
   * The store's `actionFeed()`, whose middleware the store was configured with: every action of
   * this slice dispatched to the store, from anywhere, then reaches `onEvent` (and `observe`), and
   * the slice's action types are declared as the schema's `events` (what the model's wait tool
   * may wait for). Without it, the state is still observed; the actions are not.
   *
   * @default undefined
   */
  actions?: ActionFeed;
}

/** Redux's `Middleware`, structurally: what `configureStore({ middleware })` takes. */
export type FeedMiddleware = (
  api: unknown,
) => (next: (action: unknown) => unknown) => (action: unknown) => unknown;

/** A middleware that hears every action dispatched to its store, and who listens to it. */
export interface ActionFeed {
  /** Add it to the store: `middleware: (defaults) => defaults().concat(feed.middleware)`. */
  readonly middleware: FeedMiddleware;
  /** Calls `listener` with each action once the reducers have taken it; returns the unsubscribe. */
  listen(listener: (action: unknown) => void): () => void;
}

/**
 * A Redux middleware that reports every dispatched action, after the reducers took it, so
 * `fromSlice(…, { actions })` hears actions dispatched from anywhere as events.
 *
 * @example
 * ```ts
 * const actions = actionFeed();
 * const store = configureStore({
 *   reducer: todosSlice.reducer,
 *   middleware: (defaults) => defaults().concat(actions.middleware),
 * });
 * const todos = fromSlice(store, todosSlice, { commands: todoCommands, actions });
 * ```
 */
export function actionFeed(): ActionFeed {
  const listeners = new Set<(action: unknown) => void>();
  return {
    middleware: () => (next) => (action) => {
      const result = next(action);
      for (const listener of [...listeners]) listener(action);
      return result;
    },
    listen(listener) {
      const own = (action: unknown) => listener(action);
      listeners.add(own);
      return () => listeners.delete(own);
    },
  };
}

/** The actions a slice can dispatch, as the events a call observes. */
export type ActionOf<TActions extends Record<string, ActionCreator>> = ReturnType<
  TActions[keyof TActions]
>;

/**
 * Wraps `slice`, dispatched through `store`, as an `AgentComponent`: every action creator is a
 * command named by its key (`add` for `slice.actions.add`).
 *
 * - `execute` dispatches `slice.actions[command](input)` and returns
 *   `{ state: store.getState(), events: [action] }`; a reducer that throws fails the call
 *   (`ExecuteFailed`) and Redux has changed nothing;
 * - `canExecute` is your `canExecute(store.getState(), command)`, for gated commands;
 * - `subscribe(listener)` is `store.subscribe`: every dispatch, from anywhere, may change what
 *   is offered; `getSnapshot()` is `store.getState()`;
 * - with `actions` (an `actionFeed()` in the store's middleware), `onEvent` hears every action of
 *   the slice dispatched from anywhere, and the schema declares their types as `events`.
 *
 * @example
 * ```ts
 * const store = configureStore({ reducer: todosSlice.reducer });
 * const tools = igniteTools(fromSlice(store, todosSlice, { commands: todoCommands }), openai);
 * ```
 *
 * @throws TypeError at construction when a command is declared for an action the slice does not
 *   have, or a command is gated and no `canExecute` is given.
 */
export function fromSlice<TState, TActions extends Record<string, ActionCreator>>(
  store: StoreLike<TState>,
  slice: SliceLike<TActions>,
  options: SliceOptions<TState, TActions>,
): AgentComponent<TState, ActionOf<TActions>> {
  check("fromSlice", "store", store satisfies unknown, STORE);
  check("fromSlice", "slice", slice satisfies unknown, SLICE);
  check("fromSlice", "options", options satisfies unknown, anObject);
  // Frozen: it never changes, and a frozen commands object lets the bridge check an unchanged
  // turn without enumerating it (the same cost per command at any size).
  const commands = Object.freeze(sliceCommands(slice.actions, options));
  const { canExecute, actions: feed } = options;
  // The slice's own action types: what reaches `onEvent` of everything the store dispatches.
  const types = new Map<string, string>();
  for (const [name, create] of Object.entries(slice.actions)) {
    if ("type" in create && typeof create.type === "string") types.set(create.type, name);
  }
  const schema: AgentSchema = feed ? { commands, events: [...types.keys()] } : { commands };
  const ownAction = (action: unknown): action is ActionOf<TActions> =>
    typeof action === "object" &&
    action !== null &&
    "type" in action &&
    typeof action.type === "string" &&
    types.has(action.type);

  return {
    // One schema object for the store's lifetime, so the bridge compiles each input schema once.
    getSchema: () => schema,

    ...(canExecute && {
      canExecute: (command: string) =>
        isAction(slice, command) && canExecute(store.getState(), command),
    }),

    execute(command, input) {
      const create = isAction(slice, command) ? slice.actions[command] : undefined;
      if (create === undefined) throw new Error(`the slice has no action "${command}"`);
      const action = actionFor(create, input);
      store.dispatch(action);
      return { state: store.getState(), events: [action] };
    },

    subscribe: (listener) => store.subscribe(listener),

    getSnapshot: () => store.getState(),

    ...(feed && {
      onEvent: (listener: (action: ActionOf<TActions>) => void) =>
        feed.listen((action) => {
          if (ownAction(action)) listener(action);
        }),
    }),
  };
}

function sliceCommands<TState, TActions extends Record<string, ActionCreator>>(
  actions: TActions,
  { commands, canExecute }: SliceOptions<TState, TActions>,
): Record<string, CommandSchema> {
  const declared: Readonly<Record<string, ActionCommand | undefined>> = commands;
  for (const name of Object.keys(declared)) {
    if (!Object.hasOwn(actions, name)) {
      throw new TypeError(
        `A command is declared for "${name}", which is not an action of the slice`,
      );
    }
  }
  const result: Record<string, CommandSchema> = {};
  for (const name of Object.keys(actions)) {
    const command = declared[name] ?? {};
    if (command.gated && canExecute === undefined) {
      throw new TypeError(
        `Command "${name}" is gated, but no canExecute(state, command) was given`,
      );
    }
    result[name] = command;
  }
  return result;
}

function isAction<TActions extends Record<string, ActionCreator>>(
  slice: SliceLike<TActions>,
  command: string,
): command is keyof TActions & string {
  return Object.hasOwn(slice.actions, command);
}

/**
 * Calls the action creator with the validated input. The bridge has checked `input` against the
 * declared schema, the only link between that schema and the creator's TypeScript parameter — so
 * this is where the input is asserted to be the creator's argument. Inside a generic function TS
 * resolves the call through the constraint, so its result is asserted back to the creator's own.
 */
function actionFor<TCreator extends ActionCreator>(
  create: TCreator,
  input: unknown,
): ReturnType<TCreator> {
  const args = [input] as Parameters<TCreator>;
  return create(...args) as ReturnType<TCreator>;
}

/** What `fromSlice` takes first: a Redux store. */
const STORE = hasMethods<object>(
  "a Redux store (configureStore's: getState, dispatch, subscribe)",
  "getState",
  "dispatch",
  "subscribe",
);

/** What `fromSlice` takes second: a slice, with its action creators. */
const SLICE: Expect<object> = {
  allowed: "a slice made by createSlice (with its actions)",
  test: (value): value is object =>
    anObject.test(value) && anObject.test(Reflect.get(value, "actions")),
};
