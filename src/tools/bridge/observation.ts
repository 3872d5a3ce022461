/**
 * Reading what the application's code returned — `execute()`'s result and `project()`'s — as an
 * observation, checked: whatever its type says, a value that is not `{ state, events? }` is an
 * answer the model can read, never a throw.
 */
import { describe, executeFailed } from "../core/errors.js";
import { err, ok, type Result } from "../core/result.js";
import type { NeutralToolCall, Observation, RuntimeEvent, ToolError } from "../core/types.js";

/** What `project` made of an observation, checked: a bad projection is still an answer. */
export function projected<S, E extends RuntimeEvent>(
  project: (observation: Observation<S, E>, call: NeutralToolCall) => Observation,
  call: NeutralToolCall,
  observation: Observation<S, E>,
): Result<Observation, ToolError> {
  let cause: unknown;
  let read: Result<Observation, string>;
  try {
    read = readObservation(project(observation, call), "project()", "snapshot");
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
): Result<Observation<S, E>, ToolError> {
  let read: Result<Observation, string>;
  try {
    read = readObservation(result, "execute()", "state");
  } catch (error) {
    read = err(`execute() returned a result that could not be read (${describe(error)})`);
  }
  // Typed by the component's own `execute`; at runtime only its shape could be checked.
  if (read.ok) return read as Result<Observation<S, E>, never>;
  return err(executeFailed(command, "malformed-result", read.error, { cause: result, called }));
}

/**
 * `value` — what `execute` or `project` returned, whatever its type says — read as
 * `{ [key], events? }`: a missing `events` is none, a missing `state` is an error (a `snapshot`
 * may be left out). Throws what a getter or a proxy trap throws.
 */
function readObservation(
  value: unknown,
  who: string,
  key: "state" | "snapshot",
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
  return ok({ snapshot: read[key], events: events ?? [] });
}
