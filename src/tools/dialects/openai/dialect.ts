/**
 * The two OpenAI dialects, the entrypoint `ignite-element/tools/openai`: `openai` speaks Chat
 * Completions (chat.ts), `openaiResponses` the Responses API (responses.ts); both take the same
 * options (shared.ts) and OpenAI's strict mode as a value, and `allowedTools` (allowed-tools.ts)
 * gives either a tool list that keeps the prompt cache.
 */
import { OPENAI_STRICT, type StrictRule } from "../../wire/strict.js";

export type { OnDemandOptions } from "../../wire/on-demand.js";
export { ON_DEMAND_THRESHOLD } from "../../wire/on-demand.js";
export type { StrictRule } from "../../wire/strict.js";
export * from "./allowed-tools.js";
export * from "./chat.js";
export * from "./on-demand.js";
export * from "./responses.js";
export type { OpenAIOptions } from "./shared.js";

/**
 * OpenAI's strict mode (structured outputs), as a value: `openai({ strict: openaiStrict })` and
 * `openaiResponses({ strict: openaiStrict })` carry it in any build, a browser's included.
 */
export const openaiStrict: StrictRule = OPENAI_STRICT;
