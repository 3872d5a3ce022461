/**
 * A person's decisions on held calls: each bound to one pending call by its digest, made with
 * `approveCall` or `denyCall`, and checked all together before anything runs; what cannot be
 * applied is an `ApprovalError`, the application's to handle, never the model's.
 */

import type { PendingCall } from "../core/approval.js";
import { contentKey } from "../validation/cache.js";

// WebCrypto and TextEncoder exist in Node 20, browsers and workers; the neutral build declares
// only the part it uses instead of depending on a runtime's type library.
declare const crypto: {
  subtle: { digest(algorithm: "SHA-256", data: Uint8Array): PromiseLike<ArrayBuffer> };
};
declare const TextEncoder: new () => { encode(text: string): Uint8Array };

/**
 * A person's answer to one `PendingCall`, bound to it by its `digest`. Make one with
 * `approveCall` or `denyCall`.
 */
export interface ApprovalDecision {
  /** The digest of the pending call this decision is for. */
  readonly digest: string;
  readonly verdict: "allow" | "deny";
  /** Why it was denied, for the model. */
  readonly reason?: string;
  /** Milliseconds since the epoch after which the decision is refused. */
  readonly expiresAt?: number;
}

/**
 * Approves `pending`, and only that call with that input.
 *
 * @example
 * ```ts
 * const decisions = result.pending.map((call) => approveCall(call, { expiresAt: Date.now() + 60_000 }));
 * ```
 */
export function approveCall(
  pending: PendingCall,
  options: { expiresAt?: number } = {},
): ApprovalDecision {
  return { digest: pending.digest, verdict: "allow", ...options };
}

/**
 * Denies `pending`; the model reads `reason`.
 *
 * @example
 * ```ts
 * const decisions = result.pending.map((call) => denyCall(call, "not during office hours"));
 * ```
 */
export function denyCall(pending: PendingCall, reason?: string): ApprovalDecision {
  return { digest: pending.digest, verdict: "deny", ...(reason === undefined ? {} : { reason }) };
}

/** Why a set of decisions was refused; see `ApprovalError`. */
export type ApprovalErrorCode =
  /** The decision names no call pending in the state (another call, or one already decided). */
  | "not-pending"
  /** Two decisions for the same call. */
  | "duplicate"
  /** A pending call has no decision. */
  | "undecided"
  /** The decision's time is past its `expiresAt`. */
  | "expired"
  /** The state's pending call no longer matches its own digest: it was changed after the pause. */
  | "tampered"
  /**
   * This paused turn was already resumed, to its end: its result is the only continuation. A
   * decision delivered twice (a webhook retried, a queue's redelivery) meets this; drop it.
   */
  | "already-resumed"
  /**
   * This paused turn is being resumed right now by another resume (this process or another),
   * whose lease has not run out: try again after `retryAt`. If that resume's process died, the
   * retry then recovers the turn.
   */
  | "resuming-elsewhere"
  /** The ledger failed while the resume was being claimed (its store is down): nothing ran. */
  | "ledger-failed";

/**
 * Decisions that cannot be applied, or a paused turn that cannot be resumed now: thrown (rejected)
 * by `resumeToolCalls` and `resumeToolLoop` before anything runs or the model is asked. It is the
 * application's to handle, never the model's.
 */
export class ApprovalError extends Error {
  override readonly name = "ApprovalError";
  /**
   * With `resuming-elsewhere`: when the other resume's lease runs out (ms since the epoch), unless
   * it is renewed — the time to try again.
   */
  readonly retryAt?: number;
  constructor(
    readonly code: ApprovalErrorCode,
    message: string,
    options: { retryAt?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAt !== undefined) this.retryAt = options.retryAt;
  }
}

/** The hex SHA-256 digest binding a call: its id, its command and its validated input. */
export async function callDigest(
  id: string | undefined,
  command: string,
  input: unknown,
): Promise<string> {
  // Canonical JSON: keys sorted, so equal calls hash equal however their keys were written.
  const text = contentKey({ id: id ?? null, command, input: input ?? null });
  const hash = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Every decision checked against the pending calls of `answers` (a paused turn's), before anything runs. */
export async function checkDecisions(
  answers: readonly { readonly pending?: PendingCall | undefined }[],
  decisions: readonly ApprovalDecision[],
  now: () => number,
): Promise<Map<string, ApprovalDecision>> {
  const pending = new Map<string, PendingCall>();
  for (const { pending: call } of answers) {
    if (call === undefined) continue;
    // The digest is computed again: a state changed after the pause cannot carry an old one.
    if ((await callDigest(call.id, call.command, call.input)) !== call.digest) {
      throw new ApprovalError(
        "tampered",
        `The pending call ${describeCall(call)} does not match its digest: the stored state was changed after the pause.`,
      );
    }
    pending.set(call.digest, call);
  }
  const chosen = new Map<string, ApprovalDecision>();
  const time = now();
  for (const decision of decisions) {
    const call = pending.get(decision.digest);
    if (call === undefined) {
      throw new ApprovalError(
        "not-pending",
        `A decision (digest ${decision.digest}) is for no call pending in this state: another call, another input, or a call already decided.`,
      );
    }
    if (chosen.has(decision.digest)) {
      throw new ApprovalError("duplicate", `Two decisions were given for ${describeCall(call)}.`);
    }
    if (decision.expiresAt !== undefined && !(time <= decision.expiresAt)) {
      throw new ApprovalError(
        "expired",
        `The decision for ${describeCall(call)} expired at ${new Date(decision.expiresAt).toISOString()}.`,
      );
    }
    chosen.set(decision.digest, decision);
  }
  for (const call of pending.values()) {
    if (!chosen.has(call.digest)) {
      throw new ApprovalError("undecided", `No decision was given for ${describeCall(call)}.`);
    }
  }
  return chosen;
}

function describeCall(call: PendingCall): string {
  return `${JSON.stringify(call.command)}${call.id === undefined ? "" : ` (call ${call.id})`}`;
}
