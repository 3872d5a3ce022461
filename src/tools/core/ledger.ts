/**
 * The ledger port: where the approval layer records each call it runs and each paused turn it
 * resumes, so that a call runs at most once across a pause, a resume and a crash. Types, and the
 * check of an entry read back from a store; the in-memory ledger is approval/ledger.ts, durable
 * ones are ledgers/.
 */
import { isRecord } from "./json.js";
import type { Result } from "./result.js";
import type { Observation, ToolError } from "./types.js";

/** A value now, or the promise of it: a store answers either way. */
export type Awaitable<T> = T | PromiseLike<T>;

/**
 * A call's outcome as the ledger keeps it: plain JSON (a snapshot encoded as the model reads it,
 * an error without its `cause`), so it can be stored anywhere and replayed in another process.
 */
export type RecordedOutcome = Result<Observation, ToolError>;

/** Who holds a started call, and until when (ms since the epoch); renewed while `execute` runs. */
export interface LedgerLease {
  readonly holder: string;
  readonly until: number;
}

/**
 * One key in the ledger: `started` once its `execute` may have begun — by `holder`, who renews the
 * lease until `until` while it runs — and `answered` once its outcome is known. A call found
 * `started` whose lease ran out is never executed again: it may have taken effect before the
 * process died. One found `started` with a live lease is still running somewhere.
 */
export type LedgerEntry =
  | { readonly status: "started"; readonly holder: string; readonly until: number }
  | { readonly status: "answered"; readonly outcome: RecordedOutcome };

/**
 * Where the shell records each call it runs and each paused turn it resumes. Keys are opaque
 * strings the shell makes, already scoped to the run (a backend may prefix them). Backed by a real
 * store, `begin` must be durable before it returns and atomic (insert if absent, or a
 * compare-and-set), so two processes resuming the same state cannot both run a call. Every method
 * may throw or reject when the store is down: the call is then answered `ExecuteFailed` (reason
 * `ledger`), never run without a record. The ledger never closes the application's connection.
 *
 * @example
 * ```ts
 * // A ledger in a SQL table with a primary key on `key` (holder and until are the lease).
 * const ledger: CallLedger = {
 *   get: async (key) => readLedgerEntry(await db.get("select entry from ledger where key = ?", key)),
 *   begin: async (key, lease, expired) => ..., // insert if absent, or replace exactly `expired`
 *   renew: async (key, lease) => ...,          // update until where holder = lease.holder
 *   finish: async (key, outcome) => ...,       // update entry to answered
 * };
 * ```
 */
export interface CallLedger {
  /**
   * The entry under `key`, or undefined. A stored value that is not a valid entry throws
   * (corrupted: reported, never trusted) — `readLedgerEntry` does that check.
   */
  get(key: string): Awaitable<LedgerEntry | undefined>;
  /**
   * Atomic claim: records `{ status: "started", ...lease }` when `key` is absent, or, when
   * `expired` is given, when `key` holds exactly that started lease (same holder and until: a
   * compare-and-set that takes over a lease that ran out). True when this caller now holds it.
   */
  begin(key: string, lease: LedgerLease, expired?: LedgerLease): Awaitable<boolean>;
  /** Extends the lease to `lease.until` while `lease.holder` still holds `key`; false otherwise. */
  renew(key: string, lease: LedgerLease): Awaitable<boolean>;
  /** Records the call's outcome under `key` (only the holder calls it). */
  finish(key: string, outcome: RecordedOutcome): Awaitable<void>;
}

/**
 * `value` as a ledger entry — what a store gave back — or a `TypeError` saying why it is not one.
 * A durable ledger's `get` reads its stored value through it, so a corrupted entry is reported
 * (the call answered `ExecuteFailed`, reason `ledger`), never trusted.
 *
 * @example
 * ```ts
 * get: async (key) => {
 *   const text = await redis.get(key);
 *   return text === null ? undefined : readLedgerEntry(JSON.parse(text));
 * },
 * ```
 */
export function readLedgerEntry(value: unknown): LedgerEntry {
  if (isRecord(value)) {
    const { status, holder, until, outcome } = value;
    if (status === "started" && typeof holder === "string" && Number.isFinite(until)) {
      return { status, holder, until: until as number };
    }
    if (status === "answered" && isOutcome(outcome)) return { status, outcome };
  }
  throw new TypeError(
    `not a ledger entry (expected { status: "started", holder, until } or { status: "answered", outcome }): ${preview(value)}`,
  );
}

function isOutcome(value: unknown): value is RecordedOutcome {
  if (!isRecord(value)) return false;
  if (value.ok === true) return isRecord(value.value) && Array.isArray(value.value.events);
  return (
    value.ok === false &&
    isRecord(value.error) &&
    typeof value.error.kind === "string" &&
    typeof value.error.message === "string"
  );
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
