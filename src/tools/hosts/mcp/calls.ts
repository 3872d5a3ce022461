/**
 * `tools/call`: a call answered by the bridge (validated, gated, run once, one at a time), or, when
 * the approval policy asks about it, put to the person the way the request's revision can
 * (`asked.ts`); the retry that brings their answer settles it. Its progress and log lines go to
 * the caller, and its result is checked against the output schema promised (`results.ts`); the
 * resources it carries whole stay readable by URI (`resources.ts`).
 */
import type { InputRequiredResult, Server, ServerContext } from "@modelcontextprotocol/server";
import { partsOf } from "../../bridge/pipeline.js";
import type { InvokeOptions, ToolCallAnswer } from "../../bridge/types.js";
import type { RuntimeEvent } from "../../core/types.js";
import type { McpEmbeddedResource, McpToolResult } from "../../dialects/mcp/dialect.js";
import { askOnConnection, askPerson, isInputRequired, settleAsked } from "./asked.js";
import { type Host, isModern, keep } from "./host.js";
import type { Answered } from "./lists.js";
import { checkedAgainstOutput, listenersFor, NO_ANSWER } from "./results.js";

/** Sets `server`'s `tools/call` handler, each call answered through `answered`. */
export function answerCalls<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  answered: Answered,
): void {
  const { beside } = partsOf(host.bridge, "serveMcp").pipeline;
  server.setRequestHandler("tools/call", ({ params }, ctx) =>
    answered(ctx, !beside(params.name), () => answerCall(host, server, params, ctx)),
  );
}

/**
 * One `tools/call`: the retry of an asked call settled by the person's answer, or a call answered
 * by the bridge — and, when the policy asks about it, asked of the person.
 */
async function answerCall<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  params: { readonly name: string; readonly arguments?: Record<string, unknown> | undefined },
  ctx: ServerContext,
): Promise<McpToolResult | InputRequiredResult> {
  const { bridge, asked } = host;
  // `ctx.mcpReq.signal` is aborted by the client's cancellation: a queued call is then never
  // executed, a running one is answered at once and its command's context signal aborts.
  const invokeOptions: InvokeOptions = { signal: ctx.mcpReq.signal, ...listenersFor(ctx) };
  const request = { name: params.name, arguments: params.arguments };
  const state = ctx.mcpReq.requestState();
  let answer: ToolCallAnswer<S, E, McpToolResult> | InputRequiredResult | undefined;
  if (typeof state === "string") {
    answer = await settleAsked(bridge, asked, state, request, ctx, invokeOptions);
  } else {
    [answer] = await bridge.answerToolCalls(request, invokeOptions);
    if (answer === undefined) return NO_ANSWER;
  }
  if (isInputRequired(answer)) return answer;
  const { pending } = answer;
  // Held by the policy — at first, or again after reading the person's answers: a 2026-07-28
  // client is answered `input_required`; a 2025-11-25 one is asked on its connection, as that
  // revision does.
  if (pending !== undefined) {
    answer = isModern(ctx)
      ? await askPerson(bridge, asked, answer, pending, request, ctx, canElicit(server))
      : await askOnConnection(bridge, answer, pending, ctx, canElicit(server), invokeOptions);
  }
  if (isInputRequired(answer)) return answer;
  const result = checkedAgainstOutput(answer, host.output);
  if (host.returned) keepReturned(host.returned, result);
  return result;
}

/** The resources `result` carries whole, kept readable by URI (`resources/read`). */
function keepReturned(
  returned: Map<string, McpEmbeddedResource["resource"]>,
  result: McpToolResult,
): void {
  for (const block of result.content) {
    if (block.type === "resource") keep(returned, block.resource);
  }
}

/**
 * Whether the client can be shown a form: the capabilities it declared, on this request
 * (2026-07-28, which the SDK also reports here) or when it connected (2025-11-25).
 */
function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation !== undefined;
}
