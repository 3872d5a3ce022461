/**
 * Reading what the application's code returned — `execute()`'s result and `project()`'s — as an
 * observation, checked: whatever its type says, a value that is not `{ state, events? }` is an
 * answer the model can read, never a throw.
 */
import type { ContentPart } from "../core/content.js";
import { describe, executeFailed } from "../core/errors.js";
import { err, ok, type Result } from "../core/result.js";
import type { NeutralToolCall, Observation, RuntimeEvent, ToolError } from "../core/types.js";

/** How a result's `content` is read: as parts (`contentParts()`), or refused. */
export type PartsReader = (content: unknown) => Result<readonly ContentPart[], string>;

/** A bridge built without `contentParts()` sends no parts: a result with some is refused. */
export const noParts: PartsReader = () =>
  err("content is sent only by a bridge built with content: contentParts()");

/** What `project` made of an observation, checked: a bad projection is still an answer. */
export function projected<S, E extends RuntimeEvent>(
  project: (observation: Observation<S, E>, call: NeutralToolCall) => Observation,
  call: NeutralToolCall,
  observation: Observation<S, E>,
  parts: PartsReader,
): Result<Observation, ToolError> {
  let cause: unknown;
  let read: Result<Observation, string>;
  try {
    read = readObservation(project(observation, call), "project()", "snapshot", parts);
  } catch (error) {
    read = err(describe(error));
    cause = error;
  }
  if (read.ok) return read;
  const detail = `ran, but its result could not be prepared for you (${read.error}). Do not call it again to retry.`;
  return err(executeFailed(call.name, "projection", detail, { cause, called: call.toolName }));
}

/** `execute()`'s result as an observation; a missing `events` is none, a missing `state` a bug. */
export function readResult<S, E extends RuntimeEvent>(
  command: string,
  called: string,
  result: unknown,
  parts: PartsReader,
): Result<Observation<S, E>, ToolError> {
  let read: Result<Observation, string>;
  try {
    read = readObservation(result, "execute()", "state", parts);
  } catch (error) {
    read = err(`execute() returned a result that could not be read (${describe(error)})`);
  }
  // Typed by the component's own `execute`; at runtime only its shape could be checked.
  if (read.ok) return read as Result<Observation<S, E>, never>;
  return err(executeFailed(command, "malformed-result", read.error, { cause: result, called }));
}

/**
 * `value` — what `execute` or `project` returned, whatever its type says — read as
 * `{ [key], events?, content? }`: a missing `events` is none, a missing `state` is an error (a
 * `snapshot` may be left out), `content` is read by `parts`. Throws what a getter or a proxy trap
 * throws.
 */
function readObservation(
  value: unknown,
  who: string,
  key: "state" | "snapshot",
  parts: PartsReader,
): Result<Observation, string> {
  if (typeof value !== "object" || value === null) {
    return err(`${who} returned ${String(value)} instead of { ${key}, events }`);
  }
  if (key === "state" && !("state" in value)) {
    return err(`${who} returned an object without \`state\` instead of { state, events }`);
  }
  const read = value as Record<string, unknown>;
  const events = read.events;
  if (events !== undefined && !Array.isArray(events)) {
    return err(`${who} returned \`events\` that is not an array`);
  }
  const observation: Observation = { snapshot: read[key], events: events ?? [] };
  const { content } = read;
  if (content === undefined) return ok(observation);
  const checked = parts(content);
  if (!checked.ok) return err(`${who} returned a result whose ${checked.error}`);
  observation.content = checked.value;
  return ok(observation);
}
