/**
 * Leases on ledger keys: a `started` entry says who holds it until when, the holder renews it
 * while it works, and whoever meets it tells "still running somewhere" (a live lease: wait, or
 * refuse) from "its process died" (a lease that ran out: never run again, unless it is safe to).
 * `take` is the one way a key is held — by a call, a resume's claim, a denial — so every holder
 * meets another by the same rules.
 */

import { withDeadline } from "../bridge/deadline.js";
import type { CallLedger, LedgerEntry, LedgerLease } from "../core/ledger.js";
import type { AbortSignalLike } from "../core/types.js";

declare function setInterval(callback: () => void, ms: number): unknown;
declare function clearInterval(handle: unknown): void;

/** How long a lease lasts unless renewed, in milliseconds. */
export const DEFAULT_LEASE_MS = 30_000;

/** Who holds the leases of one call or resume, for how long, and by which clock. */
export interface Leasing {
  readonly holder: string;
  readonly leaseMs: number;
  readonly now: () => number;
}

/** A lease of `leasing`'s length from now. */
export function leaseFrom({ holder, leaseMs, now }: Leasing): LedgerLease {
  return { holder, until: now() + leaseMs };
}

/**
 * Renews `key`'s lease every third of its length until the returned function is called. The
 * timer never keeps a process alive, and stops for good once the lease is lost (renew says
 * false); a renewal that fails (the store is down) is tried again at the next tick.
 */
export function keepLease(ledger: CallLedger, key: string, leasing: Leasing): () => void {
  let handle: unknown;
  const stop = () => {
    if (handle === undefined) return;
    clearInterval(handle);
    handle = undefined;
  };
  handle = setInterval(
    () => {
      new Promise<boolean>((resolve) => resolve(ledger.renew(key, leaseFrom(leasing)))).then(
        (kept) => {
          if (!kept) stop();
        },
        () => undefined,
      );
    },
    Math.max(1, Math.floor(leasing.leaseMs / 3)),
  );
  (handle as { unref?: () => void }).unref?.();
  return stop;
}

/**
 * Begins a holder that only records a denial: nothing of the call runs under it, so an entry left
 * `started` by such a holder that died is known never to have taken effect.
 */
const DENYING = "denying:";

/** `leasing` for a holder that records a denial and runs nothing. */
export function denying(leasing: Leasing): Leasing {
  return { ...leasing, holder: `${DENYING}${leasing.holder}` };
}

/** Whether `entry` was started by a holder that only records a denial. */
export function isDenying(
  entry: LedgerEntry,
): entry is Extract<LedgerEntry, { status: "started" }> {
  return entry.status === "started" && entry.holder.startsWith(DENYING);
}

/** Whether `entry` is a started one whose lease has not run out. */
export function isLive(entry: LedgerEntry, now: () => number): boolean {
  return entry.status === "started" && entry.until > now();
}

/** The longest wait between two looks at a key held by someone else. */
const LOOK_EVERY_MS = 250;

/**
 * What a key held by someone else comes to: looked at again until it is answered or its lease
 * runs out, or `undefined` when `signal` aborted first. A key found gone (a store that expires
 * entries) is read as a lease that ran out: nobody can say the call did not start.
 */
export async function awaitHolder(
  ledger: CallLedger,
  key: string,
  entry: LedgerEntry,
  now: () => number,
  signal: AbortSignalLike | undefined,
): Promise<LedgerEntry | undefined> {
  let seen = entry;
  while (seen.status === "started" && seen.until > now()) {
    const wait = Math.min(Math.max(seen.until - now(), 1), LOOK_EVERY_MS);
    // A promise of its own each time: one shared by every wait would keep every wait's handlers.
    const waited = await withDeadline(new Promise<never>(() => undefined), wait, signal);
    if (!waited.done && waited.stop === "aborted") return undefined;
    seen = (await ledger.get(key)) ?? { status: "started", holder: seen.holder, until: 0 };
  }
  return seen;
}

/** How `take` treats a key someone else holds or held. */
export interface TakeRule {
  /**
   * Whether a started entry whose holder is gone (its lease ran out) may be taken over: when
   * running under it again cannot take effect twice (an idempotent command, a holder that only
   * recorded a denial) or nothing ran under it yet (a resume's claim).
   */
  retakes(entry: Extract<LedgerEntry, { status: "started" }>): boolean;
  /**
   * Wait while another holds the key (a live lease) — until `signal` aborts — rather than
   * answer at once with its entry.
   */
  outlast?: { signal: AbortSignalLike | undefined };
}

/**
 * What `take` came to: the key is this holder's now, or it is someone else's (their entry as last
 * seen; `undefined` when `signal` aborted the wait for it).
 */
export type Taken = { held: true } | { held: false; entry: LedgerEntry | undefined };

/**
 * Holds `key` for `leasing`'s holder: recorded as started when absent (atomically), or taken
 * over — exactly the lease that ran out, a compare-and-set — from a holder that is gone, when
 * `rule.retakes` it. `found` is the entry the caller already read, if it did. A key found gone
 * between a `begin` and a `get` (a store that expires entries) reads as a lease that ran out.
 */
export async function take(
  ledger: CallLedger,
  key: string,
  leasing: Leasing,
  rule: TakeRule,
  found?: LedgerEntry,
): Promise<Taken> {
  let entry = found;
  if (entry === undefined) {
    if (await ledger.begin(key, leaseFrom(leasing))) return { held: true };
    entry = (await ledger.get(key)) ?? { status: "started", holder: "", until: 0 };
  }
  if (rule.outlast && isLive(entry, leasing.now)) {
    const settled = await awaitHolder(ledger, key, entry, leasing.now, rule.outlast.signal);
    if (settled === undefined) return { held: false, entry: undefined };
    entry = settled;
  }
  if (entry.status !== "started" || isLive(entry, leasing.now) || !rule.retakes(entry)) {
    return { held: false, entry };
  }
  const { holder, until } = entry;
  const taken = await ledger.begin(key, leaseFrom(leasing), { holder, until });
  return taken ? { held: true } : { held: false, entry };
}
