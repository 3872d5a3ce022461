/**
 * The strict modes `strict: true` stands for, where a bundle's size does not matter (Node, the
 * `#strict-rules` default): a browser or worker build gets wire/strict-rules-none.ts instead, so
 * that a dialect used without strict mode carries none of its code, and strict mode there is the
 * rule given as the option's value (`openai({ strict: openaiStrict })`).
 */
import { ANTHROPIC_STRICT, OPENAI_STRICT, type StrictRule } from "./strict.js";

/** Each provider's strict mode, by name. */
export const STRICT_RULES: Readonly<Record<"openai" | "anthropic", StrictRule>> | undefined = {
  openai: OPENAI_STRICT,
  anthropic: ANTHROPIC_STRICT,
};
