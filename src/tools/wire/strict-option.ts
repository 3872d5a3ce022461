/**
 * A dialect's `strict` option, read: `true` for the provider's own strict mode, or the rule itself
 * (`openaiStrict`, `anthropicStrict`, which is what brings strict mode into a browser bundle).
 */
import { STRICT_RULES } from "#strict-rules";
import type { StrictRule } from "./strict.js";

/** The strict mode `option` asks `dialect` for, or `undefined` without one. */
export function strictOf(
  option: boolean | StrictRule | undefined,
  provider: "openai" | "anthropic",
  dialect: string,
): StrictRule | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true) return option;
  const rule = STRICT_RULES?.[provider];
  if (rule !== undefined) return rule;
  throw new TypeError(
    `${dialect}({ strict: true }): a browser or worker build carries no strict mode it is not given; give it as ${dialect}({ strict: ${provider}Strict }), from "ignite-element/tools/${provider}"`,
  );
}
