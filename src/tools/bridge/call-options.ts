/**
 * What one call may be given: its signal and trace parent, who hears its progress and logs, and
 * the ledger that records it.
 */
import {
  aCount,
  aFunction,
  aName,
  anObject,
  aSignal,
  check,
  checkOptional,
  hasMethods,
} from "../core/checks.js";
import type { CallLedger } from "../core/ledger.js";
import type { TraceHandle } from "../core/tracing.js";
import type { AbortSignalLike } from "../core/types.js";
import type { CallListeners } from "./context.js";

/** Where a call is recorded so that it runs once: honoured by a bridge with `approval`. */
export interface LedgerOptions {
  /**
   * Records the call before and after it runs (see docs/approval.md): a call it already holds as
   * answered is replayed, one started by a process that died is answered `interrupted`, one still
   * running elsewhere is waited for. A call without an id is recorded only when a person approved
   * it. Needs a bridge built with `approve: approval(…)` (`approval()` records without asking
   * anyone): any other answers the call `ExecuteFailed` (reason `ledger`) and runs nothing.
   *
   * @default undefined — the call is not recorded
   */
  ledger?: CallLedger;
  /**
   * What the call's key in the ledger is scoped to — the conversation and turn it belongs to
   * (e.g. `"conversation-42/turn-3"`), so that calls of other conversations or turns with the same
   * id, command and input (Gemini and Ollama number their ids `call_0` in every response) are
   * never mistaken for it. Give the same scope when the same response may be answered again
   * (a redelivered request, another process) to have its calls replayed.
   *
   * @default a new scope for every call — it is recorded, but never matched with another call
   */
  scope?: string;
  /**
   * How long the call's `started` entry holds before it counts as left by a process that died,
   * in milliseconds; renewed every third of it while `execute` runs.
   *
   * @default 30_000
   */
  leaseMs?: number;
}

/** Per-call options. */
export interface InvokeOptions extends LedgerOptions, CallListeners {
  /**
   * Aborting answers the call `ExecuteFailed` at once: reason `cancelled` when it had not run
   * yet (nothing was executed), `aborted` when it was running — and aborts the `signal` of the
   * command's context. One signal may be shared by any number of calls; it carries one listener.
   *
   * @default undefined — the call cannot be aborted
   */
  signal?: AbortSignalLike;
  /**
   * The unit the call is traced under, started by the same `tracer` (the loop passes its turn).
   * Without one, the call's span goes under whatever span the application has active.
   *
   * @default undefined
   */
  parent?: TraceHandle;
}

/** What a `ledger` option must be: the port's four methods, checked where it is given. */
export const LEDGER = hasMethods<CallLedger>(
  "a CallLedger (get, begin, renew and finish)",
  "get",
  "begin",
  "renew",
  "finish",
);

/**
 * A call's options, checked before anything of the call starts: a signal that is not one, a
 * ledger that is not one or an object as `scope` is a `TypeError` by `who`, and nothing runs.
 */
export function checkCallOptions(who: string, options: InvokeOptions | undefined): void {
  // Whatever its type says: JavaScript callers pass anything.
  const given: unknown = options;
  if (options === undefined) return;
  check(who, "options", given, anObject);
  const { signal, onProgress, onLog, ledger, scope, leaseMs } = options;
  checkOptional(who, "signal", signal, aSignal);
  checkOptional(who, "onProgress", onProgress, aFunction);
  checkOptional(who, "onLog", onLog, aFunction);
  checkOptional(who, "ledger", ledger, LEDGER);
  checkOptional(who, "scope", scope, aName);
  checkOptional(who, "leaseMs", leaseMs, aCount);
}
