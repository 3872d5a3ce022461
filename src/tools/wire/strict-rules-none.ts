/**
 * No strict mode by name, for browsers and workers (`#strict-rules`' `browser` and `worker`
 * conditions): there `strict` takes the rule itself, imported from the dialect's entrypoint, so
 * only an application that uses strict mode carries it.
 */
import type { StrictRule } from "./strict.js";

/** None: give the rule as the option's value. */
export const STRICT_RULES: Readonly<Record<"openai" | "anthropic", StrictRule>> | undefined =
  undefined;
