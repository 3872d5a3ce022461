/**
 * The ledger of answered calls: what makes a call run at most once across a pause, a resume and a
 * crash, and a paused turn resumed at most once. It is a port — an in-memory default held by the
 * process, or any store of the application's — and the shell is its only user.
 */
import { isRecord } from "../core/json.js";
import type { Result } from "../core/result.js";
import type { Observation, ToolError } from "../core/types.js";

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

/** The in-memory ledger: a `CallLedger` whose entries can be read out as plain JSON. */
export interface MemoryLedger extends CallLedger {
  /** Every entry, as plain JSON: store it, and give it back to `memoryLedger` to go on. */
  entries(): Record<string, LedgerEntry>;
}

/** Options of `memoryLedger`. */
export interface MemoryLedgerOptions {
  /**
   * The most entries kept: past it, the oldest answered entries are dropped (a started one, still
   * running or left by a resume that threw, is kept until it is answered).
   *
   * @default Infinity — every entry is kept
   */
  maxEntries?: number;
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

/**
 * A ledger held in memory, starting from `entries` (what an earlier `entries()` returned): exactly
 * once within this process. A process that may die while a call runs, or several processes
 * resuming the same states, need one durable `CallLedger` instead (see docs/approval.md).
 *
 * @example
 * ```ts
 * const ledger = memoryLedger();
 * await tools.answerToolCalls(response, { ledger, scope: "conversation-42/turn-3" });
 * save(JSON.stringify(ledger.entries()));
 * ```
 */
export function memoryLedger(
  entries: Record<string, LedgerEntry> = {},
  options: MemoryLedgerOptions = {},
): MemoryLedger {
  const held = new Map<string, LedgerEntry>();
  for (const [key, entry] of Object.entries(entries)) held.set(key, readLedgerEntry(entry));
  const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
  if (!(max >= 1)) throw new TypeError("memoryLedger: maxEntries must be at least 1");
  const holds = (key: string, lease: LedgerLease) => {
    const entry = held.get(key);
    return entry?.status === "started" && entry.holder === lease.holder ? entry : undefined;
  };
  // Map order is insertion order: the first answered entries met are the oldest.
  const trim = () => {
    if (held.size <= max) return;
    for (const [key, entry] of held) {
      if (entry.status === "answered") held.delete(key);
      if (held.size <= max) return;
    }
  };
  return {
    // Every entry was read when it came in (given, or recorded by the shell).
    get: (key) => held.get(key),
    begin: (key, lease, expired) => {
      const entry = held.get(key);
      // Absent, or still exactly the lease that ran out: a compare-and-set.
      const free =
        entry === undefined ||
        (expired !== undefined &&
          entry.status === "started" &&
          entry.holder === expired.holder &&
          entry.until === expired.until);
      if (!free) return false;
      held.delete(key);
      held.set(key, { status: "started", holder: lease.holder, until: lease.until });
      trim();
      return true;
    },
    renew: (key, lease) => {
      if (!holds(key, lease)) return false;
      held.set(key, { status: "started", holder: lease.holder, until: lease.until });
      return true;
    },
    finish: (key, outcome) => {
      held.set(key, { status: "answered", outcome });
      trim();
    },
    entries: () => Object.fromEntries(held),
  };
}

/** How many entries the process's own ledger keeps: about 10 000 resumes. */
export const DEFAULT_LEDGER_ENTRIES = 10_000;

let processLedger: MemoryLedger | undefined;

/**
 * The ledger a resume uses when the application gives none: one per process (or page), bounded
 * to `DEFAULT_LEDGER_ENTRIES` entries, the oldest answered ones dropped first.
 */
export function defaultLedger(): MemoryLedger {
  processLedger ??= memoryLedger({}, { maxEntries: DEFAULT_LEDGER_ENTRIES });
  return processLedger;
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
