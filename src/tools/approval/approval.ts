/**
 * The approval and exactly-once layer, `approval(policy)`: between a resolved call and its
 * `execute`, the ledger it was given first (a call already recorded is replayed), then the policy
 * — not asked again for a call a person approved — then `execute`, recorded before and after. A
 * call the policy asks about is held as a `PendingCall`, bound to its exact input by a digest,
 * until a decision settles it (approval/pause.ts).
 */

import { markApproved } from "../bridge/approved.js";
import type { InvokeOptions } from "../bridge/call-options.js";
import { newHolder, newId } from "../bridge/ids.js";
import type { BridgeParts, Layer, Run } from "../bridge/pipeline.js";
import type {
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalVerdict,
  PendingCall,
  Questions,
} from "../core/approval.js";
import { aFunction, checkOptional, given } from "../core/checks.js";
import { denied } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { err } from "../core/result.js";
import type {
  AgentSchema,
  Answers,
  CommandSchema,
  EffectFlags,
  NeutralToolCall,
  Route,
  RuntimeEvent,
  WarningSink,
} from "../core/types.js";
import { toJsonValue } from "../wire/result-text.js";
import { callDigest } from "./decisions.js";
import { DEFAULT_LEASE_MS } from "./lease.js";
import { lookUp, type Recording, recorded, ruleFor } from "./record.js";

/** The approval layer: what `approve` takes. */
export interface Approval extends Layer<"approval"> {
  /** The policy it asks; `undefined` when it only records calls. */
  readonly policy: ApprovalPolicy | undefined;
}

/**
 * The approval and exactly-once layer for `igniteTools`' `approve` option. With a policy, each
 * call that passed validation and availability is asked about: `"allow"` runs it, `"deny"` (or
 * `{ deny: reason }`) answers it `Denied`, `"ask"` holds it for a person (`pending`). A policy
 * that throws denies. With or without one, a call given a `ledger` is recorded before and after
 * it runs, so it runs once. The layer's own calls (the wait) are never asked about or recorded.
 *
 * @example
 * ```ts
 * const tools = igniteTools(shop, openai, {
 *   approve: approval(({ flags }) => (flags.destructive ? "ask" : "allow")),
 * });
 * ```
 */
export function approval(policy?: ApprovalPolicy): Approval {
  checkOptional("approval", "policy", policy, aFunction);
  // `approve: approval` on Node, where a function is still taken as a policy (the 0.1 form).
  const value: unknown = policy;
  if (value === approval) {
    throw new TypeError("approval: approve takes approval(policy), not approval itself: call it");
  }
  return { layer: "approval", policy, install: (parts) => guard(parts, policy) };
}

/** The policy of `approve` (an `approval` layer), when it has one. */
export function policyOf(approve: unknown): ApprovalPolicy | undefined {
  if (typeof approve !== "object" || approve === null || !("policy" in approve)) return undefined;
  const { policy } = approve;
  return typeof policy === "function" ? (request) => policy(request) : undefined;
}

/** What a resume attaches to the options it invokes an approved call with. */
interface Approvals {
  readonly digests: ReadonlySet<string>;
  readonly now: (() => number) | undefined;
  /** The person's answers so far, and whether they answer questions the policy must now read. */
  readonly answered: Answered | undefined;
}

/** A held call's answers: all of them so far, and whether this decision brought new ones. */
export interface Answered {
  readonly answers: Answers;
  /** The policy asked questions and these answer them: it is asked again, with them. */
  readonly again: boolean;
}

// The digests a resume approved, attached to the options object it invokes with. Kept out of the
// public options so that nothing but a checked decision can approve a call.
const approvals = new WeakMap<object, Approvals>();

/**
 * `options` carrying the approval of `digests` (and the resume's clock, for the leases), and the
 * person's answers to the call's questions when it was asked some.
 */
export function withApprovals<O extends object>(
  options: O,
  digests: Iterable<string>,
  now?: () => number,
  answered?: Answered,
): O {
  const carrying = { ...options };
  approvals.set(carrying, { digests: new Set(digests), now, answered });
  markApproved(carrying);
  return carrying;
}

/**
 * What an approved held call carries to its run: every answer so far, and whether the decision
 * answered the policy's questions (then the policy reads them) or only confirmed the call.
 */
export function answeredOf(pending: PendingCall, given: Answers | undefined): Answered | undefined {
  if (pending.questions) return { answers: { ...pending.answers, ...given }, again: true };
  return pending.answers && { answers: pending.answers, again: false };
}

/** Why a held call was refused when nobody could be asked, or the asking failed. */
export const NOT_ASKED = "it needs a person's approval, which was not given";

/** Wraps the route stage of one bridge: every call with a policy, a ledger or an approval. */
function guard<S, E extends RuntimeEvent>(
  { pipeline, warn }: BridgeParts<S, E>,
  policy: ApprovalPolicy | undefined,
): void {
  const next = pipeline.route;
  // Made once per bridge: the policy asked, its non-verdicts told to this bridge's onWarning.
  const asking = policy && ((request: ApprovalRequest) => ask(policy, request, warn));
  pipeline.route = (route, call, schema, options, span) => {
    const approved = options && approvals.get(options);
    const quiet = policy === undefined && options?.ledger === undefined && !approved;
    if (quiet || pipeline.beside(route.command)) return next(route, call, schema, options, span);
    span?.phase("approve");
    // The ledger is this layer's: what runs after it is the call alone.
    const rest = options && withoutLedger(options);
    const run = (routed: Route) => next(routed, call, schema, rest, span);
    return guarded<S, E>(asking, approved, route, call, schema, options, run).then((done) => {
      if (done.pending) span?.phase("held");
      return done;
    });
  };
}

/**
 * The ledger first (a call already recorded is replayed), then the policy — not asked again for
 * a call a person approved, since it was asked when the call was held, nor for one this call took
 * over from a holder that died (it was let through when it first started) — then `run`, recorded.
 */
async function guarded<S, E extends RuntimeEvent>(
  policy: ((request: ApprovalRequest) => Promise<Verdict>) | undefined,
  approved: Approvals | undefined,
  route: Route,
  call: NeutralToolCall,
  schema: AgentSchema,
  options: InvokeOptions | undefined,
  run: (route: Route) => Run<S, E> | Promise<Run<S, E>>,
): Promise<Run<S, E>> {
  const called = call.toolName ?? route.command;
  // A call without an id cannot be told from an identical one, so it is not recorded — unless a
  // person approved it: that decision must never run it twice.
  const ledger = call.id === undefined && !approved ? undefined : options?.ledger;
  // Hashed only when something needs it: a ledger, an approval, or a call the policy asks about.
  let digest = ledger || approved ? await callDigest(call.id, route.command, route.input) : "";
  const given = options?.scope;
  const declared = schema.commands[route.command] ?? {};
  const recording: Recording | undefined = ledger && {
    ledger,
    key: `${given ?? newId()}/${digest}`,
    leasing: {
      holder: newHolder(),
      leaseMs: options?.leaseMs ?? DEFAULT_LEASE_MS,
      now: approved?.now ?? Date.now,
    },
    rule: ruleFor(declared.idempotent === true, options?.signal),
  };
  // A scope of its own is new: nothing can be recorded under it yet.
  let held = false;
  if (recording && given !== undefined) {
    const found = await lookUp<S, E>(recording, route, called);
    if (found.outcome) return { outcome: found.outcome };
    held = found.held;
  }
  // The person's answers go with the call: to the policy, asked again, and to `execute`.
  const answered = approved?.answered;
  const routed = answered ? { ...route, answers: answered.answers } : route;
  if (policy && (!approved?.digests.has(digest) || answered?.again) && !held) {
    const flags = flagsOf(declared);
    const verdict = await policy({ route: routed, schema: declared, flags, call });
    if (verdict === "deny" || (typeof verdict === "object" && "deny" in verdict)) {
      const reason = verdict === "deny" ? undefined : verdict.deny;
      return { outcome: err(denied(route.command, reason, called)) };
    }
    if (verdict !== "allow") {
      digest ||= await callDigest(call.id, route.command, route.input);
      // Answered as a denial until a decision comes: an application that ignores `pending`
      // still tells the model the call did not run.
      const questions = verdict === "ask" ? undefined : verdict.ask;
      const pending = pendingCall(call, routed, declared, flags, digest, questions);
      return { outcome: err(denied(route.command, NOT_ASKED, called)), pending };
    }
  }
  return recording ? recorded(recording, routed, called, held, () => run(routed)) : run(routed);
}

/** The call held for a person: plain JSON, with what an approval screen shows of its command. */
function pendingCall(
  call: NeutralToolCall,
  route: Route,
  declared: CommandSchema,
  flags: EffectFlags,
  digest: string,
  questions: Questions | undefined,
): PendingCall {
  const { title, description } = declared;
  return {
    ...(call.id === undefined ? {} : { id: call.id }),
    command: route.command,
    input: route.input,
    flags,
    ...(call.toolName === undefined ? {} : { toolName: call.toolName }),
    ...(typeof title === "string" ? { title } : {}),
    ...(typeof description === "string" ? { description } : {}),
    ...(questions === undefined ? {} : { questions }),
    ...(route.answers === undefined ? {} : { answers: route.answers }),
    digest,
  };
}

/** `options` without what the ledger layer consumed, for the stages after it. */
function withoutLedger(options: InvokeOptions): InvokeOptions {
  const { ledger: _ledger, scope: _scope, leaseMs: _leaseMs, ...rest } = options;
  return rest;
}

/** A verdict as `ask` reads it: questions copied as JSON, so none is `undefined`. */
export type Verdict =
  | Exclude<ApprovalVerdict, { readonly ask: unknown }>
  | { readonly ask: Questions };

/**
 * The policy's verdict; a policy that throws or rejects denies, and one that answers what is not
 * a verdict (`true`, `"yes"`, the `approval` factory given uncalled) denies saying what it gave,
 * and the application hears of it through `warn`.
 */
export async function ask(
  policy: ApprovalPolicy,
  request: ApprovalRequest,
  warn?: WarningSink,
): Promise<Verdict> {
  let verdict: unknown;
  try {
    verdict = await policy(request);
  } catch {
    return { deny: "the approval policy could not decide" };
  }
  if (verdict === "allow" || verdict === "ask" || verdict === "deny") return verdict;
  const reason = isRecord(verdict) ? verdict.deny : undefined;
  if (typeof reason === "string") return { deny: reason };
  const questions = isRecord(verdict) ? questionsOf(verdict.ask) : undefined;
  if (questions) return { ask: questions };
  const problem = `the approval policy gave ${given(verdict)}, which is not a verdict ("allow", "ask", "deny", { deny: reason } or { ask: questions })`;
  warn?.({ code: "policy-not-a-verdict", command: request.route.command, message: `${problem}.` });
  return { deny: problem };
}

/**
 * `value` as questions (a JSON copy: a key whose question is `undefined` left out), when it is
 * some: at least one, each with a `message` and an object `schema` of `properties`.
 */
function questionsOf(value: unknown): Questions | undefined {
  if (!isRecord(value)) return undefined;
  const asked = Object.values(value).filter((question) => question !== undefined);
  const fit = asked.length > 0 && asked.every(aQuestion);
  // Checked just above: each is a question.
  return fit ? (toJsonValue(value) as Questions) : undefined;
}

function aQuestion(value: unknown): boolean {
  if (!isRecord(value) || typeof value.message !== "string" || !isRecord(value.schema))
    return false;
  const { type, properties } = value.schema;
  return type === "object" && isRecord(properties);
}

export function flagsOf({ readOnly, destructive, idempotent }: EffectFlags): EffectFlags {
  // Only the flags the command declares; a JSON copy leaves the undefined ones out.
  return toJsonValue({ readOnly, destructive, idempotent }) as EffectFlags;
}
