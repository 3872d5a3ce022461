/**
 * The approval policy as a framework that asks a person itself (AI SDK `needsApproval`, Agents
 * SDK interruptions, LangChain's human-in-the-loop middleware) uses it: asked once per call, its
 * `"ask"` taken as approved when the framework runs the call, since the framework runs it only
 * after the person approved.
 */

import type { ApprovalPolicy, ApprovalVerdict } from "../core/approval.js";
import type { Result } from "../core/result.js";
import type { AgentSchema, NeutralToolCall, Route, ToolError } from "../core/types.js";
import { contentKey } from "../validation/cache.js";
import { ask, flagsOf } from "./approval.js";

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
   * `"deny"` is still the bridge's to answer. With `askedOnly`, `"ask"` is `"allow"` only for a
   * call `asks` was asked about; any other call's `"ask"` stays `"ask"`, which the bridge answers
   * `Denied`.
   */
  policy: ApprovalPolicy;
}

/** How `frameworkApproval` reads a call the framework never asked about. */
export interface FrameworkApprovalOptions {
  /**
   * Take `"ask"` as approved only for the calls `asks` was asked about: for a framework where
   * asking is the application's choice (LangChain's middleware, which an agent may not have), so
   * that a call nobody asked a person about is never run.
   *
   * @default false
   */
  askedOnly?: boolean;
}

/** The most verdicts kept between a framework's question and the call's `execute`. */
const KEPT_VERDICTS = 1_000;

/**
 * `policy` for a framework that asks a person itself (AI SDK `needsApproval`, Agents SDK
 * interruptions, LangChain's middleware with `askedOnly`), asked once per call: the framework asks before it runs a call (and may ask
 * again, as AI SDK 6 does when it reads the approvals back), then runs it through the bridge; the
 * verdict given the first time is kept, by the call's id, command and input, until the call runs.
 * At most `KEPT_VERDICTS` are kept (the oldest dropped first): a call approved after that many
 * others were asked about is asked about again when it runs.
 */
export function frameworkApproval(
  policy: ApprovalPolicy,
  { askedOnly = false }: FrameworkApprovalOptions = {},
): FrameworkApproval {
  const verdicts = new Map<string, Promise<ApprovalVerdict>>();
  const keyOf = (call: NeutralToolCall, route: Route) =>
    call.id === undefined
      ? undefined
      : contentKey({ id: call.id, command: route.command, input: route.input ?? null });
  /** The verdict for the call, and whether `asks` had been asked about it. */
  const verdictOf = (request: Parameters<ApprovalPolicy>[0], kept: boolean) => {
    const key = keyOf(request.call, request.route);
    const known = key === undefined ? undefined : verdicts.get(key);
    if (known !== undefined && key !== undefined) {
      // Taken when the call runs: a later call with the same id is asked again.
      if (!kept) verdicts.delete(key);
      return { verdict: known, asked: true };
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
    return { verdict, asked: false };
  };
  return {
    async asks(schema, call, route) {
      if (!route.ok) return false;
      const declared = schema.commands[route.value.command] ?? {};
      const request = { route: route.value, schema: declared, flags: flagsOf(declared), call };
      return (await verdictOf(request, true).verdict) === "ask";
    },
    policy: async (request) => {
      const { verdict, asked } = verdictOf(request, false);
      const given = await verdict;
      return given === "ask" && (asked || !askedOnly) ? "allow" : given;
    },
  };
}
