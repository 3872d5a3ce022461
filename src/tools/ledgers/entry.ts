/**
 * What every durable ledger shares: an entry as the JSON it is stored as, read back only when it
 * has the shape of an entry (a store can hold anything: another program's value, a truncated
 * write), and the error a store's failure becomes.
 */
import { isRecord } from "../core/json.js";
import type { LedgerEntry, LedgerLease, RecordedOutcome } from "../core/ledger.js";

/** The entry of a call that `lease.holder` runs, as stored. Key order is fixed: compared as text. */
export function startedText(lease: LedgerLease): string {
  return JSON.stringify(started(lease));
}

/** The entry of a call that `lease.holder` runs. */
export function started(lease: LedgerLease): LedgerEntry {
  return { status: "started", holder: lease.holder, until: lease.until };
}

/** The entry of a call whose outcome is known, as stored. */
export function answeredText(outcome: RecordedOutcome): string {
  return JSON.stringify({ status: "answered", outcome });
}

/** `text` as the entry stored at `key`; anything else is reported, never trusted. */
export function parseEntryText(text: string, key: string): LedgerEntry {
  return checkEntry(parseJson(text, key, "it"), key);
}

/** `text` as JSON; when it is not, the entry at `key` is corrupted. */
export function parseJson(text: string, key: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw corrupted(key, `${what} is not JSON`);
  }
}

/** `value` as the entry stored at `key`, when it has an entry's shape. */
export function checkEntry(value: unknown, key: string): LedgerEntry {
  if (!isRecord(value)) throw corrupted(key, "it is not an object");
  if (value.status === "started") {
    const { holder, until } = value;
    if (typeof holder !== "string") throw corrupted(key, "its holder is not a string");
    if (typeof until !== "number" || !Number.isFinite(until)) {
      throw corrupted(key, "its lease end is not a number");
    }
    return { status: "started", holder, until };
  }
  if (value.status === "answered") {
    const outcome = value.outcome;
    if (!isOutcome(outcome)) throw corrupted(key, "its outcome is not a tool call's result");
    return { status: "answered", outcome };
  }
  throw corrupted(key, 'its status is neither "started" nor "answered"');
}

/** A `Result` of an observation or a tool error, as the shell records one. */
function isOutcome(value: unknown): value is RecordedOutcome {
  if (!isRecord(value)) return false;
  if (value.ok === true) return isRecord(value.value) && Array.isArray(value.value.events);
  if (value.ok === false) {
    const error = value.error;
    return isRecord(error) && typeof error.kind === "string" && typeof error.message === "string";
  }
  return false;
}

/** The error of a value at `key` that is not an entry. */
export function corrupted(key: string, why: string): Error {
  return new Error(`corrupted ledger entry at ${key}: ${why}; it is not trusted`);
}

/**
 * Runs one operation on the store, and names the store, the operation and the entry when it fails
 * (down, timed out, refused): the shell puts that message in the call's `ExecuteFailed` answer.
 */
export async function onStore<T>(
  store: string,
  operation: string,
  where: string,
  run: () => PromiseLike<T>,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new Error(`${store} ledger could not ${operation} ${where}: ${why}`, { cause });
  }
}
