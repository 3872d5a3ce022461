/**
 * The in-memory ledgers: the application's own (`memoryLedger`) and the one a resume uses when it
 * is given none (one per process or page, bounded).
 */
import {
  type CallLedger,
  type LedgerEntry,
  type LedgerLease,
  readLedgerEntry,
} from "../core/ledger.js";

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
