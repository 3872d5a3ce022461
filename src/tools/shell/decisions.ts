/**
 * Pausing a turn whose calls wait for a person, and settling it with their decisions: the one
 * mechanism behind `resumeToolLoop` and an application's own loop. A paused turn is plain JSON;
 * settling it checks every decision before anything runs, then answers every call in order.
 */
import { denied } from "../core/errors.js";
import { err, type Result } from "../core/result.js";
import type { TraceHandle } from "../core/tracing.js";
import type {
  AbortSignalLike,
  NeutralToolCall,
  Observation,
  Route,
  RuntimeEvent,
  ToolError,
} from "../core/types.js";
import { toJsonValue } from "../wire/result-text.js";
import {
  type ApprovalDecision,
  ApprovalError,
  callDigest,
  lease,
  type PendingCall,
  recordOutcome,
  replay,
  STARTED,
  withApprovals,
} from "./approval.js";
import type { DialectToolBridge, ToolCallAnswer } from "./bridge.js";
import { type CallLedger, memoryLedger, type RecordedOutcome } from "./ledger.js";

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
  /** Every call of the turn, in the order the model made them. */
  readonly answers: readonly PausedAnswer<ResultBlock>[];
  /** The calls waiting for a decision, in call order. */
  readonly pending: readonly PendingCall[];
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
  return { answers: paused, pending: paused.flatMap((answer) => answer.pending ?? []) };
}

/** The part of a bridge that settling a turn uses. */
export type SettlingBridge<S, E extends RuntimeEvent, ResultBlock> = Pick<
  DialectToolBridge<S, E, unknown, unknown, ResultBlock>,
  "invoke" | "toToolResult"
>;

/** Options of `resumeToolCalls`. */
export interface ResumeCallsOptions {
  /**
   * Where each call is recorded before and after it runs; a call it already holds is replayed,
   * never run again.
   *
   * @default one in-memory ledger per bridge — exactly once within this process only
   */
  ledger?: CallLedger;
  /** Aborting answers the calls that have not run yet `cancelled`. */
  signal?: AbortSignalLike;
  /** The span the approved calls' spans go under (the resumed turn's), with a `tracer`. */
  parent?: TraceHandle;
  /**
   * The clock `expiresAt` is compared with, in milliseconds since the epoch.
   *
   * @default Date.now
   */
  now?: () => number;
}

// A bridge's own ledger when the application gives none: resuming the same turn twice in one
// process still runs nothing twice.
const ledgers = new WeakMap<object, CallLedger>();

/**
 * Settles a paused turn with a person's decisions and answers every call of it, in the model's
 * order: the answers already given as they were, each approved call executed exactly once
 * (validated and its availability checked again), each denied one answered `Denied`.
 *
 * Every decision is checked before anything runs: a decision for a call or input that is not
 * pending, two for the same call, one past its `expiresAt`, a pending call left undecided, or a
 * pending call changed since the pause, rejects with an `ApprovalError` and nothing executes.
 * A call the ledger already holds is not run again: its recorded answer is replayed.
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
  const ledger = options.ledger ?? ownLedger(tools);
  const chosen = await checkDecisions(paused, decisions, options.now ?? Date.now);
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
    // The ledger first: a call already answered is replayed as it was, whatever the state now.
    const recorded = await ledger.get(pending.digest);
    const outcome = recorded
      ? replay<S, E>(recorded, pending.command, pending.toolName ?? pending.command)
      : decision?.verdict === "allow"
        ? await tools.invoke(
            {
              ...(pending.id === undefined ? {} : { id: pending.id }),
              name: pending.command,
              input: pending.input,
              ...(pending.toolName === undefined ? {} : { toolName: pending.toolName }),
            },
            withApprovals({ ledger, signal: options.signal, parent: options.parent }, [
              pending.digest,
            ]),
          )
        : await refuse<S, E>(ledger, pending, decision?.reason);
    const route =
      decision?.verdict === "allow"
        ? { command: pending.command, input: pending.input }
        : undefined;
    answers.push({ call, route, outcome, block: tools.toToolResult(call, outcome) });
  }
  return answers;
}

/** A denied call: recorded as answered, so a later decision for it cannot run it. */
async function refuse<S, E extends RuntimeEvent>(
  ledger: CallLedger,
  pending: PendingCall,
  reason: string | undefined,
): Promise<Result<Observation<S, E>, ToolError>> {
  const called = pending.toolName ?? pending.command;
  const outcome = err(denied(pending.command, reason ?? "a person declined it", called));
  if (await ledger.begin(pending.digest, lease())) await ledger.finish(pending.digest, outcome);
  else return replay((await ledger.get(pending.digest)) ?? STARTED, pending.command, called);
  return outcome;
}

/** Every decision checked against the pending calls, before anything runs. */
async function checkDecisions<ResultBlock>(
  paused: PausedTurn<ResultBlock>,
  decisions: readonly ApprovalDecision[],
  now: () => number,
): Promise<Map<string, ApprovalDecision>> {
  const pending = new Map<string, PendingCall>();
  for (const { pending: call } of paused.answers) {
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

function ownLedger(tools: object): CallLedger {
  let ledger = ledgers.get(tools);
  if (ledger === undefined) {
    ledger = memoryLedger();
    ledgers.set(tools, ledger);
  }
  return ledger;
}

/** `value` as plain JSON data of the same type: what a store gives back is what was stored. */
function json<T>(value: T): T {
  // The JSON form of a value the dialect or the bridge made from JSON data; its type still holds.
  return toJsonValue(value) as T;
}
