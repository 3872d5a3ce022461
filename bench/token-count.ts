/**
 * Section T's arithmetic, kept apart from the tokenizers and the peers so that a unit test
 * (src/tests/bench/token-count.test.ts) can check it with a fake tokenizer: the longest common
 * prefix of two serialized tool lists, a token counter that counts each distinct text once, each
 * request's figures and a conversation's cacheable share.
 */

/** How many tokens a text is, for one tokenizer. */
export type Encode = (text: string) => number;

/**
 * The length of the longest common prefix of `a` and `b`, in UTF-16 code units, never ending
 * between the two halves of a surrogate pair (a tokenizer would read half a character).
 */
export function commonPrefixLength(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let at = 0;
  while (at < end && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  if (at > 0 && at < end) {
    const last = a.charCodeAt(at - 1);
    if (last >= 0xd800 && last <= 0xdbff) at--;
  }
  return at;
}

/**
 * `encode`, counting each distinct text once: a conversation sends the same tool list again and
 * again, and one list of 10 000 tools takes seconds to tokenize.
 */
export function tokenCounter(encode: Encode): Encode {
  const seen = new Map<string, number>();
  return (text) => {
    let tokens = seen.get(text);
    if (tokens === undefined) {
      tokens = encode(text);
      seen.set(text, tokens);
    }
    return tokens;
  };
}

/** What one model request carries, serialized as the SDK sends it. */
export interface SentRequest {
  /** The tool definitions: `JSON.stringify(tools)`. */
  tools: string;
  /** What changes from request to request besides the tools (an allowed subset), if any. */
  perRequest?: string;
}

/** One request's tool-definition tokens. */
export interface TurnTokens {
  /** The tokens of its tool definitions. */
  tools: number;
  /**
   * The tokens of the prefix of its tool definitions byte-identical to the previous request's:
   * what a provider's prompt cache can reuse (tools come first). 0 on the first request.
   */
  cached: number;
  /** The tokens of its per-request part, never cached. */
  perRequest: number;
}

/** Each request's tokens, in order, the cached prefix taken against the request before it. */
export function turnTokens(requests: readonly SentRequest[], count: Encode): TurnTokens[] {
  return requests.map((request, index) => {
    const tools = count(request.tools);
    const previous = index === 0 ? undefined : requests[index - 1]?.tools;
    let cached = 0;
    if (previous !== undefined) {
      const length = commonPrefixLength(previous, request.tools);
      cached =
        length === request.tools.length
          ? tools
          : Math.min(tools, count(request.tools.slice(0, length)));
    }
    const perRequest = request.perRequest === undefined ? 0 : count(request.perRequest);
    return { tools, cached, perRequest };
  });
}

/**
 * The share of the tokens of every request after the first (tool definitions and per-request
 * parts, which count as uncached) that stand in a prefix byte-identical to the previous
 * request's; 1 when there is nothing after the first request.
 */
export function cacheableShare(turns: readonly TurnTokens[]): number {
  let cached = 0;
  let all = 0;
  for (const turn of turns.slice(1)) {
    cached += turn.cached;
    all += turn.tools + turn.perRequest;
  }
  return all === 0 ? 1 : cached / all;
}

/**
 * The share of the tool-definition tokens of every request after the first that stand in a
 * prefix byte-identical to the previous request's, per-request parts left out (they are no tool
 * definitions; `cacheableShare` counts them as uncached); 1 when there is nothing after the first.
 */
export function cacheableToolShare(turns: readonly TurnTokens[]): number {
  let cached = 0;
  let all = 0;
  for (const turn of turns.slice(1)) {
    cached += turn.cached;
    all += turn.tools;
  }
  return all === 0 ? 1 : cached / all;
}

/** A share as the `TOKENS:` line prints it: `100`, `56.7` (never rounded up to 100). */
export function percent(share: number): string {
  const value = share * 100;
  if (Number.isInteger(value)) return String(value);
  const shown = value.toFixed(1);
  return shown === "100.0" ? "99.9" : shown;
}
