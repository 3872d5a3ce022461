/**
 * The `ToolError` constructors. Every message is written for the model that made the call: what
 * went wrong and what to do next, never a stack trace.
 */
import type { ToolError, ValidationIssue } from "./types.js";

/** A call named something that is not a command of the component. */
export function unknownCommand(name: string): ToolError {
  return {
    kind: "UnknownCommand",
    name,
    message: `Unknown command ${quote(name)}. Call one of the tools you were offered.`,
  };
}

/** A gated command that the component does not allow in its current state. */
export function unavailable(name: string): ToolError {
  return {
    kind: "Unavailable",
    name,
    message: `Command ${quote(name)} is not available in the current state. Use one of the tools offered now.`,
  };
}

/** Input that fails the command's schema; every issue is listed. */
export function invalidInput(name: string, issues: ValidationIssue[]): ToolError {
  const listed = issues.map((issue) => `${issue.path || "input"} ${issue.message}`).join("; ");
  return {
    kind: "InvalidInput",
    name,
    issues,
    message: `Invalid input for ${quote(name)}: ${listed}. Fix the input and call again.`,
  };
}

/** The command could not run, or ran and failed; `cause` keeps what was thrown. */
export function executeFailed(name: string, cause: unknown, reason = describe(cause)): ToolError {
  return {
    kind: "ExecuteFailed",
    name,
    message: `Command ${quote(name)} failed: ${reason}`,
    cause,
  };
}

const MAX_SHOWN = 200;

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function quote(name: string): string {
  return JSON.stringify(clip(name));
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
