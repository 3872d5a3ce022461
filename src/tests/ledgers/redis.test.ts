/**
 * What the Redis ledger adds to the contract: where its entries live (prefix, TTL), what it does
 * with a value it did not write, and how it fails when Redis is down or silent — always with an
 * error naming Redis, the operation and the key, never by hanging, never by closing the client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecordedOutcome } from "ignite-element/tools";
import { type RedisClientLike, redisLedger } from "ignite-element/tools/ledger-redis";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, redisServer } from "../setup/services.js";
import { closeStores, sharedRedis, uniquePrefix } from "./stores.js";

afterAll(closeStores);

const lease = { holder: "worker-a", until: 1_700_000_000_000 };
const done: RecordedOutcome = { ok: true, value: { snapshot: { sent: 1 }, events: [] } };

describe("redisLedger: where entries live", () => {
  it("stores each entry as JSON under the prefix, and leaves keys outside it alone", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    const ledger = redisLedger(redis, { prefix });
    await redis.set("turn-1/k", "the application's own value");
    await ledger.begin("turn-1/k", lease);
    expect(JSON.parse((await redis.get(`${prefix}turn-1/k`)) ?? "")).toEqual({
      status: "started",
      ...lease,
    });
    await ledger.finish("turn-1/k", done);
    expect(JSON.parse((await redis.get(`${prefix}turn-1/k`)) ?? "")).toEqual({
      status: "answered",
      outcome: done,
    });
    expect(await redis.get("turn-1/k")).toBe("the application's own value");
  });

  it("keeps two prefixes apart: the same key is two calls", async () => {
    const redis = sharedRedis();
    const one = redisLedger(redis, { prefix: uniquePrefix() });
    const other = redisLedger(redis, { prefix: uniquePrefix() });
    expect(await one.begin("k", lease)).toBe(true);
    expect(await other.begin("k", lease)).toBe(true);
  });

  it('puts its entries under "ignite:ledger:" when no prefix is given', async () => {
    const redis = sharedRedis();
    const key = `default-prefix/${uniquePrefix()}`;
    await redisLedger(redis).begin(key, lease);
    expect(await redis.exists(`ignite:ledger:${key}`)).toBe(1);
    await redis.del(`ignite:ledger:${key}`);
  });

  it("keeps entries forever without a ttl", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    const ledger = redisLedger(redis, { prefix });
    await ledger.begin("k", lease);
    expect(await redis.pttl(`${prefix}k`)).toBe(-1);
    await ledger.renew("k", { ...lease, until: lease.until + 1 });
    await ledger.finish("k", done);
    expect(await redis.pttl(`${prefix}k`)).toBe(-1);
  });

  it("sets the ttl again at every write: begin, renew (and a takeover), finish", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    const ttl = 3_600_000;
    const ledger = redisLedger(redis, { prefix, ttl });
    const expiry = () => redis.pttl(`${prefix}k`);
    await ledger.begin("k", lease);
    // Shortened behind the ledger's back: each write must set it back to the ttl.
    const shorten = () => redis.pexpire(`${prefix}k`, 1_000_000);
    await shorten();
    await ledger.renew("k", { ...lease, until: lease.until + 1 });
    expect(await expiry()).toBeGreaterThan(1_000_000);
    await shorten();
    await ledger.begin("k", { holder: "worker-b", until: 2 }, { ...lease, until: lease.until + 1 });
    expect(await expiry()).toBeGreaterThan(1_000_000);
    await shorten();
    await ledger.finish("k", done);
    expect(await expiry()).toBeGreaterThan(1_000_000);
    expect(await expiry()).toBeLessThanOrEqual(ttl);
  });

  it("refuses a ttl that is not a positive whole number of milliseconds", () => {
    for (const ttl of [0, -5, 1.5, Number.NaN]) {
      expect(() => redisLedger(sharedRedis(), { ttl })).toThrow(
        /redisLedger: ttl must be a positive whole number of ms/,
      );
    }
  });

  it("refuses to finish a call whose entry is gone (expired, deleted): the outcome would be lost", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    const ledger = redisLedger(redis, { prefix });
    await ledger.begin("k", lease);
    await redis.del(`${prefix}k`);
    await expect(ledger.finish("k", done)).rejects.toThrow(
      `Redis ledger could not finish ${prefix}k: its entry is gone (expired or deleted), so the outcome is not recorded`,
    );
    expect(await redis.exists(`${prefix}k`)).toBe(0);
  });
});

describe("redisLedger: a value it did not write is reported, never trusted", () => {
  const corrupted: [what: string, value: string, why: string][] = [
    ["text that is not JSON", "started", "it is not JSON"],
    ["a truncated entry", '{"status":"answered","outcome":{"ok":tr', "it is not JSON"],
    ["JSON that is not an object", "[1,2]", "it is not an object"],
    ["an unknown status", '{"status":"done"}', 'its status is neither "started" nor "answered"'],
    [
      "a started entry without its holder",
      '{"status":"started","until":1}',
      "its holder is not a string",
    ],
    [
      "a started entry without its lease end",
      '{"status":"started","holder":"a"}',
      "its lease end is not a number",
    ],
    [
      "an answer without an outcome",
      '{"status":"answered"}',
      "its outcome is not a tool call's result",
    ],
    [
      "an answer whose outcome is not a result",
      '{"status":"answered","outcome":{"ok":true,"value":42}}',
      "its outcome is not a tool call's result",
    ],
    [
      "an error outcome without a message",
      '{"status":"answered","outcome":{"ok":false,"error":{"kind":"ExecuteFailed"}}}',
      "its outcome is not a tool call's result",
    ],
  ];

  it.each(corrupted)("get rejects %s, naming the key", async (_what, value, why) => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    await redis.set(`${prefix}k`, value);
    await expect(redisLedger(redis, { prefix }).get("k")).rejects.toThrow(
      `corrupted ledger entry at ${prefix}k: ${why}; it is not trusted`,
    );
  });

  it("neither begins, takes over nor renews over a corrupted value, and leaves it as it was", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    const ledger = redisLedger(redis, { prefix });
    await redis.set(`${prefix}k`, '{"status":"started","holder":"worker-a"}');
    expect(await ledger.begin("k", lease)).toBe(false);
    expect(await ledger.begin("k", lease, lease)).toBe(false);
    expect(await ledger.renew("k", lease)).toBe(false);
    expect(await redis.get(`${prefix}k`)).toBe('{"status":"started","holder":"worker-a"}');
  });

  it("reports a key of another type with Redis' own reason", async () => {
    const redis = sharedRedis();
    const prefix = uniquePrefix();
    await redis.hset(`${prefix}k`, "field", "value");
    await expect(redisLedger(redis, { prefix }).get("k")).rejects.toThrow(
      new RegExp(`^Redis ledger could not read ${prefix}k: WRONGTYPE`),
    );
  });
});

describe("redisLedger: when Redis is down or silent", () => {
  const operations = [
    ["read", (ledger: ReturnType<typeof redisLedger>) => ledger.get("k")],
    ["begin", (ledger: ReturnType<typeof redisLedger>) => ledger.begin("k", lease)],
    ["take over", (ledger: ReturnType<typeof redisLedger>) => ledger.begin("k", lease, lease)],
    ["renew", (ledger: ReturnType<typeof redisLedger>) => ledger.renew("k", lease)],
    ["finish", (ledger: ReturnType<typeof redisLedger>) => ledger.finish("k", done)],
  ] as const;

  it("rejects every operation, naming Redis, the operation and the key, when the server was stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-redis-"));
    const server = await redisServer(dir);
    const client = new Redis(server.url, { commandTimeout: 1_000, maxRetriesPerRequest: 1 });
    client.on("error", () => {}); // the reconnection attempts; each command reports its own
    try {
      const ledger = redisLedger(client, { prefix: "p:" });
      expect(await ledger.begin("k", lease)).toBe(true);
      await server.stop();
      for (const [operation, run] of operations) {
        await expect(run(ledger)).rejects.toThrow(
          new RegExp(`^Redis ledger could not ${operation} p:k: .+`),
        );
      }
    } finally {
      client.disconnect();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects every operation on a port nothing listens on", async () => {
    const client = new Redis(await freePort(), "127.0.0.1", {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    client.on("error", () => {});
    const ledger = redisLedger(client, { prefix: "p:" });
    for (const [operation, run] of operations) {
      await expect(run(ledger)).rejects.toThrow(
        new RegExp(`^Redis ledger could not ${operation} p:k: .+`),
      );
    }
    client.disconnect();
  });

  it("rejects, rather than waits forever, when the server accepts and never answers (commandTimeout)", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const client = new Redis(port, "127.0.0.1", {
      commandTimeout: 200,
      maxRetriesPerRequest: 1,
      enableReadyCheck: false,
    });
    client.on("error", () => {});
    try {
      await expect(redisLedger(client, { prefix: "p:" }).begin("k", lease)).rejects.toThrow(
        "Redis ledger could not begin p:k: Command timed out",
      );
    } finally {
      client.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("redisLedger: the client is the application's", () => {
  it("sends only GET, SET and EVAL, and leaves the client connected", async () => {
    const redis = sharedRedis();
    const sent: string[] = [];
    const spy: RedisClientLike = {
      call: (command, ...args) => {
        sent.push(command);
        return redis.call(command, ...args);
      },
    };
    const ledger = redisLedger(spy, { prefix: uniquePrefix(), ttl: 60_000 });
    await ledger.get("k");
    await ledger.begin("k", lease);
    await ledger.renew("k", { ...lease, until: lease.until + 1 });
    await ledger.begin("k", lease, { ...lease, until: lease.until + 1 });
    await ledger.finish("k", done);
    expect(new Set(sent)).toEqual(new Set(["GET", "SET", "EVAL"]));
    expect(redis.status).toBe("ready");
    expect(await redis.ping()).toBe("PONG");
  });
});
