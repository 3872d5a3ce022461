/**
 * The ledgers under test, each on the real server the run started (src/tests/setup/services.ts):
 * every call makes a ledger of its own (a fresh key prefix, a fresh table), so tests never share
 * entries, and `closeStores` ends the connections the tests opened — the ledgers never do.
 */
import { randomUUID } from "node:crypto";
import type { CallLedger } from "ignite-element/tools";
import { createLedgerTable, postgresLedger } from "ignite-element/tools/ledger-postgres";
import { redisLedger } from "ignite-element/tools/ledger-redis";
import { Redis } from "ioredis";
import pg from "pg";
import { inject } from "vitest";

const opened: { close(): Promise<unknown> }[] = [];

/** An ioredis client on the test Redis, with the timeouts docs/ledgers.md recommends. */
export function redisClient(): Redis {
  const client = new Redis(inject("redisUrl"), { commandTimeout: 2_000, maxRetriesPerRequest: 1 });
  opened.push({ close: () => client.quit() });
  return client;
}

/** A `pg` pool on the test database. */
export function pgPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 20 });
  opened.push({ close: () => pool.end() });
  return pool;
}

let redis: Redis | undefined;
let pool: pg.Pool | undefined;

/** One client and one pool for the whole file. */
export function sharedRedis(): Redis {
  redis ??= redisClient();
  return redis;
}
export function sharedPool(): pg.Pool {
  pool ??= pgPool();
  return pool;
}

/** A fresh key prefix: a ledger of its own in the shared Redis. */
export function uniquePrefix(): string {
  return `test:${randomUUID()}:`;
}

/** A fresh table name, in the `public` schema of the test database. */
export function uniqueTable(): string {
  return `ledger_${randomUUID().replaceAll("-", "")}`;
}

/** A Redis ledger of its own. */
export async function freshRedisLedger(): Promise<CallLedger> {
  return redisLedger(sharedRedis(), { prefix: uniquePrefix() });
}

/** A PostgreSQL ledger on a table of its own. */
export async function freshPostgresLedger(): Promise<CallLedger> {
  const table = uniqueTable();
  await createLedgerTable(sharedPool(), { table });
  return postgresLedger(sharedPool(), { table });
}

/** Ends every connection the tests opened. */
export async function closeStores(): Promise<void> {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  redis = undefined;
  pool = undefined;
}
