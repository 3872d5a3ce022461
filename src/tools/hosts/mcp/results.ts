/**
 * What a `tools/call` sends besides the bridge's answer: the command's progress and log lines on
 * the request's own stream, and the result checked against the output schema the client was
 * promised.
 */
import type { ServerContext } from "@modelcontextprotocol/server";
import type { InvokeOptions, ToolCallAnswer } from "../../bridge/types.js";
import { executeFailed } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { err } from "../../core/result.js";
import type {
  AgentComponent,
  JsonSchema,
  LogEntry,
  NeutralToolCall,
  ProgressUpdate,
  RuntimeEvent,
} from "../../core/types.js";
import type { McpDialect, McpToolResult } from "../../dialects/mcp/dialect.js";
import { checkInput } from "../../validation/cache.js";
import type { InputValidator } from "../../validation/port.js";

/**
 * Who hears a call's progress and log lines: the client that made the request, on its stream.
 * Log lines go through the SDK, which sends them at the level the client asked for — on this
 * request (2026-07-28: none unless it names one) or for its session (2025-11-25).
 */
export function listenersFor(ctx: ServerContext): Pick<InvokeOptions, "onProgress" | "onLog"> {
  const onLog = ({ level, message, data }: LogEntry, call: NeutralToolCall) => {
    // `logger` is the tool that wrote it; `data` the message alone, or `{ message, data }`.
    const logged = data === undefined ? message : { message, data };
    // A client gone, or a value JSON cannot carry: nothing the command could do about it.
    ctx.mcpReq.log(level, logged, call.toolName ?? call.name).catch(() => undefined);
  };
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return { onLog };
  // MCP requires the progress to grow with each notification: one that does not is not sent.
  let last = Number.NEGATIVE_INFINITY;
  const onProgress = (update: ProgressUpdate) => {
    if (!(update.progress > last)) return;
    last = update.progress;
    const params = { progressToken: token, ...update };
    ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => undefined);
  };
  return { onProgress, onLog };
}

/** What checking a result against its declared output schema needs. */
export interface OutputCheck<S, E extends RuntimeEvent> {
  readonly component: AgentComponent<S, E>;
  readonly dialect: McpDialect;
  readonly validator: InputValidator;
  readonly maxChars: number;
}

/** The answer's block, checked against the output schema the client was promised for its tool. */
export function checkedAgainstOutput<S, E extends RuntimeEvent>(
  { call, outcome, block }: ToolCallAnswer<S, E, McpToolResult>,
  { component, dialect, validator, maxChars }: OutputCheck<S, E>,
): McpToolResult {
  if (!outcome.ok) return block;
  const output = outputOf(component, call.name);
  if (output === undefined) return block;
  /**
   * A success that cannot be sent as declared: the model must know it took effect. Answered for
   * `call`, so the text quotes the tool name the model used.
   */
  const ranButNotSent = (why: string) => {
    const reason = `ran, but ${why}, so it cannot be shown to you. It took effect: do not call it again to retry.`;
    const called = call.toolName ?? call.name;
    return dialect.toToolResult(call, err(executeFailed(call.name, "output", reason, { called })));
  };
  if (block.structuredContent === undefined) {
    return ranButNotSent(`its result is larger than the ${maxChars} characters this server sends`);
  }
  const checked = checkInput(validator, output, block.structuredContent.snapshot);
  if ("compileError" in checked) {
    return ranButNotSent(`its output schema does not compile: ${checked.compileError}`);
  }
  if (checked.ok) return block;
  const issues = checked.error.map((issue) => `${issue.path || "snapshot"} ${issue.message}`);
  return ranButNotSent(
    `its result does not match its declared output schema (${issues.join("; ")})`,
  );
}

/** The declared output schema of `name`, read from the live schema. */
function outputOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  name: string,
): JsonSchema | undefined {
  try {
    const { commands } = component.getSchema();
    const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
    return isRecord(command?.output) ? command.output : undefined;
  } catch {
    return undefined; // the call itself reported a broken getSchema()
  }
}

/** Unreachable (a tools/call is always one call); answered rather than thrown, all the same. */
export const NO_ANSWER: McpToolResult = {
  content: [{ type: "text", text: "Error: the call was not answered. Call the tool again." }],
  isError: true,
};
