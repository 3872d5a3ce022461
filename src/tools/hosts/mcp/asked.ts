/**
 * A call the approval policy asks about, put to the person the way the client's protocol revision
 * can: as an `input_required` result (2026-07-28), whose signed `requestState` carries the held
 * call as plain JSON, so the retry that brings the person's answer may reach any server node;
 * and, for a 2025-11-25 client, by the SDK's legacy shim, which turns that same result into an
 * `elicitation/create` request on the client's connection and re-enters the handler with the
 * answer. Either way the answer settles the held call through `resumeToolCalls`: claimed once in
 * the ledger, so a retry delivered twice, or to two nodes, runs the call once.
 */

import {
  createRequestStateCodec,
  type ElicitRequestFormParams,
  INVALID_PARAMS,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { NOT_ASKED } from "../../approval/approval.js";
import { answerAsked, type PersonsAnswer } from "../../approval/asked.js";
import { ApprovalError, approveCall, denyCall } from "../../approval/decisions.js";
import { type PausedTurn, pauseToolCalls, resumeToolCalls } from "../../approval/pause.js";
import type { DialectToolBridge, InvokeOptions, ToolCallAnswer } from "../../bridge/types.js";
import type { PendingCall } from "../../core/approval.js";
import { aCount, checkOptional, type Expect } from "../../core/checks.js";
import { isRecord } from "../../core/json.js";
import type { CallLedger } from "../../core/ledger.js";
import type { Answer, RuntimeEvent } from "../../core/types.js";
import type { McpCall, McpToolList, McpToolResult } from "../../dialects/mcp/dialect.js";
import { contentKey } from "../../validation/cache.js";

/** The key of the person's answer in `inputRequests` and `inputResponses`. */
export const APPROVAL_KEY = "approval";

/** What the signed `requestState` of an approval carries: the held call, and the request it answers. */
export interface AskedState {
  readonly v: 1;
  /** The tool the request called, as the client named it. */
  readonly name: string;
  /** The request's arguments, as canonical JSON: the retry must carry the same. */
  readonly args: string;
  /** The turn of one held call, as `pauseToolCalls` writes it. */
  readonly paused: PausedTurn<McpToolResult>;
}

/** How approvals are asked and settled: what `serveMcp` and its factory share between requests. */
export interface Asking {
  readonly codec: RequestStateCodec<AskedState>;
  readonly ledger: CallLedger | undefined;
}

/** Options of `asking`. */
export interface AskingOptions {
  readonly requestStateKey?: string | Uint8Array | undefined;
  readonly approvalTtlSeconds?: number | undefined;
  readonly ledger?: CallLedger | undefined;
}

/**
 * The codec and ledger approvals use. Without a key, one is drawn for this process: a retry
 * reaching another process is then refused, which is why several nodes need the same key.
 *
 * @throws TypeError naming `who` when the key is not a string or bytes of at least 32 bytes (the
 *   SDK's codec requires 256 bits), or `approvalTtlSeconds` is not a whole number of seconds.
 */
export function asking(who: string, options: AskingOptions): Asking {
  checkAsking(who, options);
  const key = options.requestStateKey ?? crypto.getRandomValues(new Uint8Array(32));
  const ttlSeconds = options.approvalTtlSeconds ?? 600;
  return {
    codec: createRequestStateCodec<AskedState>({ key, ttlSeconds }),
    ledger: options.ledger,
  };
}

/** Checks the options of `asking`, naming `who` was given them: a TypeError for a bad one. */
export function checkAsking(
  who: string,
  options: { readonly requestStateKey?: unknown; readonly approvalTtlSeconds?: unknown },
): void {
  checkOptional(who, "requestStateKey", options.requestStateKey, A_KEY);
  checkOptional(who, "approvalTtlSeconds", options.approvalTtlSeconds, aCount);
}

/** A signing key: a string or bytes of at least 32 bytes (UTF-8 for a string). */
const A_KEY: Expect<string | Uint8Array> = {
  allowed: "a string or a Uint8Array of at least 32 bytes",
  test: (value): value is string | Uint8Array =>
    (typeof value === "string" && new TextEncoder().encode(value).length >= 32) ||
    (value instanceof Uint8Array && value.length >= 32),
};

type Bridge<S, E extends RuntimeEvent> = DialectToolBridge<
  S,
  E,
  McpToolList,
  McpCall,
  McpToolResult
>;

/** Whether the client that made this request can be asked with a form: its declared capabilities. */
export type CanElicit = (ctx: ServerContext) => boolean;

/**
 * The held call `answer` asked of the person: an `input_required` result with the confirmation
 * form and the signed state of the held call. A client that declared no `elicitation` cannot be
 * asked: the call is settled `Denied` (nothing runs, nothing stays held) and the request is
 * answered `-32021`, naming the capability, as the 2026-07-28 revision requires of a server that
 * needs one the client did not declare.
 */
export async function askPerson<S, E extends RuntimeEvent>(
  bridge: Bridge<S, E>,
  asked: Asking,
  answer: ToolCallAnswer<S, E, McpToolResult>,
  pending: PendingCall,
  request: { readonly name: string; readonly arguments?: unknown },
  ctx: ServerContext,
  canElicit: boolean,
): Promise<InputRequiredResult | ToolCallAnswer<S, E, McpToolResult>> {
  if (!canElicit) {
    await answerAsked(bridge, answer, pending, { deny: NOT_ASKED });
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { elicitation: {} } },
      `${request.name}: ${NOT_ASKED} (the client declared no elicitation capability to ask with)`,
    );
  }
  const state: AskedState = {
    v: 1,
    name: request.name,
    args: contentKey(request.arguments ?? {}),
    paused: pauseToolCalls([answer]),
  };
  return inputRequired({
    inputRequests: inputRequestsOf(pending),
    requestState: await asked.codec.mint(state, ctx),
  });
}

/** What the person is asked about `pending`, by key: the policy's questions, or the confirmation. */
function formsOf(pending: PendingCall): Record<string, ElicitRequestFormParams> {
  const { questions } = pending;
  if (questions === undefined) return { [APPROVAL_KEY]: confirmation(pending) };
  return Object.fromEntries(
    Object.entries(questions).map(([key, { message, schema }]) => [
      key,
      // Checked as an object of properties when the policy asked it; its properties are the
      // policy's, which MCP restricts to flat fields (docs/approval.md says so).
      { message, requestedSchema: schema as ElicitRequestFormParams["requestedSchema"] },
    ]),
  );
}

/** The `inputRequests` of an `input_required` result asking about `pending`. */
function inputRequestsOf(pending: PendingCall) {
  const forms = Object.entries(formsOf(pending));
  return Object.fromEntries(forms.map(([key, form]) => [key, inputRequired.elicit(form)]));
}

/**
 * What the person said, read from their response to each form: every form accepted (with the
 * answers to the policy's questions), one declined or dismissed (why not), or some not answered.
 */
function personSaid(
  pending: PendingCall,
  response: (key: string) => { readonly action?: string; readonly content?: unknown } | undefined,
): PersonsAnswer | "unanswered" {
  const answers: Record<string, Answer> = {};
  for (const key of Object.keys(formsOf(pending))) {
    const said = response(key);
    if (said?.action === undefined) return "unanswered";
    if (said.action !== "accept") return { deny: WHY_NOT[said.action] ?? NOT_ASKED };
    answers[key] = answerOf(said.content);
  }
  return pending.questions ? { answers } : "allow";
}

/** A form's content as an answer: the values MCP's forms give (others are left out). */
function answerOf(content: unknown): Answer {
  if (!isRecord(content)) return {};
  const fields = Object.entries(content).filter(([, value]) => isFieldValue(value));
  // Each value kept is a field's, as `isFieldValue` checked: a filter does not narrow the type.
  return Object.fromEntries(fields) as Answer;
}

function isFieldValue(value: unknown): boolean {
  const type = typeof value;
  if (type === "string" || type === "number" || type === "boolean") return true;
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * The held call `answer` asked of a person whose client keeps a connection (2025-11-25): an
 * `elicitation/create` request on the call's own request, abandoned with the call when the client
 * cancels it. Accepted, the call runs (bound to the input they were shown, once); declined,
 * cancelled, unanswered, failed or not askable (a client without elicitation), it is `Denied`.
 */
export async function askOnConnection<S, E extends RuntimeEvent>(
  bridge: Bridge<S, E>,
  answer: ToolCallAnswer<S, E, McpToolResult>,
  pending: PendingCall,
  ctx: ServerContext,
  canElicit: boolean,
  options: InvokeOptions,
): Promise<ToolCallAnswer<S, E, McpToolResult>> {
  let held: PendingCall | undefined = pending;
  let answered = answer;
  // Round after round while the policy, reading the answers, asks more.
  while (held !== undefined) {
    const said = canElicit ? await askEach(held, ctx) : "unanswered";
    const settled = said === "unanswered" ? { deny: NOT_ASKED } : said;
    answered = await answerAsked(bridge, answered, held, settled, options);
    held = answered.pending;
  }
  return answered;
}

/** Each form of `pending` asked on the call's own request, one after the other. */
async function askEach(pending: PendingCall, ctx: ServerContext) {
  const responses = new Map<string, { action: string; content?: unknown }>();
  try {
    for (const [key, form] of Object.entries(formsOf(pending))) {
      const response = await ctx.mcpReq.elicitInput(form, { signal: ctx.mcpReq.signal });
      responses.set(key, response);
      if (response.action !== "accept") break;
    }
  } catch {
    // The client failed, went away or cancelled: nobody answered the rest.
  }
  return personSaid(pending, (key) => responses.get(key));
}

/**
 * The retry of an asked call: its signed state checked (refused `-32602` when it does not verify,
 * expired, or was issued for another call), the person's answer read (asked again when it is
 * missing), and the held call settled — run once if they accepted, `Denied` otherwise.
 */
export async function settleAsked<S, E extends RuntimeEvent>(
  bridge: Bridge<S, E>,
  asked: Asking,
  raw: string,
  request: { readonly name: string; readonly arguments?: unknown },
  ctx: ServerContext,
  options: InvokeOptions,
): Promise<InputRequiredResult | ToolCallAnswer<S, E, McpToolResult>> {
  let state: AskedState;
  try {
    state = await asked.codec.verify(raw, ctx);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw refused(
      `${WHY_REFUSED[reason] ?? "it does not verify"}. Call the tool again without it.`,
    );
  }
  if (state.name !== request.name || state.args !== contentKey(request.arguments ?? {})) {
    throw refused(
      `it was issued for another call (${state.name} with other arguments): retry the call it was issued for, with the same arguments, or call the tool again without it`,
    );
  }
  const [pending] = state.paused.pending;
  if (pending === undefined) throw refused("it holds no call waiting for a person");
  const said = personSaid(pending, (key) => {
    const response = inputResponse(ctx.mcpReq.inputResponses, key);
    return response.kind === "elicit" ? response : undefined;
  });
  // A retry without every answer (or with another kind of response) is asked again, as the spec
  // recommends, under the same state.
  if (said === "unanswered") {
    return inputRequired({ inputRequests: inputRequestsOf(pending), requestState: raw });
  }
  const decision =
    said === "allow"
      ? approveCall(pending)
      : "answers" in said
        ? approveCall(pending, { answers: said.answers })
        : denyCall(pending, said.deny);
  try {
    const resumeOptions = { ...options, ...(asked.ledger ? { ledger: asked.ledger } : {}) };
    const [answer] = await resumeToolCalls(bridge, state.paused, [decision], resumeOptions);
    if (answer === undefined) throw refused("it holds no call");
    return answer;
  } catch (error) {
    if (!(error instanceof ApprovalError)) throw error;
    if (error.code === "already-resumed") {
      throw refused(
        "it was already used: the call it approved was answered then, and it runs only once. Do not retry it; call the tool again to ask anew",
      );
    }
    if (error.code === "resuming-elsewhere") {
      throw refused(
        "the call it approved is being answered right now, for an earlier delivery of this retry: do not retry it",
      );
    }
    throw refused(error.message);
  }
}

/** The spec's answer to a `requestState` the server will not honour: Invalid Params, and why. */
function refused(why: string): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, `Invalid requestState: ${why}`, {
    reason: "invalid_request_state",
  });
}

/** The SDK codec's reason codes, as a sentence. */
const WHY_REFUSED: Record<string, string> = {
  malformed: "it is not a request state this server issued",
  mac: "its signature does not match: it was changed, or signed with another key",
  expired: "it expired: the person's answer came after the time allowed for it",
  bind: "it was issued to another caller",
};

const WHY_NOT: Record<string, string> = {
  decline: "the person declined it",
  cancel: "the person dismissed the request without deciding",
};

/**
 * What the person is asked: the tool, its effect and the exact input it would run with, and
 * nothing to fill in — accepting is the approval.
 */
export function confirmation({ command, toolName, input, flags }: PendingCall) {
  const effect = flags.destructive
    ? " It may destroy or overwrite data."
    : flags.readOnly
      ? " It only reads."
      : "";
  const shown = input === undefined ? "no input" : `this input: ${JSON.stringify(input)}`;
  return {
    message: `Allow the agent to run "${toolName ?? command}" with ${shown}?${effect}`,
    requestedSchema: { type: "object" as const, properties: {} },
  };
}

/** Whether `value` is an `input_required` result rather than an answer. */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return isRecord(value) && value.resultType === "input_required";
}
