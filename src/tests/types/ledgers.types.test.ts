import type { Cluster, Redis } from "ioredis";
import type pg from "pg";
import { describe, expectTypeOf, it } from "vitest";
import type { CallLedger, LedgerEntry, LedgerLease } from "../../tools/index.js";
import {
  type PostgresClientLike,
  type PostgresLedgerOptions,
  postgresLedger,
} from "../../tools/ledgers/postgres.js";
import {
  type RedisClientLike,
  type RedisLedgerOptions,
  redisLedger,
} from "../../tools/ledgers/redis.js";

describe("the ledgers' clients, typed by the one method they use", () => {
  it("takes an ioredis Redis or Cluster (ioredis 6.1.0) as a Redis client", () => {
    expectTypeOf<Redis>().toExtend<RedisClientLike>();
    expectTypeOf<Cluster>().toExtend<RedisClientLike>();
  });

  it("takes a pg Pool, Client or PoolClient (@types/pg 8.23.1) as a PostgreSQL client", () => {
    expectTypeOf<pg.Pool>().toExtend<PostgresClientLike>();
    expectTypeOf<pg.Client>().toExtend<PostgresClientLike>();
    expectTypeOf<pg.PoolClient>().toExtend<PostgresClientLike>();
  });

  it("does not take a client without the method, or a value where the client goes", () => {
    expectTypeOf<{ get(key: string): Promise<string | null> }>().not.toExtend<RedisClientLike>();
    expectTypeOf<{ end(): Promise<void> }>().not.toExtend<PostgresClientLike>();
  });
});

describe("the ledgers", () => {
  it("are CallLedgers whose every method returns a promise", () => {
    expectTypeOf(redisLedger).returns.toExtend<CallLedger>();
    expectTypeOf(postgresLedger).returns.toExtend<CallLedger>();
    const ledger = redisLedger({ call: async () => null });
    expectTypeOf(ledger.get("k")).toEqualTypeOf<Promise<LedgerEntry | undefined>>();
    expectTypeOf(ledger.begin("k", { holder: "a", until: 1 })).toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(
      postgresLedger({ query: async () => ({ rows: [], rowCount: 0 }) }).finish,
    ).returns.toEqualTypeOf<Promise<void>>();
  });

  it("take the options they document, and no other", () => {
    expectTypeOf<{ prefix: string; ttl: number }>().toExtend<RedisLedgerOptions>();
    expectTypeOf<{ ttl: string }>().not.toExtend<RedisLedgerOptions>();
    expectTypeOf<{ table: string }>().toExtend<PostgresLedgerOptions>();
    expectTypeOf<{ table: number }>().not.toExtend<PostgresLedgerOptions>();
  });

  it("read a started entry with its lease, an answered one with its outcome", () => {
    type Started = Extract<LedgerEntry, { status: "started" }>;
    expectTypeOf<Started>().toExtend<LedgerLease>();
    expectTypeOf<
      Extract<LedgerEntry, { status: "answered" }>["outcome"]["ok"]
    >().toEqualTypeOf<boolean>();
  });
});
