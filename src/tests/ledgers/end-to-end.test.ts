/**
 * The durable ledgers where the shell uses them: `handleToolCalls(response, { ledger, scope })` runs a
 * call once, whether the same response is handled again, handled by a second bridge at the same
 * time, or handled by another process that only shares the store.
 */

import { type CallLedger, fakeDialect, igniteTools } from "ignite-element/tools";
import { createLedgerTable, postgresLedger } from "ignite-element/tools/ledger-postgres";
import { redisLedger } from "ignite-element/tools/ledger-redis";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../setup/services.js";
import {
  closeStores,
  pgPool,
  redisClient,
  sharedPool,
  sharedRedis,
  uniquePrefix,
  uniqueTable,
} from "./stores.js";

afterAll(closeStores);

/** A mailer that counts the mails it really sent. */
function mailer() {
  const mailbox = { sent: 0 };
  const component = {
    getSchema: () => ({ commands: { send: { input: { type: "object" } } } }),
    execute: async (_command: string, input: unknown) => {
      mailbox.sent++;
      return { state: { sent: mailbox.sent, last: input }, events: [] };
    },
  };
  return { mailbox, tools: () => igniteTools(component, fakeDialect) };
}

const response = { toolCalls: [{ id: "call_0", name: "send", input: { to: "ada@example.com" } }] };

// A second process: its own connection to the same store, its own ledger object.
const backends: [name: string, make: () => Promise<[CallLedger, () => CallLedger]>][] = [
  [
    "Redis",
    async () => {
      const prefix = uniquePrefix();
      return [redisLedger(sharedRedis(), { prefix }), () => redisLedger(redisClient(), { prefix })];
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const table = uniqueTable();
      await createLedgerTable(sharedPool(), { table });
      return [postgresLedger(sharedPool(), { table }), () => postgresLedger(pgPool(), { table })];
    },
  ],
];

describe.each(backends)("handleToolCalls with the %s ledger", (_name, make) => {
  it("runs a call once, and answers the same response again with the recorded answer", async () => {
    const [ledger] = await make();
    const { mailbox, tools } = mailer();
    const bridge = tools();
    const first = await bridge.handleToolCalls(response, {
      ledger,
      scope: "conversation-1/turn-1",
    });
    const again = await bridge.handleToolCalls(response, {
      ledger,
      scope: "conversation-1/turn-1",
    });
    expect(mailbox.sent).toBe(1);
    expect(again).toEqual(first);
    expect(first).toEqual([
      {
        id: "call_0",
        name: "send",
        ok: true,
        snapshot: { sent: 1, last: { to: "ada@example.com" } },
        events: [],
      },
    ]);
  });

  it("runs a call once when another process, sharing only the store, handles it afterwards", async () => {
    const [ledger, elsewhere] = await make();
    const { mailbox, tools } = mailer();
    const first = await tools().handleToolCalls(response, {
      ledger,
      scope: "conversation-1/turn-1",
    });
    const replayed = await tools().handleToolCalls(response, {
      ledger: elsewhere(),
      scope: "conversation-1/turn-1",
    });
    expect(mailbox.sent).toBe(1);
    expect(replayed).toEqual(first);
  });

  it("runs a call once when two bridges handle it at the same time", async () => {
    const [ledger, elsewhere] = await make();
    const { mailbox, tools } = mailer();
    await Promise.all([
      tools().handleToolCalls(response, { ledger, scope: "conversation-1/turn-1" }),
      tools().handleToolCalls(response, { ledger: elsewhere(), scope: "conversation-1/turn-1" }),
    ]);
    expect(mailbox.sent).toBe(1);
  });
});

describe("handleToolCalls with a store that is down", () => {
  const down: [name: string, ledger: () => Promise<[CallLedger, () => void]>][] = [
    [
      "Redis",
      async () => {
        const client = new Redis(await freePort(), "127.0.0.1", {
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
          lazyConnect: true,
        });
        client.on("error", () => {});
        return [redisLedger(client), () => client.disconnect()];
      },
    ],
    [
      "PostgreSQL",
      async () => {
        const pool = new pg.Pool({ host: "127.0.0.1", port: await freePort(), user: "nobody" });
        pool.on("error", () => {});
        return [postgresLedger(pool), () => void pool.end()];
      },
    ],
  ];

  it.each(down)(
    "answers the call ExecuteFailed (ledger) with the store's reason, and runs nothing (%s)",
    async (_name, make) => {
      const [ledger, close] = await make();
      const { mailbox, tools } = mailer();
      const [answer] = await tools().handleToolCalls(response, {
        ledger,
        scope: "conversation-1/turn-1",
      });
      close();
      expect(mailbox.sent).toBe(0);
      expect(answer).toMatchObject({
        ok: false,
        error: { kind: "ExecuteFailed", reason: "ledger" },
      });
      if (answer?.ok !== false) throw new Error("answered ok");
      expect(answer.error.message).toMatch(
        /was not run: the ledger could not be read \((Redis|PostgreSQL) ledger could not read /,
      );
    },
  );
});
