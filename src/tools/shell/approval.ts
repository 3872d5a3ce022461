/**
 * The approval policy and the ledger, where they meet `execute`: every call that passed its checks
 * is asked about (allow, deny or ask a person), looked up in the ledger (a call already answered is
 * replayed, never run again), and recorded before and after it runs. A call the policy asks about
 * is held as a `PendingCall` bound to its exact input by a digest, until a decision settles it.
 */
import { denied, executeFailed } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { err, type Result } from "../core/result.js";
import type {
  AgentSchema,
  ApprovalPolicy,
  ApprovalVerdict,
  EffectFlags,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { contentKey } from "../validation/cache.js";
import { toJsonValue } from "../wire/result-text.js";
import type { CallLedger, LedgerEntry, LedgerLease, RecordedOutcome } from "./ledger.js";

// WebCrypto and TextEncoder exist in Node 20, browsers and workers; the neutral build declares
// only the part it uses instead of depending on a runtime's type library.
declare const crypto: {
  subtle: { digest(algorithm: "SHA-256", data: Uint8Array): PromiseLike<ArrayBuffer> };
};
declare const TextEncoder: new () => { encode(text: string): Uint8Array };

/**
 * A call the approval policy asked a person about. It has not run. It is plain JSON, bound to its
 * exact call by `digest`: the SHA-256 of the canonical JSON of its id, command and validated input.
 */
export interface PendingCall {
  /** The provider's call id. */
  readonly id?: string;
  readonly command: string;
  /** The validated input, defaults applied: what `execute` will receive if it is approved. */
  readonly input: unknown;
  /** The command's effect flags. */
  readonly flags: EffectFlags;
  /** The tool name the model called, when it differs from `command`. */
  readonly toolName?: string;
  /**
   * Binds a decision to this call: the hex SHA-256 of the canonical JSON (keys sorted) of
   * `{ id, command, input }`.
   */
  readonly digest: string;
}

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
  | "tampered";

/**
 * Decisions that cannot be applied: thrown (rejected) by `resumeToolCalls` and `resumeToolLoop`
 * before anything runs. It is the application's mistake, never the model's.
 */
export class ApprovalError extends Error {
  override readonly name = "ApprovalError";
  constructor(
    readonly code: ApprovalErrorCode,
    message: string,
  ) {
    super(message);
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

/** What the shell passes per call: the ledger, and (inside) the approvals a resume carries. */
export interface GuardOptions {
  ledger?: CallLedger;
}

// The digests a resume approved, attached to the options object it invokes with. Kept out of the
// public options so that nothing but a checked decision can approve a call.
const approvals = new WeakMap<object, ReadonlySet<string>>();

/** `options` carrying the approval of `digests`. */
export function withApprovals<O extends object>(options: O, digests: Iterable<string>): O {
  const carrying = { ...options };
  approvals.set(carrying, new Set(digests));
  return carrying;
}

/** What one guarded call produced: its route when `execute` was called, and its outcome. */
export interface Guarded<S, E extends RuntimeEvent> {
  route?: Route;
  outcome: Result<Observation<S, E>, ToolError>;
  /** Set when the policy asked a person: the call did not run and waits for a decision. */
  pending?: PendingCall;
}

/** Why a held call was refused when nobody could be asked, or the asking failed. */
export const NOT_ASKED = "it needs a person's approval, which was not given";

/**
 * The step between a resolved call and its `execute`: the ledger first (a call already recorded is
 * replayed), then the policy, then `execute`, recorded before and after. Without a policy and a
 * ledger the bridge never calls it.
 */
export async function guard<S, E extends RuntimeEvent>(
  policy: ApprovalPolicy | undefined,
  route: Route,
  call: NeutralToolCall,
  schema: AgentSchema,
  options: GuardOptions | undefined,
  execute: () => Promise<Result<Observation<S, E>, ToolError>>,
): Promise<Guarded<S, E>> {
  const called = call.toolName ?? route.command;
  const approved = options ? approvals.get(options) : undefined;
  // A call without an id cannot be told from an identical one, so it is not recorded — unless a
  // person approved it: that decision must never run it twice.
  const ledger = call.id === undefined && !approved ? undefined : options?.ledger;
  // Hashed only when something needs it: a ledger, or a call the policy asks about.
  let digest = ledger ? await callDigest(call.id, route.command, route.input) : "";
  if (ledger) {
    const entry = await ledger.get(digest);
    if (entry) return { outcome: replay(entry, route.command, called) };
  }
  if (policy) {
    const declared = schema.commands[route.command] ?? {};
    const flags = flagsOf(declared);
    const verdict = await ask(policy, { route, schema: declared, flags, call });
    if (verdict !== "allow" && verdict !== "ask") {
      const reason = verdict === "deny" ? undefined : verdict.deny;
      return { outcome: err(denied(route.command, reason, called)) };
    }
    if (verdict === "ask") digest ||= await callDigest(call.id, route.command, route.input);
    if (verdict === "ask" && !approved?.has(digest)) {
      const pending: PendingCall = {
        ...(call.id === undefined ? {} : { id: call.id }),
        command: route.command,
        input: route.input,
        flags,
        ...(call.toolName === undefined ? {} : { toolName: call.toolName }),
        digest,
      };
      // Answered as a denial until a decision comes: an application that ignores `pending`
      // still tells the model the call did not run.
      return { outcome: err(denied(route.command, NOT_ASKED, called)), pending };
    }
  }
  if (!ledger) return { route, outcome: await execute() };
  // Intent before execute: once this is recorded the call never runs again, even if the process
  // dies before its outcome is.
  if (!(await ledger.begin(digest, lease()))) {
    return { outcome: replay((await ledger.get(digest)) ?? STARTED, route.command, called) };
  }
  const outcome = await execute();
  await ledger.finish(digest, recordOutcome(outcome));
  return { route, outcome };
}

/** An entry that vanished between `begin` and `get`: treated as started by someone else. */
export const STARTED: LedgerEntry = { status: "started", holder: "", until: 0 };

// Placeholder until the shell holds and renews leases (issue 24 §1, done on another branch): this
// process's holder id, and a lease long enough for a call to run.
const HOLDER = Math.random().toString(36).slice(2);
export const lease = (): LedgerLease => ({ holder: HOLDER, until: Date.now() + 60_000 });

/** The policy's verdict; a policy that throws, rejects or answers nonsense denies. */
async function ask(
  policy: ApprovalPolicy,
  request: Parameters<ApprovalPolicy>[0],
): Promise<ApprovalVerdict> {
  try {
    const verdict: unknown = await policy(request);
    if (verdict === "allow" || verdict === "ask" || verdict === "deny") return verdict;
    const reason = isRecord(verdict) ? verdict.deny : undefined;
    if (typeof reason === "string") return { deny: reason };
  } catch {
    // fails closed, below
  }
  return { deny: "the approval policy could not decide" };
}

function flagsOf({ readOnly, destructive, idempotent }: EffectFlags): EffectFlags {
  // Only the flags the command declares; a JSON copy leaves the undefined ones out.
  return toJsonValue({ readOnly, destructive, idempotent }) as EffectFlags;
}

/** A ledger entry as the call's answer: its recorded outcome, or "may have taken effect". */
export function replay<S, E extends RuntimeEvent>(
  entry: LedgerEntry,
  command: string,
  called: string,
): Result<Observation<S, E>, ToolError> {
  // Recorded from this component's own outcome; only its JSON form survived the store.
  if (entry.status === "answered") return entry.outcome as Result<Observation<S, E>, ToolError>;
  const detail =
    "was started earlier but its outcome was never recorded (the process running it stopped). " +
    "It may have taken effect: check the state before calling it again.";
  return err(executeFailed(command, "interrupted", detail, { called }));
}

/** An outcome as plain JSON: the snapshot encoded as the model reads it, an error without `cause`. */
export function recordOutcome(outcome: Result<Observation, ToolError>): RecordedOutcome {
  // The JSON form of an outcome is an outcome: the encoding keeps every field but `cause`.
  return toJsonValue(
    outcome.ok ? outcome : { ok: false, error: { ...outcome.error, cause: undefined } },
  ) as RecordedOutcome;
}

/**
 * For a framework that asks a person itself (AI SDK `needsApproval`, Agents SDK interruptions):
 * whether `policy` says `"ask"` for `call`, resolved as the bridge would resolve it. A call that
 * does not resolve, or a policy that fails, is not asked about: the bridge answers it.
 */
export async function policyAsks(
  policy: ApprovalPolicy,
  schema: AgentSchema,
  call: NeutralToolCall,
  route: Result<Route, ToolError>,
): Promise<boolean> {
  if (!route.ok) return false;
  const declared = schema.commands[route.value.command] ?? {};
  const request = { route: route.value, schema: declared, flags: flagsOf(declared), call };
  return (await ask(policy, request)) === "ask";
}

/**
 * `policy` for the bridge behind a framework that asks a person itself: the framework runs a call
 * the policy asks about only once the person approved it, so `"ask"` is `"allow"` there, and
 * `"deny"` is still the bridge's to answer.
 */
export function askedByFramework(policy: ApprovalPolicy): ApprovalPolicy {
  return async (request) => {
    const verdict = await policy(request);
    return verdict === "ask" ? "allow" : verdict;
  };
}
