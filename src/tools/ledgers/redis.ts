/**
 * A `CallLedger` in Redis, on the application's own ioredis client: one key per call, its value
 * the entry as JSON. `begin` is one `SET … NX`, the takeover of an expired lease and `renew` are
 * compare-and-sets in a Lua script (atomic on the server), `finish` is a `SET … XX`.
 *
 * The client is typed by the one method used, so this entrypoint never loads ioredis itself: the
 * application's instance (or BullMQ's connection) is the one that runs.
 */
import type { CallLedger, LedgerEntry, LedgerLease, RecordedOutcome } from "../core/ledger.js";
import { answeredText, corrupted, onStore, parseEntryText, startedText } from "./entry.js";

/**
 * What the ledger needs of a Redis client: ioredis' `call`, which sends one command and resolves
 * with its reply. An ioredis `Redis` or `Cluster` instance is one.
 */
export interface RedisClientLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

/** A `CallLedger` in Redis: every method returns a promise, and rejects when Redis fails. */
export interface RedisLedger extends CallLedger {
  get(key: string): Promise<LedgerEntry | undefined>;
  begin(key: string, lease: LedgerLease, expired?: LedgerLease): Promise<boolean>;
  renew(key: string, lease: LedgerLease): Promise<boolean>;
  finish(key: string, outcome: RecordedOutcome): Promise<void>;
}

/** Options of {@link redisLedger}. */
export interface RedisLedgerOptions {
  /**
   * Put before every key, to keep the ledger apart from the rest of the database.
   * @default "ignite:ledger:"
   */
  prefix?: string;
  /**
   * How long, in milliseconds, an entry is kept after it was last written (`begin`, `renew`,
   * `finish`); by default entries are kept until deleted. Set it longer than a paused state may
   * still be resumed: a call whose entry expired runs again when its state is resumed.
   */
  ttl?: number;
}

// KEYS[1] the key; ARGV[1] the expired lease's entry exactly as this ledger wrote it; ARGV[2] the
// new entry; ARGV[3] the TTL in ms, or "". The entries are compared as text: only this ledger
// writes them, and it writes each lease one way.
const TAKE_OVER = `
local current = redis.call("GET", KEYS[1])
if current and current ~= ARGV[1] then return 0 end
if ARGV[3] == "" then redis.call("SET", KEYS[1], ARGV[2])
else redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3]) end
return 1`;

// KEYS[1] the key; ARGV[1] the holder; ARGV[2] the renewed entry; ARGV[3] the TTL in ms, or "".
// A value that is not a whole started entry of this holder (answered, taken over, corrupted) is
// left as it is: a renew never repairs what it cannot read.
const RENEW = `
local current = redis.call("GET", KEYS[1])
if not current then return 0 end
local ok, entry = pcall(cjson.decode, current)
if not ok or type(entry) ~= "table" or entry.status ~= "started" or entry.holder ~= ARGV[1]
  or type(entry["until"]) ~= "number" then
  return 0
end
if ARGV[3] == "" then redis.call("SET", KEYS[1], ARGV[2], "KEEPTTL")
else redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3]) end
return 1`;

/**
 * A `CallLedger` in Redis. Give every process that may resume the same state a ledger on the same
 * Redis. The ledger never connects, disconnects or configures the client: the application owns
 * it, with the timeouts it chooses (see docs/ledgers.md — a client left with ioredis' defaults
 * can wait forever on a server that stopped answering).
 *
 * @example
 * ```ts
 * import { Redis } from "ioredis";
 * import { redisLedger } from "ignite-element/tools/ledger-redis";
 *
 * const redis = new Redis(process.env.REDIS_URL, { commandTimeout: 2000, maxRetriesPerRequest: 1 });
 * const ledger = redisLedger(redis, { ttl: 7 * 24 * 3600_000 });
 * await tools.handleToolCalls(response, { ledger });
 * ```
 */
export function redisLedger(
  client: RedisClientLike,
  options: RedisLedgerOptions = {},
): RedisLedger {
  const prefix = options.prefix ?? "ignite:ledger:";
  const ttl = options.ttl;
  if (ttl !== undefined && !(Number.isSafeInteger(ttl) && ttl > 0)) {
    throw new RangeError(`redisLedger: ttl must be a positive whole number of ms, not ${ttl}`);
  }
  const expiry = ttl === undefined ? [] : ["PX", ttl];
  const store = <T>(operation: string, key: string, run: () => Promise<T>) =>
    onStore("Redis", operation, prefix + key, run);

  return {
    get: async (key) => {
      const text = await store("read", key, () => client.call("GET", prefix + key));
      if (text === null) return undefined;
      if (typeof text !== "string") throw corrupted(prefix + key, "it is not a string");
      return parseEntryText(text, prefix + key);
    },
    begin: async (key, lease, expired) => {
      const entry = startedText(lease);
      if (expired === undefined) {
        const reply = await store("begin", key, () =>
          client.call("SET", prefix + key, entry, "NX", ...expiry),
        );
        return reply === "OK";
      }
      const reply = await store("take over", key, () =>
        client.call("EVAL", TAKE_OVER, 1, prefix + key, startedText(expired), entry, ttl ?? ""),
      );
      return reply === 1;
    },
    renew: async (key, lease) => {
      const reply = await store("renew", key, () =>
        client.call("EVAL", RENEW, 1, prefix + key, lease.holder, startedText(lease), ttl ?? ""),
      );
      return reply === 1;
    },
    finish: async (key, outcome) => {
      const reply = await store("finish", key, () =>
        client.call("SET", prefix + key, answeredText(outcome), "XX", ...expiry),
      );
      // XX writes only over the call's own entry: without one (deleted, expired) nothing is
      // recorded, and saying so is better than a later resume running the call again unawares.
      if (reply !== "OK") {
        throw new Error(
          `Redis ledger could not finish ${prefix + key}: its entry is gone (expired or deleted), so the outcome is not recorded`,
        );
      }
    },
  };
}
