/**
 * The ledger every process of the example shares, on the store `LEDGER` names: `redis` (the
 * default: the Redis the queue already runs on, keys under `aw:ledger:`) or `postgres` (the
 * `aw_ledger` table of the database at `DATABASE_URL`). The queue stays on Redis either way:
 * BullMQ needs it. Only the ledger moves, and nothing else in the example changes with it.
 */
import type { Redis } from "ioredis";
import pg from "pg";
// Relative, as in shop.ts; an application imports "ignite-element/tools/ledger-postgres" and
// "ignite-element/tools/ledger-redis".
import type { CallLedger } from "../../src/tools/index.js";
import { createLedgerTable, postgresLedger } from "../../src/tools/ledgers/postgres.js";
import { redisLedger } from "../../src/tools/ledgers/redis.js";

/** The stores the example's ledger can be on. */
export type LedgerStore = "redis" | "postgres";

/** Where the example keeps its ledger, in each store. */
export const LEDGER_PREFIX = "aw:ledger:";
export const LEDGER_TABLE = "aw_ledger";

/** The ledger of this process, and how to let go of the connections it opened for it. */
export interface OpenedLedger {
  store: LedgerStore;
  ledger: CallLedger;
  close(): Promise<void>;
}

/** The store `LEDGER` names; anything else is a mistake worth stopping for. */
export function ledgerStore(name = process.env.LEDGER ?? "redis"): LedgerStore {
  if (name === "redis" || name === "postgres") return name;
  throw new Error(`LEDGER must be redis or postgres, not ${JSON.stringify(name)}`);
}

/**
 * Opens the ledger `LEDGER` names. On Redis it uses the process's own connection `redis`; on
 * PostgreSQL a pool of connections to `DATABASE_URL`. `createTable` makes the table
 * when it is missing: one process does it (the endpoint, as a migration would), because
 * PostgreSQL's `CREATE TABLE IF NOT EXISTS` run by several connections at once can fail.
 */
export async function openLedger(
  redis: Redis,
  { createTable = false }: { createTable?: boolean } = {},
): Promise<OpenedLedger> {
  const store = ledgerStore();
  if (store === "redis") {
    return { store, ledger: redisLedger(redis, { prefix: LEDGER_PREFIX }), close: async () => {} };
  }
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error("LEDGER=postgres needs DATABASE_URL");
  // Statements fail after 5 s instead of hanging, as the Redis connection's commands do.
  const pool = new pg.Pool({ connectionString, query_timeout: 5_000 });
  // An idle connection the server drops is an error event of the pool: logged, not fatal.
  pool.on("error", (error) => console.error(`ledger pool: ${error.message}`));
  if (createTable) await createLedgerTable(pool, { table: LEDGER_TABLE });
  return {
    store,
    ledger: postgresLedger(pool, { table: LEDGER_TABLE }),
    close: () => pool.end(),
  };
}
