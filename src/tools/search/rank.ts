/**
 * The built-in search's ranking: the commands of a manifest scored against a query with BM25
 * (k1 = 1.2, b = 0.75), over the words of each command's name (counted twice: a name says most
 * in fewest words), title, description and `availableWhen`. Words are split at anything that is
 * not a letter or digit and at camelCase humps, and lowercased; a word of the query that is a
 * prefix of a command's word counts as half a match, so "ship" finds "shipping". Pure: the index
 * is made once per manifest and answers each query without touching anything else.
 */
import type { NeutralTool } from "../core/types.js";

/** What the ranking reads of a command. */
export type Searchable = Pick<NeutralTool, "name" | "title" | "description" | "availableWhen">;

const K1 = 1.2;
const B = 0.75;

/** One command as the index holds it: its words, each with how often it occurs. */
interface Indexed<T extends Searchable> {
  readonly tool: T;
  readonly counts: ReadonlyMap<string, number>;
  readonly length: number;
}

/**
 * Answers a query with the best-scoring commands, at most `limit`, best first: the very values
 * the ranking was made of, so a caller reads whatever else they hold.
 */
export type Ranking<T extends Searchable = Searchable> = (query: string, limit: number) => T[];

/** The words of `text`: split at non-alphanumerics and camelCase humps, lowercased. */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The text the index reads of a command: its name twice, then its own words. */
function textOf({ name, title, description, availableWhen }: Searchable): string[] {
  const named = wordsOf(name);
  const own = [title, description, availableWhen].flatMap((text) => (text ? wordsOf(text) : []));
  return [...named, ...named, ...own];
}

/** The ranking of `manifest`'s commands. */
export function rankingOf<T extends Searchable>(manifest: readonly T[]): Ranking<T> {
  const indexed: Indexed<T>[] = manifest.map((tool) => {
    const words = textOf(tool);
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    return { tool, counts, length: words.length };
  });
  const average = indexed.reduce((sum, entry) => sum + entry.length, 0) / (indexed.length || 1);
  // How many commands hold each word: the rarer, the more a match on it says.
  const holding = new Map<string, number>();
  for (const { counts } of indexed) {
    for (const word of counts.keys()) holding.set(word, (holding.get(word) ?? 0) + 1);
  }
  const idf = (held: number) => Math.log(1 + (indexed.length - held + 0.5) / (held + 0.5));
  const vocabulary = [...holding.keys()];

  return (query, limit) => {
    const asked = [...new Set(wordsOf(query))];
    // Each word asked: itself (weight 1) and the command words it begins (weight 1/2).
    const terms = asked.flatMap((word) =>
      vocabulary.flatMap((known) =>
        known === word
          ? [{ known, weight: 1 }]
          : known.startsWith(word)
            ? [{ known, weight: 0.5 }]
            : [],
      ),
    );
    const scored = indexed.map(({ tool, counts, length }) => {
      let score = 0;
      for (const { known, weight } of terms) {
        const count = counts.get(known);
        if (count === undefined) continue;
        const saturated = (count * (K1 + 1)) / (count + K1 * (1 - B + (B * length) / average));
        score += weight * idf(holding.get(known) ?? 0) * saturated;
      }
      return { tool, score };
    });
    return scored
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1))
      .slice(0, limit)
      .map(({ tool }) => tool);
  };
}
