/**
 * The wording of validation issues, shared by the adapters so that a model reads the same
 * sentence whichever validator checked its input.
 */
import type { ValidationIssue } from "../core/types.js";

/** A value as the model wrote it (JSON), or its string form when JSON has none. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

export const IS_REQUIRED = "is required";
export const IS_NOT_ALLOWED = "is not allowed";

/** `enum`'s message: every allowed value, as JSON. */
export const mustBeOneOf = (allowed: readonly unknown[]) =>
  `must be one of ${allowed.map(show).join(", ")}`;

/** `oneOf`'s message: matching none of the branches, or more than one. */
export const oneOfMessage = (ambiguous: boolean) =>
  `must match exactly one schema in oneOf${ambiguous ? " but matches more than one" : ""}`;

/** `issues` without repeats (one path, one message), in their order. */
export function distinct(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
