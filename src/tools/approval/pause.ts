/**
 * Pausing a turn whose calls wait for a person, and settling it with their decisions: the one
 * mechanism behind `resumeToolLoop` and an application's own loop. A paused turn is plain JSON;
 * settling it checks every decision before anything runs, claims the turn once in the ledger,
 * then answers every call in order.
 */

import { type CallListeners, listenersOf } from "../bridge/context.js";
import { newHolder, newId } from "../bridge/ids.js";
import type { DialectToolBridge, ToolCallAnswer } from "../bridge/types.js";
import type { PendingCall } from "../core/approval.js";
import { denied, describe } from "../core/errors.js";
import type { CallLedger, RecordedOutcome } from "../core/ledger.js";
import { err, ok, type Result } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  AbortSignalLike,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { describeValue } from "../wire/describe-value.js";
import { toJsonValue } from "../wire/result-text.js";
import { answeredOf, withApprovals } from "./approval.js";
import { type ApprovalDecision, ApprovalError, checkDecisions } from "./decisions.js";
import {
  DEFAULT_LEASE_MS,
  denying,
  isDenying,
  isLive,
  keepLease,
  type Leasing,
  type Taken,
  type TakeRule,
  take,
} from "./lease.js";
import { defaultLedger } from "./ledger.js";
import { recordOutcome, replay } from "./record.js";

/** One call of a paused turn, as plain JSON. */
export interface PausedAnswer<ResultBlock> {
  readonly call: NeutralToolCall;
  readonly route?: Route;
  /** The call's outcome; for a pending call, the denial it gets if no decision ever comes. */
  readonly outcome: RecordedOutcome;
  readonly block: ResultBlock;
  /** Set when the call waits for a decision. */
  readonly pending?: PendingCall;
}

/**
 * A turn whose calls were all answered but those waiting for a person: plain JSON, to store
 * anywhere and settle with `resumeToolCalls`, in this process or another.
 */
export interface PausedTurn<ResultBlock> {
  /**
   * What this turn's keys in a ledger are scoped to: its own id unless `pauseToolCalls` was given
   * one, so that two conversations' calls with the same id, command and input never meet.
   */
  readonly scope: string;
  /** Every call of the turn, in the order the model made them. */
  readonly answers: readonly PausedAnswer<ResultBlock>[];
  /** The calls waiting for a decision, in call order. */
  readonly pending: readonly PendingCall[];
}

/** Options of `pauseToolCalls`. */
export interface PauseOptions {
  /**
   * What the turn's keys in a ledger are scoped to (e.g. `"conversation-42/turn-3"`). Unique per
   * paused turn: two turns paused with one scope are one turn to the ledger.
   *
   * @default a new random id (`crypto.randomUUID()`)
   */
  scope?: string;
}

/**
 * The turn `answerToolCalls` answered, as plain JSON to store while its pending calls wait.
 *
 * @example
 * ```ts
 * const answers = await tools.answerToolCalls(response);
 * if (answers.some((answer) => answer.pending)) save(JSON.stringify(pauseToolCalls(answers)));
 * ```
 */
export function pauseToolCalls<S, E extends RuntimeEvent, ResultBlock>(
  answers: readonly ToolCallAnswer<S, E, ResultBlock>[],
  options: PauseOptions = {},
): PausedTurn<ResultBlock> {
  const paused = answers.map(
    ({ call, route, outcome, block, pending }): PausedAnswer<ResultBlock> => ({
      call: json(call),
      ...(route === undefined ? {} : { route: json(route) }),
      outcome: recordOutcome(outcome),
      block: json(block),
      ...(pending === undefined ? {} : { pending }),
    }),
  );
  return {
    scope: options.scope ?? newId(),
    answers: paused,
    pending: paused.flatMap((answer) => answer.pending ?? []),
  };
}

/** The part of a bridge that settling a turn uses. */
export type SettlingBridge<S, E extends RuntimeEvent, ResultBlock> = Pick<
  DialectToolBridge<S, E, unknown, unknown, ResultBlock>,
  "answerToolCall" | "toToolResult"
>;

/** Options of `resumeToolCalls`. */
export interface ResumeCallsOptions extends CallListeners {
  /**
   * Where the resume is claimed (one resume per paused turn) and each call recorded before and
   * after it runs; a call it already holds is replayed, never run again. Give every process that
   * may resume the same turn the same durable ledger.
   *
   * @default the process's own in-memory ledger, for the claim only — a turn resumed twice in
   *   this process is refused the second time (it keeps the last 10 000 claims)
   */
  ledger?: CallLedger;
  /** Aborting answers the calls that have not run yet `cancelled`. */
  signal?: AbortSignalLike;
  /** The span the approved calls' spans go under (the resumed turn's), with a `tracer`. */
  parent?: TraceHandle;
  /**
   * The clock `expiresAt` and the leases are read with, in milliseconds since the epoch.
   *
   * @default Date.now
   */
  now?: () => number;
  /**
   * How long the resume's claim, and each call's `started` entry, hold before they count as left
   * by a process that died; renewed every third of it while the resume runs.
   *
   * @default 30_000
   */
  leaseMs?: number;
  /**
   * What this resume does when it meets another resume of the same turn still running (its
   * lease live): `"refuse"` rejects at once with an `ApprovalError` `resuming-elsewhere` and its
   * `retryAt` (the end of the other's lease, unless it is renewed); `"wait"` waits for the other —
   * looking at the ledger at most every 250 ms, for as long as it renews its claim; `signal`
   * aborts the wait (`resuming-elsewhere` then) — and rejects `already-resumed` as soon as it
   * finished, or goes on as the recovery once it died (its lease ran out).
   *
   * @default "refuse"
   */
  whenElsewhere?: "refuse" | "wait";
}

/**
 * Settles a paused turn with a person's decisions and answers every call of it, in the model's
 * order: the answers already given as they were, each approved call executed exactly once
 * (validated and its availability checked again; the approval policy is not asked again), each
 * denied one answered `Denied`.
 *
 * Every decision is checked before anything runs: a decision for a call or input that is not
 * pending, two for the same call, one past its `expiresAt`, a pending call left undecided, or a
 * pending call changed since the pause, rejects with an `ApprovalError` and nothing executes.
 * Then the resume is claimed in the ledger: a turn already resumed rejects `already-resumed`, one
 * being resumed elsewhere `resuming-elsewhere` (or, with `whenElsewhere: "wait"`, is waited for);
 * one whose resume died (its lease ran out) is taken over, its answered calls replayed and its
 * started ones answered `interrupted`.
 *
 * @example
 * ```ts
 * const answers = await resumeToolCalls(tools, paused, paused.pending.map((call) => approveCall(call)));
 * messages = tools.appendTurn(messages, response, answers.map((answer) => answer.block));
 * ```
 */
export async function resumeToolCalls<S, E extends RuntimeEvent, ResultBlock>(
  tools: SettlingBridge<S, E, ResultBlock>,
  paused: PausedTurn<ResultBlock>,
  decisions: readonly ApprovalDecision[],
  options: ResumeCallsOptions = {},
): Promise<ToolCallAnswer<S, E, ResultBlock>[]> {
  const chosen = await checkDecisions(
    paused.answers,
    decisions,
    options.now ?? Date.now,
    "resumeToolCalls",
  );
  const claim = await claimTurn(paused.scope, options);
  try {
    const answers = await settleTurn(tools, paused, chosen, options);
    await claim.finish("settled");
    return answers;
  } finally {
    claim.drop();
  }
}

/** A resume's hold on its paused turn, renewed until it is finished or dropped. */
export interface Claim {
  /** Records the turn as resumed, for good: another resume of it is `already-resumed`. */
  finish(how: string): Promise<void>;
  /**
   * Stops renewing without recording anything: the claim runs out after its lease, and the turn
   * can then be resumed again (a resume that threw is recovered like one whose process died).
   */
  drop(): void;
}

/**
 * The one claim of the paused turn scoped `scope`: atomic (`begin` on `<scope>/resume`), taken
 * over only from a holder whose lease ran out — at once, or, with `whenElsewhere: "wait"`, once
 * the holder's lease ran out (or it finished). Rejects with an `ApprovalError` otherwise.
 */
export async function claimTurn(scope: unknown, options: ResumeCallsOptions): Promise<Claim> {
  const waits = waitsElsewhere(options.whenElsewhere);
  if (typeof scope !== "string") {
    throw new ApprovalError(
      "tampered",
      "The paused turn has no scope: it was changed after the pause, or paused by an older version.",
    );
  }
  const ledger = options.ledger ?? defaultLedger();
  const key = `${scope}/resume`;
  const now = options.now ?? Date.now;
  const leasing: Leasing = {
    holder: newHolder(),
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    now,
  };
  // Its holder stopped renewing (its process died): taken over, exactly that lease. Nothing of
  // a resume runs until it holds its claim, so any claim left by a dead one can be taken.
  const rule: TakeRule = {
    retakes: () => true,
    ...(waits ? { outlast: { signal: options.signal } } : {}),
  };
  let taken: Taken;
  try {
    taken = await take(ledger, key, leasing, rule);
    // Waiting, a takeover lost to another resume is that resume's to wait for in turn.
    while (waits && !taken.held && taken.entry?.status === "started") {
      const lost = taken.entry;
      const found = await ledger.get(key);
      // Still the very lease the takeover lost against: a store that will not settle; refused.
      if (
        found?.status === "started" &&
        found.holder === lost.holder &&
        found.until === lost.until
      ) {
        break;
      }
      taken = await take(ledger, key, leasing, rule, found);
    }
  } catch (error) {
    throw new ApprovalError(
      "ledger-failed",
      `The ledger failed while this resume was being claimed (${describe(error)}). Nothing ran.`,
      { cause: error },
    );
  }
  if (!taken.held) {
    const { entry } = taken;
    if (entry?.status === "answered") {
      throw new ApprovalError(
        "already-resumed",
        "This paused turn was already resumed: its result is the only continuation. Nothing ran.",
      );
    }
    // No entry: the signal aborted the wait for the other resume.
    if (entry === undefined) {
      throw elsewhere(now() + leasing.leaseMs, { reason: options.signal?.reason });
    }
    throw elsewhere(isLive(entry, now) ? entry.until : now() + leasing.leaseMs);
  }
  const drop = keepLease(ledger, key, leasing);
  return {
    drop,
    async finish(how) {
      drop();
      try {
        await ledger.finish(key, ok({ snapshot: { resumed: how }, events: [] }));
      } catch {
        // Left started, the claim runs out after its lease: a later resume is then taken for a
        // recovery (its calls replayed) instead of refused. Nothing is run twice either way.
      }
    },
  };
}

/** A resume refused while another holds the turn; `aborted`, when its wait for it was aborted. */
function elsewhere(retryAt: number, aborted?: { reason: unknown }): ApprovalError {
  const until = new Date(retryAt).toISOString();
  if (aborted) {
    return new ApprovalError(
      "resuming-elsewhere",
      `This paused turn is being resumed by another resume; the wait for it was aborted. Nothing ran; try again after ${until}.`,
      { retryAt, cause: aborted.reason },
    );
  }
  return new ApprovalError(
    "resuming-elsewhere",
    `This paused turn is being resumed by another resume whose lease runs until ${until}. Nothing ran; try again after it (or resume with whenElsewhere: "wait").`,
    { retryAt },
  );
}

/** Whether a resume waits for another one of its turn; a `TypeError` for an unknown choice. */
function waitsElsewhere(choice: unknown): boolean {
  if (choice === undefined || choice === "refuse") return false;
  if (choice === "wait") return true;
  throw new TypeError(
    `whenElsewhere takes "refuse" or "wait", not ${typeof choice === "string" ? JSON.stringify(choice) : describeValue(choice)}`,
  );
}

/** Every call of a claimed turn answered, in the model's order. */
export async function settleTurn<S, E extends RuntimeEvent, ResultBlock>(
  tools: SettlingBridge<S, E, ResultBlock>,
  paused: PausedTurn<ResultBlock>,
  chosen: ReadonlyMap<string, ApprovalDecision>,
  options: ResumeCallsOptions,
): Promise<ToolCallAnswer<S, E, ResultBlock>[]> {
  const { ledger, signal, parent, leaseMs, now } = options;
  const answers: ToolCallAnswer<S, E, ResultBlock>[] = [];
  for (const answer of paused.answers) {
    const { call, pending } = answer;
    if (pending === undefined) {
      // Recorded from this component's own outcome; only its JSON form was stored.
      const outcome = answer.outcome as Result<Observation<S, E>, ToolError>;
      answers.push({ call, route: answer.route, outcome, block: answer.block });
      continue;
    }
    const decision = chosen.get(pending.digest);
    const invokeOptions = {
      signal,
      parent,
      ...(ledger === undefined ? {} : { ledger, scope: paused.scope }),
      ...(leaseMs === undefined ? {} : { leaseMs }),
      ...listenersOf(options),
    };
    if (decision?.verdict === "allow") {
      // The ledger first, inside the bridge: a call already answered is replayed as it was. A
      // call whose answers the policy asks more questions about is held again (`pending`).
      const answered = answeredOf(pending, decision.answers);
      const approved = withApprovals(invokeOptions, [pending.digest], now, answered);
      const held = {
        ...(pending.id === undefined ? {} : { id: pending.id }),
        name: pending.command,
        input: pending.input,
        ...(pending.toolName === undefined ? {} : { toolName: pending.toolName }),
      };
      // Run with the input the person was shown; answered as the model's own call.
      answers.push({ ...(await tools.answerToolCall(held, approved)), call });
      continue;
    }
    const outcome = await refuse<S, E>(
      ledger,
      `${paused.scope}/${pending.digest}`,
      pending,
      decision,
      {
        holder: newHolder(),
        leaseMs: leaseMs ?? DEFAULT_LEASE_MS,
        now: now ?? Date.now,
      },
    );
    answers.push({ call, route: undefined, outcome, block: tools.toToolResult(call, outcome) });
  }
  return answers;
}

/**
 * A denied call: recorded as answered, so a resume taking over this turn later cannot run it
 * with other decisions. Nothing runs either way.
 */
async function refuse<S, E extends RuntimeEvent>(
  ledger: CallLedger | undefined,
  key: string,
  pending: PendingCall,
  decision: ApprovalDecision | undefined,
  leasing: Leasing,
): Promise<Result<Observation<S, E>, ToolError>> {
  const called = pending.toolName ?? pending.command;
  const outcome = err(denied(pending.command, decision?.reason ?? "a person declined it", called));
  if (ledger === undefined) return outcome;
  // Marked as a denial's holder: should this process die before the denial is recorded, whoever
  // finds the entry knows that nothing of the call ran, and records the denial in its place.
  const denier = denying(leasing);
  try {
    const found = await ledger.get(key);
    const taken = await take(
      ledger,
      key,
      denier,
      { retakes: isDenying, outlast: { signal: undefined } },
      found,
    );
    if (taken.held) {
      await ledger.finish(key, outcome);
      return outcome;
    }
    // Decided before, by a resume this one took over: that decision stands.
    if (taken.entry) return replay(taken.entry, pending.command, called);
  } catch {
    // Nothing runs: the denial stands, recorded or not.
  }
  return outcome;
}

/** `value` as plain JSON data of the same type: what a store gives back is what was stored. */
function json<T>(value: T): T {
  // The JSON form of a value the dialect or the bridge made from JSON data; its type still holds.
  return toJsonValue(value) as T;
}
