/**
 * A durable `CallLedger` for the multi-process tests: one file per key in a directory, written
 * and flushed before a method returns. `begin` is an exclusive create (`wx`), atomic across
 * processes; taking over, renewing and finishing happen under a per-key lock file, and replace
 * the entry by a rename, so a reader never sees half an entry.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import {
  type CallLedger,
  type LedgerEntry,
  type LedgerLease,
  readLedgerEntry,
} from "../../../tools/index.js";

/** Writes `text` to `path` (failing when it exists, with `flag: "wx"`) and flushes it. */
function durable(path: string, text: string, flag = "w"): void {
  const fd = openSync(path, flag);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

export function fileLedger(dir: string): CallLedger {
  mkdirSync(dir, { recursive: true });
  const pathOf = (key: string) => join(dir, Buffer.from(key).toString("hex"));
  const read = (key: string): LedgerEntry | undefined => {
    const path = pathOf(key);
    return existsSync(path) ? readLedgerEntry(JSON.parse(readFileSync(path, "utf8"))) : undefined;
  };
  const replace = (key: string, entry: LedgerEntry) => {
    const temp = `${pathOf(key)}.${process.pid}.tmp`;
    durable(temp, JSON.stringify(entry));
    renameSync(temp, pathOf(key));
  };
  const locked = <T>(key: string, work: () => T): T => {
    const lock = `${pathOf(key)}.lock`;
    for (;;) {
      try {
        closeSync(openSync(lock, "wx"));
        break;
      } catch {
        Atomics.wait(pause, 0, 0, 2);
      }
    }
    try {
      return work();
    } finally {
      unlinkSync(lock);
    }
  };
  const started = (lease: LedgerLease): LedgerEntry => ({ status: "started", ...lease });
  return {
    get: read,
    begin: (key, lease, expired) => {
      if (expired === undefined) {
        try {
          durable(pathOf(key), JSON.stringify(started(lease)), "wx");
          return true;
        } catch {
          return false;
        }
      }
      return locked(key, () => {
        const entry = read(key);
        const free =
          entry === undefined ||
          (entry.status === "started" &&
            entry.holder === expired.holder &&
            entry.until === expired.until);
        if (free) replace(key, started(lease));
        return free;
      });
    },
    renew: (key, lease) =>
      locked(key, () => {
        const entry = read(key);
        const holds = entry?.status === "started" && entry.holder === lease.holder;
        if (holds) replace(key, started(lease));
        return holds;
      }),
    finish: (key, outcome) => locked(key, () => replace(key, { status: "answered", outcome })),
  };
}
