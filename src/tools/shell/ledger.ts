/**
 * The ledger of answered calls: what makes a call run at most once across a pause, a resume and a
 * crash. It is a port — an in-memory default that travels inside a loop's serialized state, or any
 * store of the application's — and the shell is its only user.
 */
import type { Result } from "../core/result.js";
import type { Observation, ToolError } from "../core/types.js";

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
 * One call in the ledger: `started` once its `execute` may have begun (with the lease of the
 * process running it), `answered` once its outcome is known. A call found `started` without an
 * outcome is never executed again: it may have taken effect before the process died.
 */
export type LedgerEntry =
  | { readonly status: "started"; readonly holder: string; readonly until: number }
  | { readonly status: "answered"; readonly outcome: RecordedOutcome };

/**
 * Where the shell records each call it runs, keyed by the call's binding digest (already scoped to
 * the run; a backend may prefix it). Backed by a real store, `begin` must be durable before it
 * returns — and atomic, so two processes resuming the same state cannot both run a call. Every
 * method may reject when the store is down: the shell answers the call `ExecuteFailed`. A ledger
 * never closes the application's connection. `ignite-element/tools/ledger-redis` and
 * `ignite-element/tools/ledger-postgres` are two (docs/ledgers.md).
 */
export interface CallLedger {
  /**
   * The entry under `key`, or undefined. A stored value that is not a valid entry throws
   * (corrupted: reported, never trusted).
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

/** A value, or a promise of it: what a ledger's methods return, in memory or from a store. */
export type Awaitable<T> = T | PromiseLike<T>;

/** The in-memory ledger: a `CallLedger` whose entries can be read out as plain JSON. */
export interface MemoryLedger extends CallLedger {
  /** Every entry, as plain JSON: store it, and give it back to `memoryLedger` to go on. */
  entries(): Record<string, LedgerEntry>;
}

/**
 * A ledger held in memory, starting from `entries` (what an earlier `entries()` returned). A loop's
 * state carries it, so storing the state stores the ledger; a process that may die while a call
 * runs needs a durable `CallLedger` instead (see docs/approval.md).
 *
 * @example
 * ```ts
 * const ledger = memoryLedger();
 * await tools.answerToolCalls(response, { ledger });
 * save(JSON.stringify(ledger.entries()));
 * ```
 */
export function memoryLedger(entries: Record<string, LedgerEntry> = {}): MemoryLedger {
  const held = new Map(Object.entries(entries));
  const holds = (key: string, lease: LedgerLease) => {
    const entry = held.get(key);
    return (
      entry?.status === "started" && entry.holder === lease.holder && entry.until === lease.until
    );
  };
  return {
    get: (key) => held.get(key),
    begin: (key, lease, expired) => {
      if (held.has(key) && !(expired && holds(key, expired))) return false;
      held.set(key, { status: "started", holder: lease.holder, until: lease.until });
      return true;
    },
    renew: (key, lease) => {
      const entry = held.get(key);
      if (entry?.status !== "started" || entry.holder !== lease.holder) return false;
      held.set(key, { status: "started", holder: lease.holder, until: lease.until });
      return true;
    },
    finish: (key, outcome) => {
      held.set(key, { status: "answered", outcome });
    },
    entries: () => Object.fromEntries(held),
  };
}

/** `ledger` with every key under `scope`: one loop turn's calls never meet another turn's. */
export function scopedLedger(ledger: CallLedger, scope: string): CallLedger {
  return {
    get: (key) => ledger.get(`${scope}/${key}`),
    begin: (key, lease, expired) => ledger.begin(`${scope}/${key}`, lease, expired),
    renew: (key, lease) => ledger.renew(`${scope}/${key}`, lease),
    finish: (key, outcome) => ledger.finish(`${scope}/${key}`, outcome),
  };
}
