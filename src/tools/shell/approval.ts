/**
 * The approval policy and the ledger, where they meet `execute`: every call that passed its checks
 * is asked about (allow, deny or ask a person), looked up in the ledger (a call already answered is
 * replayed, never run again), and recorded before and after it runs. A call the policy asks about
 * is held as a `PendingCall` bound to its exact input by a digest, until a decision settles it.
 */
import { denied, describe, executeFailed } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { err, type Result } from "../core/result.js";
import type {
  AbortSignalLike,
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
import { newHolder, newId } from "./ids.js";
import {
  awaitHolder,
  DEFAULT_LEASE_MS,
  isDenying,
  isLive,
  keepLease,
  type Leasing,
  leaseFrom,
} from "./lease.js";
import type { CallLedger, LedgerEntry, RecordedOutcome } from "./ledger.js";

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

/** What the shell passes per call: the ledger, the scope of its keys, and the lease's length. */
export interface GuardOptions {
  /**
   * Records the call before and after it runs (see docs/approval.md): a call it already holds as
   * answered is replayed, one started by a process that died is answered `interrupted`, one still
   * running elsewhere is waited for. A call without an id is recorded only when a person approved
   * it.
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

/** What a resume attaches to the options it invokes an approved call with. */
interface Approvals {
  readonly digests: ReadonlySet<string>;
  readonly now: (() => number) | undefined;
}

// The digests a resume approved, attached to the options object it invokes with. Kept out of the
// public options so that nothing but a checked decision can approve a call.
const approvals = new WeakMap<object, Approvals>();

/** `options` carrying the approval of `digests` (and the resume's clock, for the leases). */
export function withApprovals<O extends object>(
  options: O,
  digests: Iterable<string>,
  now?: () => number,
): O {
  const carrying = { ...options };
  approvals.set(carrying, { digests: new Set(digests), now });
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
 * replayed), then the policy — not asked again for a call a person approved, since it was asked
 * when the call was held — then `execute`, recorded before and after under a renewed lease.
 * Without a policy and a ledger the bridge never calls it.
 */
export async function guard<S, E extends RuntimeEvent>(
  policy: ApprovalPolicy | undefined,
  route: Route,
  call: NeutralToolCall,
  schema: AgentSchema,
  options: GuardOptions | undefined,
  signal: AbortSignalLike | undefined,
  execute: () => Promise<Result<Observation<S, E>, ToolError>>,
): Promise<Guarded<S, E>> {
  const called = call.toolName ?? route.command;
  const approved = options ? approvals.get(options) : undefined;
  // A call without an id cannot be told from an identical one, so it is not recorded — unless a
  // person approved it: that decision must never run it twice.
  const ledger = call.id === undefined && !approved ? undefined : options?.ledger;
  // Hashed only when something needs it: a ledger, an approval, or a call the policy asks about.
  let digest = ledger || approved ? await callDigest(call.id, route.command, route.input) : "";
  const allowed = approved?.digests.has(digest) === true;
  const now = approved?.now ?? Date.now;
  const given = options?.scope;
  const key = ledger ? `${given ?? newId()}/${digest}` : "";
  const failed = (detail: string, cause: unknown) =>
    err(
      executeFailed(route.command, "ledger", `${detail} (${describe(cause)}).`, { cause, called }),
    );
  const leasing: Leasing = {
    holder: newHolder(),
    leaseMs: options?.leaseMs ?? DEFAULT_LEASE_MS,
    now,
  };
  const idempotent = schema.commands[route.command]?.idempotent === true;
  // Whether this call now holds the ledger's entry, taken over from a process that died.
  let retaken = false;
  // A scope of its own is new: nothing can be recorded under it yet.
  if (ledger && given !== undefined) {
    try {
      const found = await ledger.get(key);
      if (found) {
        const [taken, entry] = await takeOver(ledger, key, found, idempotent, leasing, signal);
        retaken = taken;
        if (!retaken)
          return { outcome: await answerFrom(ledger, key, entry, route, called, now, signal) };
      }
    } catch (error) {
      return { outcome: failed(`${NOT_RUN}: the ledger could not be read`, error) };
    }
  }
  // A retaken call was let through when it first started: the policy is not asked again.
  if (policy && !allowed && !retaken) {
    const declared = schema.commands[route.command] ?? {};
    const flags = flagsOf(declared);
    const verdict = await ask(policy, { route, schema: declared, flags, call });
    if (verdict !== "allow" && verdict !== "ask") {
      const reason = verdict === "deny" ? undefined : verdict.deny;
      return { outcome: err(denied(route.command, reason, called)) };
    }
    if (verdict === "ask") {
      digest ||= await callDigest(call.id, route.command, route.input);
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
  try {
    if (!retaken && !(await ledger.begin(key, leaseFrom(leasing)))) {
      // Someone else recorded it first: their answer, once they have one.
      const found = (await ledger.get(key)) ?? { status: "started", holder: "", until: 0 };
      const [taken, entry] = await takeOver(ledger, key, found, idempotent, leasing, signal);
      if (!taken)
        return { outcome: await answerFrom(ledger, key, entry, route, called, now, signal) };
    }
  } catch (error) {
    return { outcome: failed(`${NOT_RUN}: the ledger could not record that it starts`, error) };
  }
  const stop = keepLease(ledger, key, leasing);
  let outcome: Result<Observation<S, E>, ToolError>;
  try {
    outcome = await execute();
  } finally {
    stop();
  }
  try {
    await ledger.finish(key, recordOutcome(outcome));
  } catch (error) {
    const detail = `ran, but its outcome could not be recorded: the ledger failed`;
    const failure = failed(detail, error);
    return {
      route,
      outcome: err({
        ...failure.error,
        message: `${failure.error.message} It ran: check the state before calling it again.`,
      }),
    };
  }
  return { route, outcome };
}

const NOT_RUN = "was not run";

/**
 * Takes over the entry of a call whose process died before recording its outcome (a `started`
 * entry whose lease ran out), for a command declared `idempotent`: running it again has the effect
 * of running it once, so it runs instead of being answered `interrupted`. True when this call now
 * holds the entry; false for a live or answered entry, or when another process took it first.
 */
async function retake(
  ledger: CallLedger,
  key: string,
  entry: LedgerEntry,
  leasing: Leasing,
): Promise<boolean> {
  if (entry.status !== "started" || isLive(entry, leasing.now)) return false;
  return ledger.begin(key, leaseFrom(leasing), { holder: entry.holder, until: entry.until });
}

/**
 * Whether this call now holds `found`'s entry, to run: the entry of an idempotent command (running
 * it again is running it once), or one whose holder was only recording a denial (nothing ran),
 * once its holder is gone — waited out while its lease is live, so one that dies meanwhile is
 * taken over as one found dead at once is. Otherwise false, with the entry as last seen.
 */
async function takeOver(
  ledger: CallLedger,
  key: string,
  found: LedgerEntry,
  idempotent: boolean,
  leasing: Leasing,
  signal: AbortSignalLike | undefined,
): Promise<[boolean, LedgerEntry]> {
  if (!idempotent && !isDenying(found)) return [false, found];
  const entry = await outlast(ledger, key, found, leasing.now, signal);
  return [await retake(ledger, key, entry, leasing), entry];
}

/** Waits while another holds `entry` (a live lease); aborted, the entry as first seen. */
async function outlast(
  ledger: CallLedger,
  key: string,
  entry: LedgerEntry,
  now: () => number,
  signal: AbortSignalLike | undefined,
): Promise<LedgerEntry> {
  if (entry.status !== "started" || !isLive(entry, now)) return entry;
  return (await awaitHolder(ledger, key, entry, now, signal)) ?? entry;
}

/**
 * The answer of a call the ledger already holds: its recorded outcome; for one still running
 * elsewhere (a live lease), that outcome once it comes — never "interrupted" while it runs.
 */
async function answerFrom<S, E extends RuntimeEvent>(
  ledger: CallLedger,
  key: string,
  entry: LedgerEntry,
  route: Route,
  called: string,
  now: () => number,
  signal: AbortSignalLike | undefined,
): Promise<Result<Observation<S, E>, ToolError>> {
  const settled = isLive(entry, now) ? await awaitHolder(ledger, key, entry, now, signal) : entry;
  if (settled) return replay(settled, route.command, called);
  const detail = "was aborted while it waited for another process running it; this one ran nothing";
  return err(executeFailed(route.command, "cancelled", detail, { cause: signal?.reason, called }));
}

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

/** The approval policy as a framework that asks a person itself uses it; see `frameworkApproval`. */
export interface FrameworkApproval {
  /**
   * Whether the policy says `"ask"` for `call`, resolved as the bridge would resolve it: the
   * framework's `needsApproval`. A call that does not resolve, or a policy that fails, is not
   * asked about: the bridge answers it.
   */
  asks(
    schema: AgentSchema,
    call: NeutralToolCall,
    route: Result<Route, ToolError>,
  ): Promise<boolean>;
  /**
   * The policy for the bridge behind the framework: the verdict `asks` got for the same call
   * (its id, command and input) is used again instead of asking the policy a second time, and
   * `"ask"` is `"allow"` — the framework runs such a call only once the person approved it.
   * `"deny"` is still the bridge's to answer.
   */
  policy: ApprovalPolicy;
}

/** The most verdicts kept between a framework's question and the call's `execute`. */
const KEPT_VERDICTS = 1_000;

/**
 * `policy` for a framework that asks a person itself (AI SDK `needsApproval`, Agents SDK
 * interruptions), asked once per call: the framework asks before it runs a call (and may ask
 * again, as AI SDK 6 does when it reads the approvals back), then runs it through the bridge; the
 * verdict given the first time is kept, by the call's id, command and input, until the call runs.
 * At most `KEPT_VERDICTS` are kept (the oldest dropped first): a call approved after that many
 * others were asked about is asked about again when it runs.
 */
export function frameworkApproval(policy: ApprovalPolicy): FrameworkApproval {
  const verdicts = new Map<string, Promise<ApprovalVerdict>>();
  const keyOf = (call: NeutralToolCall, route: Route) =>
    call.id === undefined
      ? undefined
      : contentKey({ id: call.id, command: route.command, input: route.input ?? null });
  const verdictOf = (request: Parameters<ApprovalPolicy>[0], kept: boolean) => {
    const key = keyOf(request.call, request.route);
    const known = key === undefined ? undefined : verdicts.get(key);
    if (known !== undefined && key !== undefined) {
      // Taken when the call runs: a later call with the same id is asked again.
      if (!kept) verdicts.delete(key);
      return known;
    }
    const verdict = ask(policy, request);
    if (kept && key !== undefined) {
      verdicts.set(key, verdict);
      if (verdicts.size > KEPT_VERDICTS) {
        for (const oldest of verdicts.keys()) {
          verdicts.delete(oldest);
          break;
        }
      }
    }
    return verdict;
  };
  return {
    async asks(schema, call, route) {
      if (!route.ok) return false;
      const declared = schema.commands[route.value.command] ?? {};
      const request = { route: route.value, schema: declared, flags: flagsOf(declared), call };
      return (await verdictOf(request, true)) === "ask";
    },
    policy: async (request) => {
      const verdict = await verdictOf(request, false);
      return verdict === "ask" ? "allow" : verdict;
    },
  };
}
