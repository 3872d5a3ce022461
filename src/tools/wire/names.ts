/**
 * Provider-safe tool names. Commands are free strings (`todo.add`, `set limit`); providers are
 * not. Each command maps to a name the provider accepts — deterministically, reversibly, and
 * without collisions — and a name that was never offered maps to nothing.
 *
 * The mapping is computed over every *declared* command, available or not: a name then means the
 * same command whatever is available this turn, and a command literally named like another one's
 * mapped form (`set_limit_w67ps8` beside `set limit`) keeps its own name while the mapped one
 * moves aside — whether or not the literal command is offered now.
 */
import type { NeutralManifest } from "../core/types.js";

/** What a provider accepts as a tool name. */
export interface NameRule {
  /** Matches one character the provider does not accept (global). */
  readonly invalid: RegExp;
  /** What the first character must be, when the provider restricts it. */
  readonly start?: RegExp;
  readonly maxLength: number;
}

/**
 * OpenAI (Chat Completions and Responses): `a-z A-Z 0-9 _ -`, at most 64 characters — the
 * function `name` field of the `openai` SDK's types says so. Ollama takes the same names.
 */
export const OPENAI_NAMES: NameRule = { invalid: /[^a-zA-Z0-9_-]/g, maxLength: 64 };
/**
 * Anthropic: `a-z A-Z 0-9 _ -`, at most 128 characters (the API answers a longer `tools[].name`
 * with "String should have at most 128 characters").
 */
export const ANTHROPIC_NAMES: NameRule = { invalid: /[^a-zA-Z0-9_-]/g, maxLength: 128 };
/**
 * Gemini: a letter or `_`, then letters, digits, `_ . : -`. The SDK's `FunctionDeclaration.name`
 * now says 128 characters; 64, the limit older endpoints enforce, is kept until that is settled.
 */
export const GEMINI_NAMES: NameRule = {
  invalid: /[^a-zA-Z0-9_.:-]/g,
  start: /^[a-zA-Z_]/,
  maxLength: 64,
};
/** MCP: `[A-Za-z0-9_.-]{1,128}`. */
export const MCP_NAMES: NameRule = { invalid: /[^a-zA-Z0-9_.-]/g, maxLength: 128 };

/** Whether the provider takes `name` as it is: such a name is always its command's own. */
export function isSafe(name: string, rule: NameRule): boolean {
  rule.invalid.lastIndex = 0;
  return (
    name.length > 0 &&
    name.length <= rule.maxLength &&
    !rule.invalid.test(name) &&
    (rule.start?.test(name) ?? true)
  );
}

/** 32-bit FNV-1a, in base 36: a short, stable fingerprint of the original name. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function mapped(name: string, rule: NameRule, salt: number): string {
  const tag = `_${fingerprint(salt === 0 ? name : `${salt}:${name}`)}`;
  let base = name.replace(rule.invalid, "_");
  if (rule.start && !rule.start.test(base)) base = `_${base}`;
  return base.slice(0, rule.maxLength - tag.length) + tag;
}

/**
 * The provider name of every command in `commands` (pass every declared command, not only the
 * available ones). A name the provider accepts is kept as it is; any other becomes its sanitised
 * form plus a fingerprint of the original, so `todo.add` and `todo add` stay distinct. Kept names
 * are claimed first, so a mapped name never takes one. The result depends only on the set of
 * names, not on their order.
 */
export function providerNames(commands: NeutralManifest, rule: NameRule): Map<string, string> {
  const byCommand = new Map<string, string>();
  const taken = new Set<string>();
  // The default sort compares UTF-16 code units: the same order on every machine and locale.
  const names = [...new Set(commands.map((tool) => tool.name))].sort();
  for (const name of names) {
    if (isSafe(name, rule)) {
      byCommand.set(name, name);
      taken.add(name);
    }
  }
  for (const name of names) {
    if (byCommand.has(name)) continue;
    let salt = 0;
    let candidate = mapped(name, rule, salt);
    while (taken.has(candidate)) candidate = mapped(name, rule, ++salt);
    byCommand.set(name, candidate);
    taken.add(candidate);
  }
  return byCommand;
}

/**
 * Names every provider accepts (OpenAI, Anthropic, Gemini, MCP): a letter or `_` first, then
 * letters, digits, `_` and `-`, at most 64 characters. For a framework that does not say which
 * provider it will talk to.
 */
export const PORTABLE_NAMES: NameRule = {
  invalid: /[^a-zA-Z0-9_-]/g,
  start: /^[a-zA-Z_]/,
  maxLength: 64,
};
