/**
 * What the PostgreSQL ledger adds to the contract: its table, its place inside the application's
 * own transaction, what it does with a row it cannot read, and how it fails when the database is
 * gone or silent — always with an error naming PostgreSQL, the operation and the entry, never by
 * closing the application's connection.
 */
import { createServer, type Socket } from "node:net";
import type { RecordedOutcome } from "ignite-element/tools";
import {
  createLedgerTable,
  ledgerTableSql,
  type PostgresClientLike,
  postgresLedger,
} from "ignite-element/tools/ledger-postgres";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../setup/services.js";
import { closeStores, sharedPool, uniqueTable } from "./stores.js";

afterAll(closeStores);

const lease = { holder: "worker-a", until: 1_700_000_000_000 };
const done: RecordedOutcome = { ok: true, value: { snapshot: { sent: 1 }, events: [] } };

async function freshTable(): Promise<string> {
  const table = uniqueTable();
  await createLedgerTable(sharedPool(), { table });
  return table;
}

describe("postgresLedger: its table", () => {
  it("exports the statement that creates the table, ignite_ledger by default", () => {
    expect(ledgerTableSql()).toMatch(
      /^CREATE TABLE IF NOT EXISTS ignite_ledger \(\n {2}key text PRIMARY KEY,/,
    );
    expect(ledgerTableSql("app.ledger")).toMatch(/^CREATE TABLE IF NOT EXISTS app\.ledger \(/);
  });

  it("creates the table when it is missing, and leaves it (with its rows) when it is there", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    const ledger = postgresLedger(pool, { table });
    await ledger.begin("k", lease);
    await createLedgerTable(pool, { table });
    expect(await ledger.get("k")).toEqual({ status: "started", ...lease });
  });

  it("works in a schema of the application's", async () => {
    const pool = sharedPool();
    const schema = uniqueTable();
    await pool.query(`CREATE SCHEMA ${schema}`);
    await createLedgerTable(pool, { table: `${schema}.calls` });
    const ledger = postgresLedger(pool, { table: `${schema}.calls` });
    await ledger.begin("k", lease);
    const { rows } = await pool.query(`SELECT key, status, holder FROM ${schema}.calls`);
    expect(rows).toEqual([{ key: "k", status: "started", holder: "worker-a" }]);
  });

  it("refuses a table name that is not a plain identifier, before any SQL is sent", async () => {
    for (const table of ["ledger; DROP TABLE users", 'quoted"name', "a.b.c", "", "1ledger"]) {
      expect(() => postgresLedger(sharedPool(), { table })).toThrow(
        /postgresLedger: the table must be a plain identifier/,
      );
      expect(() => ledgerTableSql(table)).toThrow(/the table must be a plain identifier/);
      await expect(createLedgerTable(sharedPool(), { table })).rejects.toThrow(/plain identifier/);
    }
  });

  it("rejects what its constraints forbid: a started row without a lease, an answer without an outcome", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    await expect(
      pool.query(`INSERT INTO ${table} (key, status) VALUES ('a', 'started')`),
    ).rejects.toThrow(/check constraint/);
    await expect(
      pool.query(`INSERT INTO ${table} (key, status) VALUES ('b', 'answered')`),
    ).rejects.toThrow(/check constraint/);
    await expect(
      pool.query(
        `INSERT INTO ${table} (key, status, holder, lease_until) VALUES ('c', 'done', 'h', 1)`,
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it("refuses to finish a call whose row is gone: the outcome would be lost", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    const ledger = postgresLedger(pool, { table });
    await ledger.begin("k", lease);
    await pool.query(`DELETE FROM ${table}`);
    await expect(ledger.finish("k", done)).rejects.toThrow(
      `PostgreSQL ledger could not finish k in ${table}: its row is gone (deleted), so the outcome is not recorded`,
    );
  });
});

describe("postgresLedger: inside the application's transaction", () => {
  it("records nothing once the transaction is rolled back, though it saw its own entries inside", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const inside = postgresLedger(client, { table });
      expect(await inside.begin("k", lease)).toBe(true);
      await inside.finish("k", done);
      expect(await inside.get("k")).toEqual({ status: "answered", outcome: done });
      // Not committed: another connection does not see it.
      expect(await postgresLedger(pool, { table }).get("k")).toBeUndefined();
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect(await postgresLedger(pool, { table }).get("k")).toBeUndefined();
  });

  it("commits its entries with the application's own writes", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    await pool.query(`CREATE TABLE ${table}_mail (id int PRIMARY KEY)`);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const ledger = postgresLedger(client, { table });
      await ledger.begin("k", lease);
      await client.query(`INSERT INTO ${table}_mail VALUES (1)`);
      await ledger.finish("k", done);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
    expect(await postgresLedger(pool, { table }).get("k")).toEqual({
      status: "answered",
      outcome: done,
    });
    expect((await pool.query(`SELECT id FROM ${table}_mail`)).rows).toEqual([{ id: 1 }]);
  });

  it("does not abort the transaction when a key is taken: the next statement still runs", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    await postgresLedger(pool, { table }).begin("k", lease);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const ledger = postgresLedger(client, { table });
      expect(await ledger.begin("k", { holder: "worker-b", until: 1 })).toBe(false);
      expect(
        await ledger.begin("k", { holder: "worker-b", until: 1 }, { holder: "x", until: 2 }),
      ).toBe(false);
      expect(await ledger.renew("k", { holder: "worker-b", until: 1 })).toBe(false);
      expect((await client.query("SELECT 1 AS still")).rows).toEqual([{ still: 1 }]);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  });

  it("makes a begin elsewhere wait for the transaction: refused after it commits, granted after it rolls back", async () => {
    const pool = sharedPool();
    for (const [end, expected] of [
      ["COMMIT", false],
      ["ROLLBACK", true],
    ] as const) {
      const table = await freshTable();
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        expect(await postgresLedger(client, { table }).begin("k", lease)).toBe(true);
        const elsewhere = postgresLedger(pool, { table }).begin("k", {
          holder: "worker-b",
          until: 1,
        });
        await client.query(end);
        expect(await elsewhere).toBe(expected);
      } finally {
        client.release();
      }
    }
  });
});

describe("postgresLedger: a row it cannot read is reported, never trusted", () => {
  it.each([
    ["an outcome that is not a result", `'{"ok":true,"value":42}'`],
    ["an outcome that is a string", `'"sent"'`],
    ["an error outcome without a message", `'{"ok":false,"error":{"kind":"Denied"}}'`],
  ])("get rejects %s, naming the entry", async (_what, outcome) => {
    const pool = sharedPool();
    const table = await freshTable();
    await pool.query(
      `INSERT INTO ${table} (key, status, outcome) VALUES ('k', 'answered', ${outcome}::jsonb)`,
    );
    await expect(postgresLedger(pool, { table }).get("k")).rejects.toThrow(
      `corrupted ledger entry at k in ${table}: its outcome is not a tool call's result; it is not trusted`,
    );
  });

  it.each([
    [
      "an unknown status",
      `('k', 'done', NULL, NULL, NULL)`,
      'its status is neither "started" nor "answered"',
    ],
    [
      "a started row without a holder",
      `('k', 'started', NULL, 5, NULL)`,
      "its holder is not a string",
    ],
    [
      "a started row without a lease end",
      `('k', 'started', 'a', NULL, NULL)`,
      "its lease end is not a number",
    ],
    [
      "an outcome that is not JSON",
      `('k', 'answered', NULL, NULL, '{"ok":tr')`,
      "its outcome is not JSON",
    ],
  ])("get rejects %s in a table made without the ledger's constraints", async (_what, row, why) => {
    const pool = sharedPool();
    const table = uniqueTable();
    // A table of the application's own making, text for the outcome and no checks at all.
    await pool.query(
      `CREATE TABLE ${table} (key text PRIMARY KEY, status text, holder text, lease_until double precision, outcome text, written_at timestamptz DEFAULT now())`,
    );
    await pool.query(
      `INSERT INTO ${table} (key, status, holder, lease_until, outcome) VALUES ${row}`,
    );
    await expect(postgresLedger(pool, { table }).get("k")).rejects.toThrow(
      `corrupted ledger entry at k in ${table}: ${why}; it is not trusted`,
    );
  });

  it("reads a lease end and an outcome exactly as written, whatever parsers the pool has for numbers and JSON", async () => {
    const table = await freshTable();
    const pool = new pg.Pool({
      connectionString: inject("databaseUrl"),
      // An application's own parsers for numbers and JSON (bigint, float8, json, jsonb).
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          [20, 114, 701, 3802].includes(oid)
            ? (text: string) => `parsed:${text}`
            : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
      },
    });
    try {
      const ledger = postgresLedger(pool, { table });
      const odd = { holder: "worker-a", until: 1_700_000_000_000.5 };
      await ledger.begin("k", odd);
      expect(await ledger.get("k")).toEqual({ status: "started", ...odd });
      expect(await ledger.begin("k", lease, odd)).toBe(true);
      await ledger.finish("k", done);
      expect(await ledger.get("k")).toEqual({ status: "answered", outcome: done });
    } finally {
      await pool.end();
    }
  });
});

describe("postgresLedger: when the database is gone or silent", () => {
  const operations = [
    ["read", (ledger: ReturnType<typeof postgresLedger>) => ledger.get("k")],
    ["begin", (ledger: ReturnType<typeof postgresLedger>) => ledger.begin("k", lease)],
    ["take over", (ledger: ReturnType<typeof postgresLedger>) => ledger.begin("k", lease, lease)],
    ["renew", (ledger: ReturnType<typeof postgresLedger>) => ledger.renew("k", lease)],
    ["finish", (ledger: ReturnType<typeof postgresLedger>) => ledger.finish("k", done)],
  ] as const;

  it("rejects every operation, naming PostgreSQL, the operation and the entry, when the server ended its connection", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    client.on("error", () => {}); // the termination itself; each query reports its own failure
    await client.connect();
    try {
      const ledger = postgresLedger(client, { table });
      expect(await ledger.begin("k", lease)).toBe(true);
      const { rows } = await client.query("SELECT pg_backend_pid() AS pid");
      await pool.query("SELECT pg_terminate_backend($1)", [rows[0].pid]);
      for (const [operation, run] of operations) {
        await expect(run(ledger)).rejects.toThrow(
          new RegExp(`^PostgreSQL ledger could not ${operation} k in ${table}: .+`),
        );
      }
    } finally {
      await client.end().catch(() => {});
    }
  });

  it("rejects every operation on a port nothing listens on", async () => {
    const pool = new pg.Pool({ host: "127.0.0.1", port: await freePort(), user: "postgres" });
    try {
      const ledger = postgresLedger(pool);
      for (const [operation, run] of operations) {
        await expect(run(ledger)).rejects.toThrow(
          new RegExp(
            `^PostgreSQL ledger could not ${operation} k in ignite_ledger: connect ECONNREFUSED`,
          ),
        );
      }
    } finally {
      await pool.end();
    }
  });

  it("rejects, rather than waits forever, when the server accepts and never answers (connectionTimeoutMillis)", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const pool = new pg.Pool({
      host: "127.0.0.1",
      port,
      user: "postgres",
      connectionTimeoutMillis: 200,
    });
    try {
      await expect(postgresLedger(pool).begin("k", lease)).rejects.toThrow(
        /^PostgreSQL ledger could not begin k in ignite_ledger: .*timeout/i,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await pool.end();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("rejects, rather than waits forever, a statement stuck behind a lock (query_timeout)", async () => {
    const pool = sharedPool();
    const table = await freshTable();
    const holder = await pool.connect();
    const client = new pg.Client({ connectionString: inject("databaseUrl"), query_timeout: 200 });
    await client.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      await expect(postgresLedger(client, { table }).begin("k", lease)).rejects.toThrow(
        `PostgreSQL ledger could not begin k in ${table}: Query read timeout`,
      );
    } finally {
      await holder.query("ROLLBACK");
      holder.release();
      await client.end().catch(() => {});
    }
  });
});

describe("postgresLedger: the connection is the application's", () => {
  it("sends only its SELECT, INSERT and UPDATE statements, and leaves the client connected", async () => {
    const table = await freshTable();
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const sent: string[] = [];
      const spy: PostgresClientLike = {
        query: (text, values) => {
          sent.push(text.split(" ")[0] ?? "");
          return client.query(text, values);
        },
      };
      const ledger = postgresLedger(spy, { table });
      await ledger.get("k");
      await ledger.begin("k", lease);
      await ledger.renew("k", { ...lease, until: lease.until + 1 });
      await ledger.begin("k", lease, { ...lease, until: lease.until + 1 });
      await ledger.finish("k", done);
      expect(new Set(sent)).toEqual(new Set(["SELECT", "INSERT", "UPDATE"]));
      expect((await client.query("SELECT 1 AS open")).rows).toEqual([{ open: 1 }]);
    } finally {
      await client.end();
    }
  });
});
