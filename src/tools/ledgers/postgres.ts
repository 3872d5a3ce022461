/**
 * A `CallLedger` in a PostgreSQL table, on the application's own `pg` pool or client: one row per
 * call. `begin` is one `INSERT … ON CONFLICT DO NOTHING` on the primary key (with `DO UPDATE …
 * WHERE` the lease it takes over), `renew` and `finish` are `UPDATE`s. No statement raises on a
 * taken key, so the ledger can run inside the application's transaction without aborting it.
 *
 * The client is typed by the one method used, so this entrypoint never loads `pg` itself.
 */

import { isRecord } from "../core/json.js";
import type { CallLedger, LedgerEntry, LedgerLease, RecordedOutcome } from "../core/ledger.js";
import { checkEntry, corrupted, onStore, parseJson } from "./entry.js";

/**
 * What the ledger needs of a PostgreSQL client: `query(text, values)` resolving with the rows and
 * how many rows the statement touched. A `pg` `Pool`, `Client` or `PoolClient` is one.
 */
export interface PostgresClientLike {
  query(text: string, values: unknown[]): PromiseLike<{ rows: unknown[]; rowCount: number | null }>;
}

/** A `CallLedger` in PostgreSQL: every method returns a promise, and rejects when the database fails. */
export interface PostgresLedger extends CallLedger {
  get(key: string): Promise<LedgerEntry | undefined>;
  begin(key: string, lease: LedgerLease, expired?: LedgerLease): Promise<boolean>;
  renew(key: string, lease: LedgerLease): Promise<boolean>;
  finish(key: string, outcome: RecordedOutcome): Promise<void>;
}

/** Options of {@link postgresLedger} and {@link createLedgerTable}. */
export interface PostgresLedgerOptions {
  /**
   * The table, optionally with its schema (`app.ledger`); created by `ledgerTableSql`.
   * @default "ignite_ledger"
   */
  table?: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

function tableOf(options: PostgresLedgerOptions): string {
  const table = options.table ?? "ignite_ledger";
  // The name goes into the SQL text (a table cannot be a parameter): only plain identifiers.
  if (!IDENTIFIER.test(table)) {
    throw new RangeError(
      `postgresLedger: the table must be a plain identifier such as ignite_ledger or app.ledger, not ${JSON.stringify(table)}`,
    );
  }
  return table;
}

/**
 * The `CREATE TABLE IF NOT EXISTS` statement of the ledger's table: run it in your migrations, or
 * call {@link createLedgerTable}. `written_at` is there for the application's clean-up (delete
 * the rows older than a paused state may be resumed).
 *
 * @example
 * ```ts
 * console.log(ledgerTableSql("app.ledger"));
 * ```
 */
export function ledgerTableSql(table = "ignite_ledger"): string {
  const name = tableOf({ table });
  // The lease end is a double precision, not a bigint: it holds any JS number exactly as given,
  // so the takeover's equality on it compares what `get` returned.
  return `CREATE TABLE IF NOT EXISTS ${name} (
  key text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('started', 'answered')),
  holder text,
  lease_until double precision,
  outcome jsonb,
  written_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status = 'answered' OR (holder IS NOT NULL AND lease_until IS NOT NULL)),
  CHECK (status = 'started' OR outcome IS NOT NULL)
)`;
}

/** Creates the ledger's table when it is missing (`ledgerTableSql` on `db`). */
export async function createLedgerTable(
  db: PostgresClientLike,
  options: PostgresLedgerOptions = {},
): Promise<void> {
  const table = tableOf(options);
  await onStore("PostgreSQL", "create", table, () => db.query(ledgerTableSql(table), []));
}

/**
 * A `CallLedger` in a PostgreSQL table (create it with `createLedgerTable` or `ledgerTableSql`).
 * Give every process that may resume the same state a ledger on the same database. On a `Pool`
 * each statement commits on its own: `begin` is durable before `execute` runs. On a client inside
 * your transaction the entries commit (or roll back) with your own writes. The ledger never
 * connects, releases or ends the client.
 *
 * @example
 * ```ts
 * import pg from "pg";
 * import { postgresLedger } from "ignite-element/tools/ledger-postgres";
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const ledger = postgresLedger(pool);
 * await tools.handleToolCalls(response, { ledger });
 * ```
 */
export function postgresLedger(
  db: PostgresClientLike,
  options: PostgresLedgerOptions = {},
): PostgresLedger {
  const table = tableOf(options);
  const store = (operation: string, key: string, text: string, values: unknown[]) =>
    onStore("PostgreSQL", operation, `${key} in ${table}`, () => db.query(text, values));
  const selectSql = `SELECT status, holder, lease_until::text AS lease_until, outcome::text AS outcome FROM ${table} WHERE key = $1`;
  const beginSql = `INSERT INTO ${table} (key, status, holder, lease_until) VALUES ($1, 'started', $2, $3) ON CONFLICT (key) DO NOTHING`;
  const takeOverSql = `INSERT INTO ${table} AS entry (key, status, holder, lease_until) VALUES ($1, 'started', $2, $3)
ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until, written_at = now()
WHERE entry.status = 'started' AND entry.holder = $4 AND entry.lease_until = $5`;
  const renewSql = `UPDATE ${table} SET lease_until = $3, written_at = now() WHERE key = $1 AND status = 'started' AND holder = $2`;
  const finishSql = `UPDATE ${table} SET status = 'answered', holder = NULL, lease_until = NULL, outcome = $2::jsonb, written_at = now() WHERE key = $1`;

  return {
    get: async (key) => {
      const { rows } = await store("read", key, selectSql, [key]);
      const [row] = rows;
      return row === undefined ? undefined : rowToEntry(row, `${key} in ${table}`);
    },
    begin: async (key, lease, expired) => {
      const { rowCount } = expired
        ? await store("take over", key, takeOverSql, [
            key,
            lease.holder,
            lease.until,
            expired.holder,
            expired.until,
          ])
        : await store("begin", key, beginSql, [key, lease.holder, lease.until]);
      return rowCount === 1;
    },
    renew: async (key, lease) => {
      const { rowCount } = await store("renew", key, renewSql, [key, lease.holder, lease.until]);
      return rowCount === 1;
    },
    finish: async (key, outcome) => {
      // As text with a cast: `pg` would send a JS array as a PostgreSQL array, not JSON.
      const { rowCount } = await store("finish", key, finishSql, [key, JSON.stringify(outcome)]);
      if (rowCount !== 1) {
        throw new Error(
          `PostgreSQL ledger could not finish ${key} in ${table}: its row is gone (deleted), so the outcome is not recorded`,
        );
      }
    },
  };
}

/** A row as the entry it stores, read from text so that no type parser of the pool changes it. */
function rowToEntry(row: unknown, where: string): LedgerEntry {
  if (!isRecord(row)) throw corrupted(where, "it is not a row");
  const { status, holder, lease_until: until, outcome } = row;
  if (status === "started") {
    return checkEntry(
      { status, holder, until: typeof until === "string" ? Number(until) : until },
      where,
    );
  }
  const recorded = typeof outcome === "string" ? parseJson(outcome, where, "its outcome") : outcome;
  return checkEntry({ status, outcome: recorded }, where);
}
