/**
 * Section T's arithmetic (bench/token-count.ts), with a fake tokenizer so it runs in
 * milliseconds: the common prefix of two serialized tool lists, the counter that counts each text
 * once, each request's figures and a conversation's cacheable share, and how the share prints.
 */
import { describe, expect, it } from "vitest";
import {
  cacheableShare,
  cacheableToolShare,
  commonPrefixLength,
  percent,
  tokenCounter,
  turnTokens,
} from "../../../bench/token-count.js";

/** One token per character: a prefix's tokens are its length. */
const characters = (text: string) => text.length;

describe("section T's arithmetic", () => {
  it("finds the longest common prefix, never half a surrogate pair", () => {
    expect(commonPrefixLength("abc", "abc")).toBe(3);
    expect(commonPrefixLength("abc", "abd")).toBe(2);
    expect(commonPrefixLength("ab", "abc")).toBe(2);
    expect(commonPrefixLength("x", "y")).toBe(0);
    expect(commonPrefixLength("", "abc")).toBe(0);
    // 😀 is \ud83d\ude00 and 😁 \ud83d\ude01: the common high surrogate is not a character.
    expect(commonPrefixLength("a😀", "a😁")).toBe(1);
  });

  it("counts each distinct text once", () => {
    const seen: string[] = [];
    const count = tokenCounter((text) => {
      seen.push(text);
      return text.length;
    });
    expect([count("abc"), count("abc"), count("ab"), count("abc")]).toEqual([3, 3, 2, 3]);
    expect(seen).toEqual(["abc", "ab"]);
  });

  it("takes each request's cached prefix against the request before it", () => {
    const turns = turnTokens(
      [
        { tools: "[a,b,c]" },
        { tools: "[a,b,c]" },
        { tools: "[a,c]", perRequest: "{b}" },
        { tools: "[a,c]" },
      ],
      characters,
    );
    expect(turns).toEqual([
      { tools: 7, cached: 0, perRequest: 0 },
      { tools: 7, cached: 7, perRequest: 0 },
      { tools: 5, cached: 3, perRequest: 3 },
      { tools: 5, cached: 5, perRequest: 0 },
    ]);
    // Requests 2–4: 7 + 3 + 5 cached of 7 + (5 + 3) + 5 sent, the per-request part uncached.
    expect(cacheableShare(turns)).toBeCloseTo(15 / 20);
    // Of the tool definitions alone: 7 + 3 + 5 of 7 + 5 + 5.
    expect(cacheableToolShare(turns)).toBeCloseTo(15 / 17);
    expect(cacheableToolShare([])).toBe(1);
  });

  it("never counts more cached tokens than the request's own", () => {
    // A tokenizer for which a cut text costs more than the whole (one token per text, plus 9).
    const [, second] = turnTokens([{ tools: "abcd" }, { tools: "abce" }], (text) =>
      text === "abc" ? 10 : 1,
    );
    expect(second).toEqual({ tools: 1, cached: 1, perRequest: 0 });
  });

  it("counts a single request, or none, as fully cacheable", () => {
    expect(cacheableShare([])).toBe(1);
    expect(cacheableShare(turnTokens([{ tools: "[a]" }], characters))).toBe(1);
  });

  it("prints a share without rounding it up to 100", () => {
    expect(percent(1)).toBe("100");
    expect(percent(0.5)).toBe("50");
    expect(percent(5 / 9)).toBe("55.6");
    expect(percent(0.99996)).toBe("99.9");
    expect(percent(0)).toBe("0");
  });
});
