/**
 * A person's decisions on held calls: each bound to one pending call by its digest, made with
 * `approveCall` or `denyCall`, and checked all together before anything runs; what cannot be
 * applied is an `ApprovalError`, the application's to handle, never the model's.
 */

import type { PendingCall } from "../core/approval.js";
import { aName, anObject, check, checkOptional, type Expect, given } from "../core/checks.js";
import { isRecord } from "../core/json.js";
import type { Answers } from "../core/types.js";
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
  /** The person's answers to the call's questions, by question key (`PendingCall.questions`). */
  readonly answers?: Answers;
}

/**
 * Approves `pending`, and only that call with that input. A call the policy asked questions about
 * (`pending.questions`) is approved with the person's answers, one per question key: the policy
 * is then asked again with them, and the command runs with them (`context.answers`).
 *
 * @example
 * ```ts
 * const decisions = result.pending.map((call) => approveCall(call, { expiresAt: Date.now() + 60_000 }));
 * ```
 */
export function approveCall(
  pending: PendingCall,
  options: { expiresAt?: number; answers?: Answers } = {},
): ApprovalDecision {
  checkPending("approveCall", pending);
  // `pending.map(approveCall)` passes each index as the options: an index is no option.
  const given = typeof options === "number" ? {} : options;
  check("approveCall", "options", given satisfies unknown, anObject);
  // A time the clock can be compared with, said now rather than at the resume ("tomorrow").
  checkOptional("approveCall", "expiresAt", given.expiresAt, EPOCH_MS);
  checkAnswers(pending, given.answers);
  return { digest: pending.digest, verdict: "allow", ...given };
}

/**
 * Answers are given to a call asked questions, one object per question and none for a question
 * that was not asked: a `TypeError` saying which, before anything is resumed.
 */
function checkAnswers(pending: PendingCall, answers: unknown): void {
  const asked = pending.questions ? Object.keys(pending.questions) : [];
  if (answers === undefined && asked.length === 0) return;
  const which = `answers for ${describeCall(pending)}`;
  if (asked.length === 0) {
    throw new TypeError(`approveCall: ${which}: it was asked no questions, so it takes no answers`);
  }
  if (!isRecord(answers)) {
    throw new TypeError(
      `approveCall: ${which} must be an object of answers by question key, not ${given(answers)}`,
    );
  }
  for (const key of asked) {
    if (!isRecord(answers[key])) {
      throw new TypeError(
        `approveCall: ${which}: the answer to ${JSON.stringify(key)} must be an object of the form's values, not ${given(answers[key])}`,
      );
    }
  }
  const extra = Object.keys(answers).find((key) => !asked.includes(key));
  if (extra !== undefined) {
    throw new TypeError(
      `approveCall: ${which}: ${JSON.stringify(extra)} was not asked (asked: ${asked.map((key) => JSON.stringify(key)).join(", ")})`,
    );
  }
}

/** A time in milliseconds since the epoch, as `Date.now()` gives it. */
const EPOCH_MS: Expect<number> = {
  allowed: "a time in milliseconds since the epoch, such as Date.now() + 60_000",
  test: (value): value is number => typeof value === "number" && Number.isFinite(value),
};

/** What a decision is made for: a pending call of a paused result, with its digest. */
function checkPending(who: string, pending: unknown): void {
  check(who, "pending", pending, PENDING);
}

const PENDING: Expect<PendingCall> = {
  allowed: "a PendingCall (an entry of a paused result's pending)",
  test: (value): value is PendingCall =>
    typeof value === "object" && value !== null && aName.test(Reflect.get(value, "digest")),
};

/**
 * Denies `pending`; the model reads `reason`.
 *
 * @example
 * ```ts
 * const decisions = result.pending.map((call) => denyCall(call, "not during office hours"));
 * ```
 */
export function denyCall(pending: PendingCall, reason?: string): ApprovalDecision {
  checkPending("denyCall", pending);
  // `pending.map(denyCall)` passes each index as the reason: an index is no reason.
  const said = typeof reason === "number" ? undefined : reason;
  checkOptional("denyCall", "reason", said, aName);
  return {
    digest: pending.digest,
    verdict: "deny",
    ...(said === undefined ? {} : { reason: said }),
  };
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
  who = "resumeToolLoop",
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
    const found: unknown = decision;
    if (!DECISION.test(found)) {
      const verdict = isRecord(found) ? ` with verdict ${given(found.verdict)}` : "";
      throw new TypeError(
        `${who}: decisions must be what approveCall and denyCall make, not ${given(found)}${verdict}`,
      );
    }
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

/** A decision as approveCall and denyCall make it: a verdict of "allow" or "deny" for a digest. */
const DECISION: Expect<ApprovalDecision> = {
  allowed: "a decision",
  test: (value): value is ApprovalDecision =>
    isRecord(value) &&
    aName.test(value.digest) &&
    (value.verdict === "allow" || value.verdict === "deny") &&
    (value.expiresAt === undefined || EPOCH_MS.test(value.expiresAt)) &&
    (value.answers === undefined || isRecord(value.answers)),
};

function describeCall(call: PendingCall): string {
  return `${JSON.stringify(call.command)}${call.id === undefined ? "" : ` (call ${call.id})`}`;
}
