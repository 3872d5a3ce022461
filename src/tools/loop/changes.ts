/**
 * The note a model reads when the component changed while it was not looking: the events that
 * happened outside its own calls, oldest first, the state now, and the commands that became
 * available or unavailable — in plain words, never longer than the cap. Pure: text in, text out.
 */
import { cappedJson, cappedLine, MIN_RESULT_CHARS, toJsonText } from "../wire/result-text.js";

/** What changed outside the model's calls since its previous request. */
export interface Changes {
  /** The events, oldest first. */
  readonly events: readonly unknown[];
  /** The component's state now. */
  readonly snapshot: unknown;
  /** The commands available now that were not at the previous request. */
  readonly available: readonly string[];
  /** The commands available at the previous request that are not now. */
  readonly unavailable: readonly string[];
}

/** The default cap on one note, in characters (about 400 tokens). */
export const DEFAULT_NOTE_CHARS = 1500;

/** The smallest cap a note takes: room for what every note says and a little of the state. */
export const MIN_NOTE_CHARS = 500;

/** The most events a note lists one by one; the rest are counted. */
export const MAX_NOTE_EVENTS = 20;

const HEADER = "Since your last request, this changed outside your own tool calls:";
const NO_EVENT = "The state changed (no event was reported).";
const EVENTS = "Events, oldest first:";
const STATE = "State now: ";
// One event's JSON, at most: a long payload is cut, and the list goes on.
const EVENT_CHARS = 300;
// One line of command names, at most.
const NAMES_CHARS = 100;

/**
 * The note for `changes`, at most `maxChars` long (at least `MIN_NOTE_CHARS`): at most
 * `MAX_NOTE_EVENTS` events, each as its JSON, then how many more there were; the state as its
 * JSON (cut as a result is, when long); and which commands became available or unavailable.
 *
 * @example
 * ```
 * Since your last request, this changed outside your own tool calls:
 * Events, oldest first:
 * - {"type":"preheated"}
 * State now: {"temperature":180,"preheated":true,"door":"closed"}
 * Now available: bake
 * ```
 */
export function changesNote(changes: Changes, maxChars = DEFAULT_NOTE_CHARS): string {
  const names: string[] = [];
  if (changes.available.length > 0) names.push(namesLine("Now available", changes.available));
  if (changes.unavailable.length > 0) {
    names.push(namesLine("No longer available", changes.unavailable));
  }
  // What every note says, and a floor for the events: the state takes at most half the rest.
  const fixed = [HEADER, ...names].join("\n").length + 1;
  const stateRoom = Math.max(MIN_RESULT_CHARS, Math.floor((maxChars - fixed) / 2) - STATE.length);
  const state = `${STATE}${cappedJson(toJsonText(changes.snapshot), stateRoom)}`;
  const room = maxChars - fixed - state.length - 1;
  const events = changes.events.length === 0 ? NO_EVENT : eventLines(changes.events, room);
  const note = [HEADER, events, state, ...names].join("\n");
  // Never reached by the arithmetic above for a cap of at least MIN_NOTE_CHARS; kept so the
  // bound holds whatever a future line costs.
  return cappedLine(note, maxChars);
}

/** `label: a, b, c`, cut to `NAMES_CHARS`. */
function namesLine(label: string, names: readonly string[]): string {
  return cappedLine(`${label}: ${names.join(", ")}`, NAMES_CHARS);
}

/**
 * The events as lines, oldest first, in at most `room` characters: each event's JSON while it
 * fits (and `MAX_NOTE_EVENTS` are not listed yet), then `- and N more events`.
 */
function eventLines(events: readonly unknown[], room: number): string {
  const lines = [EVENTS];
  let used = EVENTS.length;
  const rest = (left: number) => `- and ${left} more event${left === 1 ? "" : "s"}`;
  for (let index = 0; index < events.length; index++) {
    const left = events.length - index;
    if (index === MAX_NOTE_EVENTS) break;
    // What the lines after this one need, should they not all fit: the count of the rest.
    const reserve = left > 1 ? 1 + rest(left - 1).length : 0;
    const free = Math.min(room - used - 1 - 2 - reserve, EVENT_CHARS);
    const json = toJsonText(events[index]);
    // A long event is cut as a long result is, when there is room for that; else the list stops.
    if (json.length > free && free < MIN_RESULT_CHARS) break;
    const line = `- ${cappedJson(json, free)}`;
    lines.push(line);
    used += 1 + line.length;
  }
  const shown = lines.length - 1;
  if (shown < events.length) lines.push(rest(events.length - shown));
  return lines.join("\n");
}
