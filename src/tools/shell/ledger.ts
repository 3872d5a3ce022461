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

/**
 * One call in the ledger: `started` once its `execute` may have begun, `answered` once its outcome
 * is known. A call found `started` without an outcome is never executed again: it may have taken
 * effect before the process died.
 */
export type LedgerEntry =
  | { readonly status: "started" }
  | { readonly status: "answered"; readonly outcome: RecordedOutcome };

/**
 * Where the shell records each call it runs, keyed by the call's binding digest (its id, command
 * and validated input). Backed by a real store, `begin` must be durable before it returns — and
 * atomic (insert if absent), so two processes resuming the same state cannot both run a call.
 *
 * @example
 * ```ts
 * // A ledger in a SQL table with a primary key on `key`.
 * const ledger: CallLedger = {
 *   get: async (key) => rowToEntry(await db.get("select * from ledger where key = ?", key)),
 *   begin: async (key) =>
 *     (await db.run("insert or ignore into ledger (key, status) values (?, 'started')", key))
 *       .changes === 1,
 *   finish: async (key, outcome) => {
 *     await db.run("update ledger set status = 'answered', outcome = ? where key = ?",
 *       JSON.stringify(outcome), key);
 *   },
 * };
 * ```
 */
export interface CallLedger {
  /** The entry for `key`, when there is one. */
  get(key: string): LedgerEntry | undefined | PromiseLike<LedgerEntry | undefined>;
  /**
   * Records `key` as `started`, before its `execute` runs. Returns `false`, and records nothing,
   * when `key` already has an entry: the call is then not executed.
   */
  begin(key: string): boolean | PromiseLike<boolean>;
  /** Records the outcome of `key`, after its `execute` settled. */
  finish(key: string, outcome: RecordedOutcome): void | PromiseLike<void>;
}

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
  return {
    get: (key) => held.get(key),
    begin: (key) => {
      if (held.has(key)) return false;
      held.set(key, { status: "started" });
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
    begin: (key) => ledger.begin(`${scope}/${key}`),
    finish: (key, outcome) => ledger.finish(`${scope}/${key}`, outcome),
  };
}
