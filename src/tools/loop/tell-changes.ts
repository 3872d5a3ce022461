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
import { liveOf } from "../live/live.js";
import { observe } from "../live/observe.js";
import { toJsonValue } from "../wire/result-text.js";
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

/**
 * What a run's change notes heard outside the model's calls and had not told when it paused for
 * approval, as plain JSON: carried in the paused state (`ToolLoopState.untold`) and told at the
 * resumed loop's first request, before what the resume itself heard. Without events, what was
 * heard is a change of state that came without one.
 */
export interface UntoldChanges {
  /** The events, oldest first, as JSON. */
  readonly events: readonly unknown[];
  /** The commands the world made available since the request before the pause. */
  readonly available: readonly string[];
  /** The commands the world made unavailable since the request before the pause. */
  readonly unavailable: readonly string[];
}

/** The change notes of a loop: what `tellChanges` takes. */
export interface ChangeNotes {
  readonly layer: "changeNotes";
  /** The longest note, in characters. */
  readonly maxChars: number;
  /**
   * Starts telling one run over `tools`, observed from now; a `TypeError` (by `who`) when it
   * cannot. `untold` is what the paused run it resumes heard and did not tell: told at its first
   * request, first.
   */
  start<S, E extends RuntimeEvent, Message>(
    tools: Told<S, E, Message>,
    who: string,
    untold?: UntoldChanges,
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
  /**
   * What was heard and not told yet, as plain JSON for a paused state — `undefined` when nothing
   * was — `answered` being the answers the paused turn gave (what the model will read of it).
   * Nothing of it is told by this teller afterwards.
   */
  pause(answered: readonly ToolCallAnswer<S, E, unknown>[]): UntoldChanges | undefined;
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
    start: (tools, who, untold) => teller(tools, maxChars, who, untold),
  };
}

function teller<S, E extends RuntimeEvent, Message>(
  tools: Told<S, E, Message>,
  maxChars: number,
  who: string,
  untold: UntoldChanges | undefined,
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
  // What the paused run heard and did not tell: the first note's, before what this one hears;
  // what the world made available then counts as this interval's, its last flip still winning.
  let carried = untold;
  for (const name of carried?.available ?? []) moved.set(name, true);
  for (const name of carried?.unavailable ?? []) moved.set(name, false);
  let stop: (() => void) | undefined;
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
    // The state the first note tells, should nothing change before it.
    const live = liveOf(parts);
    if (carried && live) latest = { snapshot: live.snapshot() };
  } catch (error) {
    stop?.();
    throw new TypeError(`${who}: tellChanges could not observe the component: ${describe(error)}`, {
      cause: error,
    });
  }
  const release = stop;
  /** What changed since the last request, and not told yet; the next interval starts. */
  const gather = (answered: readonly ToolCallAnswer<S, E, unknown>[]) => {
    const heard = outside.splice(0);
    const now = availableNow(parts);
    const changes = notTold(carried, heard, answered, latest, told(moved, now));
    carried = undefined;
    moved.clear();
    known = now;
    return changes;
  };

  return {
    tell(messages, answered) {
      const changes = gather(answered);
      if (!changes) return { messages };
      const note = changesNote(changes, maxChars);
      return { messages: appendNote.call(tools, messages, note), told: note };
    },
    pause(answered) {
      const changes = gather(answered);
      if (!changes) return undefined;
      const { events, available, unavailable } = changes;
      // Plain JSON, as the paused state is: each event as the note would write it.
      const json = events.map((event) => toJsonValue(event) ?? null);
      return { events: json, available: [...available], unavailable: [...unavailable] };
    },
    stop: () => release(),
  };
}

/**
 * What of `heard` the model has not read yet, after what a paused run `carried` untold: an event
 * an answer of the turn carried (by identity, each answer's event once) is left out, as is a
 * change of state alone to a snapshot an answer carried. `undefined` when nothing is left.
 */
function notTold<S, E extends RuntimeEvent>(
  carried: UntoldChanges | undefined,
  heard: readonly LiveChange<S, E>[],
  answered: readonly ToolCallAnswer<S, E, unknown>[],
  latest: LiveChange<S, E> | undefined,
  moved: Pick<Changes, "available" | "unavailable">,
): Changes | undefined {
  if ((heard.length === 0 && carried === undefined) || latest === undefined) return undefined;
  const readEvents: unknown[] = [];
  const readSnapshots = new Set<unknown>();
  for (const { outcome } of answered) {
    if (!outcome.ok) continue;
    readEvents.push(...outcome.value.events);
    readSnapshots.add(outcome.value.snapshot);
  }
  const events: unknown[] = [...(carried?.events ?? [])];
  // A paused run carries something only when it heard a change the model did not read.
  let stateChanged = carried !== undefined;
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
