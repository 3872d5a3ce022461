/**
 * Exactly once: a call given a ledger is looked up before it runs (one already answered is
 * replayed, one still running elsewhere waited for, one left by a process that died answered
 * `interrupted` — or run again when that is safe), and recorded before and after it runs under a
 * lease its holder renews.
 */

import type { Run } from "../bridge/pipeline.js";
import { describe, executeFailed } from "../core/errors.js";
import type { CallLedger, LedgerEntry, RecordedOutcome } from "../core/ledger.js";
import { err, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { toJsonValue } from "../wire/result-text.js";
import { isDenying, keepLease, type Leasing, type TakeRule, take } from "./lease.js";

/** One call's place in a ledger: under which key, held by whom, and what it may take over. */
export interface Recording {
  readonly ledger: CallLedger;
  readonly key: string;
  readonly leasing: Leasing;
  readonly rule: TakeRule;
}

/** How a call of a command that is, or is not, `idempotent` meets another holder of its key. */
export function ruleFor(idempotent: boolean, signal: AbortSignalLike | undefined): TakeRule {
  return {
    // Running an idempotent command again is running it once; a holder that only recorded a
    // denial ran nothing. Any other holder that died may have taken effect.
    retakes: (entry) => idempotent || isDenying(entry),
    outlast: { signal },
  };
}

/**
 * What the ledger already holds of a call, read before anything is asked about it: `undefined`
 * when it holds nothing (or this call now holds the entry of a holder that is gone, to run it),
 * else the answer it comes to.
 */
export async function lookUp<S, E extends RuntimeEvent>(
  recording: Recording,
  route: Route,
  called: string,
): Promise<{ held: boolean; outcome?: Result<Observation<S, E>, ToolError> }> {
  const { ledger, key, leasing, rule } = recording;
  try {
    const found = await ledger.get(key);
    if (!found) return { held: false };
    const taken = await take(ledger, key, leasing, rule, found);
    if (taken.held) return { held: true };
    return { held: false, outcome: answerOf(taken.entry, route, called, rule) };
  } catch (error) {
    return {
      held: false,
      outcome: ledgerFailed(route, called, `${NOT_RUN}: the ledger could not be read`, error),
    };
  }
}

/**
 * Runs the call once under `recording`: its intent recorded first (once recorded, it never runs
 * again, even if the process dies before its outcome is), its lease renewed while it runs, its
 * outcome recorded after. `held` says this call already holds the key.
 */
export async function recorded<S, E extends RuntimeEvent>(
  recording: Recording,
  route: Route,
  called: string,
  held: boolean,
  run: () => Run<S, E> | Promise<Run<S, E>>,
): Promise<Run<S, E>> {
  const { ledger, key, leasing, rule } = recording;
  try {
    if (!held) {
      const taken = await take(ledger, key, leasing, rule);
      // Someone else recorded it first: their answer, once they have one.
      if (!taken.held) return { outcome: answerOf(taken.entry, route, called, rule) };
    }
  } catch (error) {
    const detail = `${NOT_RUN}: the ledger could not record that it starts`;
    return { outcome: ledgerFailed(route, called, detail, error) };
  }
  const stop = keepLease(ledger, key, leasing);
  let result: Run<S, E>;
  try {
    result = await run();
  } finally {
    stop();
  }
  try {
    await ledger.finish(key, recordOutcome(result.outcome));
  } catch (error) {
    const failure = ledgerFailed(
      route,
      called,
      "ran, but its outcome could not be recorded: the ledger failed",
      error,
    );
    return {
      route: result.route,
      outcome: err({
        ...failure.error,
        message: `${failure.error.message} It ran: check the state before calling it again.`,
      }),
    };
  }
  return result;
}

const NOT_RUN = "was not run";

function ledgerFailed(route: Route, called: string, detail: string, cause: unknown) {
  return err(
    executeFailed(route.command, "ledger", `${detail} (${describe(cause)}).`, { cause, called }),
  );
}

/**
 * The answer of a call whose key another holds or held: its recorded outcome — waited for while
 * it runs elsewhere, never "interrupted" while it runs — or `cancelled` when the wait was aborted.
 */
function answerOf<S, E extends RuntimeEvent>(
  entry: LedgerEntry | undefined,
  route: Route,
  called: string,
  rule: TakeRule,
): Result<Observation<S, E>, ToolError> {
  if (entry) return replay(entry, route.command, called);
  const detail = "was aborted while it waited for another process running it; this one ran nothing";
  const cause = rule.outlast?.signal?.reason;
  return err(executeFailed(route.command, "cancelled", detail, { cause, called }));
}

/** A ledger entry as the call's answer: its recorded outcome, or "may have taken effect". */
export function replay<S, E extends RuntimeEvent>(
  entry: LedgerEntry,
  command: string,
  called: string,
): Result<Observation<S, E>, ToolError> {
  // Recorded from this component's own outcome; only its JSON form survived the store.
  if (entry.status === "answered") return entry.outcome as Result<Observation<S, E>, ToolError>;
  const detail =
    "was started earlier but its outcome was never recorded (the process running it stopped). " +
    "It may have taken effect: check the state before calling it again.";
  return err(executeFailed(command, "interrupted", detail, { called }));
}

/** An outcome as plain JSON: the snapshot encoded as the model reads it, an error without `cause`. */
export function recordOutcome(outcome: Result<Observation, ToolError>): RecordedOutcome {
  // The JSON form of an outcome is an outcome: the encoding keeps every field but `cause`.
  return toJsonValue(
    outcome.ok ? outcome : { ok: false, error: { ...outcome.error, cause: undefined } },
  ) as RecordedOutcome;
}
