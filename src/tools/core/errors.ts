/**
 * The `ToolError` constructors. Every message is written for the model that made the call: what
 * went wrong and what to do next, never a stack trace. Each message is made here, once, and
 * quotes the name the model called — the provider's tool name when a dialect mapped it — so no
 * layer rewrites a message after the fact.
 */
import { sentence } from "./availability.js";
import type { ExecuteFailedReason, ToolError, ValidationIssue } from "./types.js";

/** A call named something that is not a command of the component. */
export function unknownCommand(name: string): ToolError {
  // The name was never offered, so it may be anything a model wrote: clip it.
  return {
    kind: "UnknownCommand",
    name,
    message: `Unknown command ${quote(clip(name))}. Call one of the tools you were offered.`,
  };
}

/**
 * A gated command that the component does not allow in its current state. `called` is the tool
 * name the model used, when it differs from the command's; `availableWhen`, the command's own
 * sentence, tells the model when it will be available.
 */
export function unavailable(name: string, called = name, availableWhen?: string): ToolError {
  const next =
    availableWhen === undefined
      ? "Use one of the tools offered now."
      : `It is available ${clip(sentence(availableWhen))}; until then, use another tool.`;
  return {
    kind: "Unavailable",
    name,
    message: `Command ${quote(called)} is not available in the current state. ${next}`,
  };
}

/** Input that fails the command's schema; every issue is listed. */
export function invalidInput(name: string, issues: ValidationIssue[], called = name): ToolError {
  const listed = issues.map((issue) => `${issue.path || "input"} ${issue.message}`).join("; ");
  return {
    kind: "InvalidInput",
    name,
    issues,
    message: `Invalid input for ${quote(called)}: ${listed}. Fix the input and call again.`,
  };
}

/**
 * The approval policy or a person refused the call. `reason` is theirs, shown to the model; the
 * message says the call did not run and must not be repeated as it was.
 */
export function denied(name: string, reason: string | undefined, called = name): ToolError {
  const why = reason === undefined || reason === "" ? "" : `: ${clip(reason)}`;
  return {
    kind: "Denied",
    name,
    message: `Command ${quote(called)} was denied${why}. It did not run; do not call it again with the same input.`,
    ...(reason === undefined ? {} : { reason }),
  };
}

/** What an `ExecuteFailed` carries beside its reason. */
export interface Failure {
  /** What was thrown, when something was. */
  cause?: unknown;
  /** The tool name the model used, when it differs from the command's. */
  called?: string;
}

/**
 * The command could not run, or ran and failed: `Command "name" failed: <detail>`. `reason` is
 * for the application, `cause` keeps what was thrown.
 */
export function executeFailed(
  name: string,
  reason: ExecuteFailedReason,
  detail: string,
  { cause, called = name }: Failure = {},
): ToolError {
  return {
    kind: "ExecuteFailed",
    name,
    message: `Command ${quote(called)} failed: ${detail}`,
    reason,
    cause,
  };
}

/** `execute` threw `cause`: the message carries its one-line description. */
export function threw(name: string, cause: unknown, called = name): ToolError {
  return executeFailed(name, "threw", describe(cause), { cause, called });
}

/** The application's own bug, found at call time: said so, so the model does not retry. */
export function applicationBug(
  name: string,
  reason: ExecuteFailedReason,
  problem: string,
  failure: Failure = {},
): ToolError {
  return executeFailed(
    name,
    reason,
    `${problem}. This is a bug in the application, not in your call.`,
    failure,
  );
}

const MAX_SHOWN = 200;

/** `text` cut at 200 characters with an ellipsis: names never offered and thrown messages. */
export function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function quote(name: string): string {
  return JSON.stringify(name);
}

/** A one-line account of a thrown value: an error's message, never its stack. */
export function describe(cause: unknown): string {
  try {
    if (cause instanceof Error) return clip(cause.message || cause.name);
    if (typeof cause === "string") return clip(cause || "(empty message)");
    if (cause === undefined || cause === null) return `threw ${cause}`;
    if (typeof cause === "object") return clip(JSON.stringify(cause));
    return typeof cause === "function" ? "threw a function" : clip(String(cause));
  } catch {
    return "threw an unprintable value";
  }
}
