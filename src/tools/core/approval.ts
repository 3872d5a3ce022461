/**
 * What the approval policy sees and answers, and the call it holds for a person: plain data, the
 * port the approval layer (approval/) implements and an application's policy speaks.
 */
import type {
  Answers,
  CommandSchema,
  EffectFlags,
  JsonSchema,
  NeutralToolCall,
  Route,
} from "./types.js";

/**
 * What an approval policy answers for one call: run it (`"allow"`), refuse it (`"deny"`, or
 * `{ deny: reason }` with a reason the model reads), ask a person to confirm it first (`"ask"`),
 * or ask them questions first (`{ ask: { key: question } }`): the policy is asked again with
 * their answers (`request.route.answers`), and the command runs with them (`context.answers`). A
 * key whose question is `undefined` is left out, as JSON leaves it out.
 */
export type ApprovalVerdict =
  | "allow"
  | "deny"
  | "ask"
  | { readonly deny: string }
  | { readonly ask: Readonly<Record<string, Question | undefined>> };

/** Questions for the person, by the key their answer comes back under. */
export type Questions = Readonly<Record<string, Question>>;

/**
 * One question for the person before a call runs: what they read, and the form of their answer
 * (an MCP host sends it as an elicitation form, so a flat object of strings, numbers, booleans
 * and enums, as MCP's `requestedSchema` allows).
 */
export interface Question {
  readonly message: string;
  readonly schema: QuestionSchema;
}

/** The form of an answer: an object whose properties are each a string, number, boolean or enum. */
export interface QuestionSchema {
  readonly type: "object";
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
}

/** What an approval policy sees of one call: it passed every check and is about to run. */
export interface ApprovalRequest {
  /** The validated command and input, defaults applied: exactly what `execute` would receive. */
  readonly route: Route;
  /** The command's declaration, as `getSchema()` returned it for this call. */
  readonly schema: CommandSchema;
  /** The command's effect flags (only those it declares). */
  readonly flags: EffectFlags;
  /** The call as the model made it (its id, and the tool name it used). */
  readonly call: NeutralToolCall;
}

/**
 * Decides, for every call that passed validation and availability, whether it may run. A policy
 * that throws or rejects denies the call (fails closed).
 *
 * @example
 * ```ts
 * const approve: ApprovalPolicy = ({ flags }) => (flags.destructive ? "ask" : "allow");
 * ```
 */
export type ApprovalPolicy = (
  request: ApprovalRequest,
) => ApprovalVerdict | PromiseLike<ApprovalVerdict>;

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
  /** The command's declared `title`, when it declares one: what an approval screen names it. */
  readonly title?: string;
  /** The command's declared `description`, when it declares one: what an approval screen explains. */
  readonly description?: string;
  /**
   * The policy's questions, when it asked some (`{ ask: … }`): approve with the person's answers,
   * `approveCall(call, { answers })`, one per key.
   */
  readonly questions?: Questions;
  /** The answers to questions of earlier rounds of this call, when there were some. */
  readonly answers?: Answers;
  /**
   * Binds a decision to this call: the hex SHA-256 of the canonical JSON (keys sorted) of
   * `{ id, command, input }`.
   */
  readonly digest: string;
}
