/**
 * The CallLedger contract, one table of cases run against every ledger the package ships: the
 * in-memory one, Redis and PostgreSQL (each on its real server). A store that passes behaves, for
 * the shell, exactly as the in-memory ledger does.
 */

import {
  type CallLedger,
  type LedgerLease,
  memoryLedger,
  type RecordedOutcome,
} from "ignite-element/tools";
import { afterAll, describe, expect, it } from "vitest";
import { closeStores, freshPostgresLedger, freshRedisLedger } from "./stores.js";

afterAll(closeStores);

const lease = (holder: string, until = 1_700_000_000_000): LedgerLease => ({ holder, until });
const A = lease("worker-a");
const B = lease("worker-b", 1_700_000_060_000);

const done: RecordedOutcome = {
  ok: true,
  value: { snapshot: { sent: 1, to: ["ada@example.com"], note: 'é ✓ "quoted"' }, events: [] },
};
const failed: RecordedOutcome = {
  ok: false,
  error: {
    kind: "ExecuteFailed",
    name: "send",
    reason: "threw",
    message: 'Command "send" failed: mailbox full',
  },
};

type Case = [name: string, run: (ledger: CallLedger) => Promise<void>];

const cases: Case[] = [
  [
    "has no entry for a key never begun",
    async (ledger) => {
      expect(await ledger.get("turn-1/never")).toBeUndefined();
    },
  ],
  [
    "records a begun call as started, with the lease that holds it",
    async (ledger) => {
      expect(await ledger.begin("k", A)).toBe(true);
      expect(await ledger.get("k")).toEqual({
        status: "started",
        holder: "worker-a",
        until: A.until,
      });
    },
  ],
  [
    "refuses a second begin of a started call, and keeps the first lease",
    async (ledger) => {
      await ledger.begin("k", A);
      expect(await ledger.begin("k", B)).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "started", ...A });
    },
  ],
  [
    "refuses a begin of an answered call",
    async (ledger) => {
      await ledger.begin("k", A);
      await ledger.finish("k", done);
      expect(await ledger.begin("k", B)).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "answered", outcome: done });
    },
  ],
  [
    "lets exactly one of 50 concurrent begins of one key win, and records the winner's lease",
    async (ledger) => {
      const leases = Array.from({ length: 50 }, (_, i) => lease(`worker-${i}`));
      const won = await Promise.all(leases.map((each) => ledger.begin("race", each)));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = leases[won.indexOf(true)];
      expect(await ledger.get("race")).toEqual({ status: "started", ...winner });
    },
  ],
  [
    "takes over a started call whose lease is exactly the expired one given",
    async (ledger) => {
      await ledger.begin("k", A);
      expect(await ledger.begin("k", B, A)).toBe(true);
      expect(await ledger.get("k")).toEqual({ status: "started", ...B });
    },
  ],
  [
    "does not take over when the holder differs from the expired lease given",
    async (ledger) => {
      await ledger.begin("k", A);
      expect(await ledger.begin("k", B, lease("someone-else", A.until))).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "started", ...A });
    },
  ],
  [
    "does not take over a lease that was renewed since it was read (its end differs)",
    async (ledger) => {
      await ledger.begin("k", A);
      await ledger.renew("k", lease(A.holder, A.until + 30_000));
      expect(await ledger.begin("k", B, A)).toBe(false);
      expect(await ledger.get("k")).toEqual({
        status: "started",
        holder: A.holder,
        until: A.until + 30_000,
      });
    },
  ],
  [
    "does not take over an answered call",
    async (ledger) => {
      await ledger.begin("k", A);
      await ledger.finish("k", failed);
      expect(await ledger.begin("k", B, A)).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "answered", outcome: failed });
    },
  ],
  [
    "begins a call that is absent even when an expired lease is given (it was cleaned up)",
    async (ledger) => {
      expect(await ledger.begin("k", B, A)).toBe(true);
      expect(await ledger.get("k")).toEqual({ status: "started", ...B });
    },
  ],
  [
    "lets exactly one of 50 concurrent takeovers of the same expired lease win",
    async (ledger) => {
      await ledger.begin("k", A);
      const leases = Array.from({ length: 50 }, (_, i) => lease(`taker-${i}`, B.until));
      const won = await Promise.all(leases.map((each) => ledger.begin("k", each, A)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await ledger.get("k")).toEqual({ status: "started", ...leases[won.indexOf(true)] });
    },
  ],
  [
    "renews the lease of its holder",
    async (ledger) => {
      await ledger.begin("k", A);
      expect(await ledger.renew("k", lease(A.holder, A.until + 5_000))).toBe(true);
      expect(await ledger.get("k")).toEqual({
        status: "started",
        holder: A.holder,
        until: A.until + 5_000,
      });
    },
  ],
  [
    "refuses to renew for anyone but the holder, and keeps the holder's lease",
    async (ledger) => {
      await ledger.begin("k", A);
      expect(await ledger.renew("k", lease("worker-b", A.until + 5_000))).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "started", ...A });
    },
  ],
  [
    "refuses to renew a call that is absent or already answered",
    async (ledger) => {
      expect(await ledger.renew("absent", A)).toBe(false);
      expect(await ledger.get("absent")).toBeUndefined();
      await ledger.begin("k", A);
      await ledger.finish("k", done);
      expect(await ledger.renew("k", A)).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "answered", outcome: done });
    },
  ],
  [
    "refuses a renew by the holder whose lease was taken over",
    async (ledger) => {
      await ledger.begin("k", A);
      await ledger.begin("k", B, A);
      expect(await ledger.renew("k", lease(A.holder, B.until + 1))).toBe(false);
      expect(await ledger.get("k")).toEqual({ status: "started", ...B });
    },
  ],
  [
    "records a success and a failure as the JSON they were given",
    async (ledger) => {
      await ledger.begin("ok", A);
      await ledger.finish("ok", done);
      await ledger.begin("err", A);
      await ledger.finish("err", failed);
      expect(await ledger.get("ok")).toEqual({ status: "answered", outcome: done });
      expect(await ledger.get("err")).toEqual({ status: "answered", outcome: failed });
    },
  ],
  [
    "keeps keys opaque: slashes, spaces, quotes and non-ASCII name different entries",
    async (ledger) => {
      const keys = ["turn-1/a", "turn-1/a ", 'turn-"1"/a', "tour-1/é", "turn-1\\a", "*"];
      for (const [i, key] of keys.entries()) await ledger.begin(key, lease(`w${i}`));
      for (const [i, key] of keys.entries()) {
        expect(await ledger.get(key)).toEqual({ status: "started", ...lease(`w${i}`) });
      }
    },
  ],
];

const ledgers: [name: string, make: () => Promise<CallLedger>][] = [
  ["memoryLedger", async () => memoryLedger()],
  ["redisLedger", freshRedisLedger],
  ["postgresLedger", freshPostgresLedger],
];

describe.each(ledgers)("%s keeps the CallLedger contract", (_name, make) => {
  it.each(cases)("%s", async (_case, run) => {
    await run(await make());
  });
});
