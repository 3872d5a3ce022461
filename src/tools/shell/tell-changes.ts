/**
 * The loop's `tellChanges`: it observes the component for the run and, before a model request,
 * gathers what changed outside the model's own calls since the request before — leaving out what
 * the model already read in an answer (what its wait answered with) — as the note for the model.
 */
import { describe } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { LiveChange, NeutralManifest, RuntimeEvent } from "../core/types.js";
import type { ToolCallAnswer } from "./bridge.js";
import { type Changes, changesNote, DEFAULT_NOTE_CHARS, MIN_NOTE_CHARS } from "./changes.js";

/**
 * The `tellChanges` option of `runToolLoop` and `resumeToolLoop`: `true`, or the cap on one note.
 */
export type TellChanges =
  | boolean
  | {
      /**
       * The longest note, in characters (at least 500).
       *
       * @default 1500
       */
      maxChars?: number;
    };

/** What a teller needs of the loop's bridge. */
export interface Observed<S, E extends RuntimeEvent, Message> {
  observe(listener: (change: LiveChange<S, E>) => void): () => void;
  manifest(): NeutralManifest;
  appendNote?(messages: readonly Message[], note: string): Message[];
}

/** Observes one run and writes its notes. */
export interface Teller<S, E extends RuntimeEvent, Message> {
  /**
   * `messages` with the note of what changed outside the model's calls since the last request,
   * when something did, and that note; `answered` are the answers of the turn in between (what
   * the model already read). Starts the next interval.
   */
  tell(
    messages: Message[],
    answered: readonly ToolCallAnswer<S, E, unknown>[],
  ): { messages: Message[]; told?: string };
  /** Stops observing; idempotent. */
  stop(): void;
}

/**
 * A teller for `tools`, observing from now, or `undefined` when `option` is off. A `TypeError`
 * (thrown now, by `who`) when the bridge cannot observe, its dialect cannot write a note, or
 * `maxChars` is not a whole number of at least `MIN_NOTE_CHARS`.
 */
export function tellerOf<S, E extends RuntimeEvent, Message>(
  tools: Observed<S, E, Message>,
  option: TellChanges | undefined,
  who: string,
): Teller<S, E, Message> | undefined {
  if (option === undefined || option === false) return undefined;
  const maxChars = maxCharsOf(option, who);
  const { appendNote } = tools;
  if (typeof appendNote !== "function") {
    throw new TypeError(
      `${who}: tellChanges needs a dialect that can write a note for the model (appendNote); this one cannot`,
    );
  }
  // Everything heard outside every call, oldest first, and the state last heard (any change).
  const outside: LiveChange<S, E>[] = [];
  let latest: LiveChange<S, E> | undefined;
  let before = availableNow(tools);
  let stop: () => void;
  try {
    stop = tools.observe((change) => {
      latest = change;
      if (change.call === undefined) outside.push(change);
    });
  } catch (error) {
    throw new TypeError(`${who}: tellChanges could not observe the component: ${describe(error)}`, {
      cause: error,
    });
  }

  return {
    tell(messages, answered) {
      const heard = outside.splice(0);
      const now = availableNow(tools);
      const was = before;
      before = now;
      const changes = untold(heard, answered, latest, was, now);
      if (!changes) return { messages };
      const told = changesNote(changes, maxChars);
      return { messages: appendNote.call(tools, messages, told), told };
    },
    stop: () => stop(),
  };
}

/**
 * What of `heard` the model has not read yet: an event an answer of the turn carried (by
 * identity, each answer's event once) is left out, as is a change of state alone to a snapshot an
 * answer carried. `undefined` when nothing is left.
 */
function untold<S, E extends RuntimeEvent>(
  heard: readonly LiveChange<S, E>[],
  answered: readonly ToolCallAnswer<S, E, unknown>[],
  latest: LiveChange<S, E> | undefined,
  was: readonly string[] | undefined,
  now: readonly string[] | undefined,
): Changes | undefined {
  if (heard.length === 0 || latest === undefined) return undefined;
  const readEvents: unknown[] = [];
  const readSnapshots = new Set<unknown>();
  for (const { outcome } of answered) {
    if (!outcome.ok) continue;
    readEvents.push(...outcome.value.events);
    readSnapshots.add(outcome.value.snapshot);
  }
  const events: E[] = [];
  let stateChanged = false;
  for (const { event, snapshot } of heard) {
    if (event === undefined) {
      if (!readSnapshots.has(snapshot)) stateChanged = true;
      continue;
    }
    const read = readEvents.indexOf(event);
    if (read === -1) events.push(event);
    else readEvents.splice(read, 1);
  }
  if (events.length === 0 && !stateChanged) return undefined;
  return {
    events,
    snapshot: latest.snapshot,
    available: now && was ? now.filter((name) => !was.includes(name)) : [],
    unavailable: now && was ? was.filter((name) => !now.includes(name)) : [],
  };
}

/** The names of the commands available now; `undefined` when the schema cannot be read now. */
function availableNow(tools: { manifest(): NeutralManifest }): string[] | undefined {
  try {
    return tools.manifest().map((tool) => tool.name);
  } catch {
    return undefined; // the request's own toToolDefs reports a schema that broke
  }
}

function maxCharsOf(option: TellChanges, who: string): number {
  if (option !== true && !isRecord(option)) {
    throw new TypeError(
      `${who}: tellChanges must be true, false or { maxChars }, not ${String(option)}`,
    );
  }
  const maxChars = option === true ? DEFAULT_NOTE_CHARS : (option.maxChars ?? DEFAULT_NOTE_CHARS);
  if (Number.isSafeInteger(maxChars) && maxChars >= MIN_NOTE_CHARS) return maxChars;
  throw new TypeError(
    `${who}: tellChanges.maxChars must be a whole number ≥ ${MIN_NOTE_CHARS}, not ${String(maxChars)}`,
  );
}
