/**
 * The loop's change notes, `changeNotes()`: observing the component for the run and, before a
 * model request, gathering what changed outside the model's own calls since the request before —
 * leaving out what the model already read in an answer (what its wait answered with), and the
 * commands its own calls made available or unavailable — as the note for the model.
 */

import { partsOf } from "../bridge/pipeline.js";
import type { ToolBridge, ToolCallAnswer } from "../bridge/types.js";
import { describe } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { LiveChange, RuntimeEvent } from "../core/types.js";
import { availableNow } from "../live/available.js";
import { observe } from "../live/observe.js";
import { type Changes, changesNote, DEFAULT_NOTE_CHARS, MIN_NOTE_CHARS } from "./changes.js";

/** Options of `changeNotes`. */
export interface ChangeNotesOptions {
  /**
   * The longest note, in characters (at least 500).
   *
   * @default 1500
   */
  maxChars?: number;
}

/** The change notes of a loop: what `tellChanges` takes. */
export interface ChangeNotes {
  readonly layer: "changeNotes";
  /** The longest note, in characters. */
  readonly maxChars: number;
  /** Starts telling one run over `tools`, observed from now; a `TypeError` (by `who`) when it cannot. */
  start<S, E extends RuntimeEvent, Message>(
    tools: Told<S, E, Message>,
    who: string,
  ): Teller<S, E, Message>;
}

/** What the notes need of the loop's bridge: one made by `igniteTools`, whose dialect writes notes. */
export type Told<S, E extends RuntimeEvent, Message> = ToolBridge<S, E> & {
  appendNote?(messages: readonly Message[], note: string): Message[];
};

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
 * The change notes for `runToolLoop` and `resumeToolLoop`'s `tellChanges`: before each request
 * after the first, the model is told what changed outside its own calls since its previous
 * request — the events, the state now, the commands that became available or unavailable — in
 * at most `maxChars` characters. See docs/agent-loop.md.
 *
 * @example
 * ```ts
 * const result = await runToolLoop({ tools, model, messages, tellChanges: changeNotes() });
 * ```
 */
export function changeNotes(options: ChangeNotesOptions = {}): ChangeNotes {
  const maxChars = maxCharsOf(options);
  return {
    layer: "changeNotes",
    maxChars,
    start: (tools, who) => teller(tools, maxChars, who),
  };
}

function teller<S, E extends RuntimeEvent, Message>(
  tools: Told<S, E, Message>,
  maxChars: number,
  who: string,
): Teller<S, E, Message> {
  const { appendNote } = tools;
  if (typeof appendNote !== "function") {
    throw new TypeError(
      `${who}: tellChanges needs a dialect that can write a note for the model (appendNote); this one cannot`,
    );
  }
  const parts = partsOf<S, E>(tools, who);
  // Everything heard outside every call, oldest first, and the state last heard (any change).
  const outside: LiveChange<S, E>[] = [];
  let latest: LiveChange<S, E> | undefined;
  // The commands available as of the last change heard, and the ones the world made available
  // (true) or unavailable (false) since the last request: each change's own effect is its
  // source's, so what the model's own calls moved is never told as the world's.
  let known = availableNow(parts);
  const moved = new Map<string, boolean>();
  let stop: () => void;
  try {
    stop = observe(tools, (change) => {
      latest = change;
      const now = availableNow(parts);
      if (change.call === undefined) {
        outside.push(change);
        if (known && now) flipped(moved, known, now);
      }
      known = now;
    });
  } catch (error) {
    throw new TypeError(`${who}: tellChanges could not observe the component: ${describe(error)}`, {
      cause: error,
    });
  }

  return {
    tell(messages, answered) {
      const heard = outside.splice(0);
      const now = availableNow(parts);
      const changes = untold(heard, answered, latest, told(moved, now));
      moved.clear();
      known = now;
      if (!changes) return { messages };
      const note = changesNote(changes, maxChars);
      return { messages: appendNote.call(tools, messages, note), told: note };
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
  moved: Pick<Changes, "available" | "unavailable">,
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
  return { events, snapshot: latest.snapshot, ...moved };
}

/** Records in `moved` what changed from `before` to `after`: the last flip of each name counts. */
function flipped(moved: Map<string, boolean>, before: readonly string[], after: readonly string[]) {
  for (const name of after) if (!before.includes(name)) moved.set(name, true);
  for (const name of before) if (!after.includes(name)) moved.set(name, false);
}

/**
 * What of `moved` the note tells: only what still holds `now` (a command made available and
 * unavailable again is not told); nothing when the schema cannot be read now.
 */
function told(
  moved: ReadonlyMap<string, boolean>,
  now: readonly string[] | undefined,
): Pick<Changes, "available" | "unavailable"> {
  const available: string[] = [];
  const unavailable: string[] = [];
  if (now === undefined) return { available, unavailable };
  for (const [name, on] of moved) {
    if (on && now.includes(name)) available.push(name);
    if (!on && !now.includes(name)) unavailable.push(name);
  }
  return { available: available.sort(), unavailable: unavailable.sort() };
}

function maxCharsOf(options: ChangeNotesOptions): number {
  if (!isRecord(options)) {
    throw new TypeError(`changeNotes takes { maxChars }, not ${String(options)}`);
  }
  const { maxChars = DEFAULT_NOTE_CHARS }: { maxChars?: unknown } = options;
  if (
    typeof maxChars === "number" &&
    Number.isSafeInteger(maxChars) &&
    maxChars >= MIN_NOTE_CHARS
  ) {
    return maxChars;
  }
  throw new TypeError(
    `changeNotes: maxChars must be a whole number ≥ ${MIN_NOTE_CHARS}, not ${String(maxChars)}`,
  );
}
