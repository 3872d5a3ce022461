/**
 * What a reader of a page copies and follows, read from its Markdown: the install commands in its
 * code (fenced blocks and inline code), its links, and the repository paths its prose names in
 * inline code. Pure: text in, data out; docs.test.ts checks them against the packed package and
 * the repository.
 */

/** Where the package's repository keeps its files, for links a packed page cannot make relative. */
export const REPOSITORY = "https://github.com/ignite-element/tools";

/** One install command of a page: `npm install a b`, `pnpm add a`, `yarn add a`, … */
export interface Install {
  /** The page's line it is on, 1-based. */
  readonly line: number;
  readonly command: string;
  /** What it installs, as written (`ai`, `@types/pg@8`, `"$tarball"`, `github:owner/repo`). */
  readonly packages: readonly string[];
}

/** One link of a page, outside code. */
export interface Link {
  readonly line: number;
  readonly target: string;
  /** Where its text stands in the page: an inline code span inside it is linked. */
  readonly text: { readonly start: number; readonly end: number };
}

/** An inline code span of a page's prose. */
export interface CodeSpan {
  readonly line: number;
  readonly start: number;
  readonly code: string;
}

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm;
const SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
const INSTALL = /\b(npm (?:install|i|add)|pnpm add|yarn add|bun add)(?=\s|$)([^#&;|`)\n]*)/g;

/** `text` with every character of `pattern`'s matches but the line breaks made a space. */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match) => match.replace(/[^\n]/g, " "));
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** The page with its fenced code blocks blanked: what is prose, at the same offsets. */
export function proseOf(text: string): string {
  return blank(text, FENCE);
}

/** The inline code spans of the page's prose. */
export function codeSpansOf(text: string): CodeSpan[] {
  return [...proseOf(text).matchAll(SPAN)].map((match) => ({
    line: lineAt(text, match.index),
    start: match.index,
    code: (match[2] ?? "").trim(),
  }));
}

/** Every install command in the page's code: its fenced blocks, and its inline code. */
export function installsOf(text: string): Install[] {
  const prose = proseOf(text);
  // The fenced blocks alone (without their shell comments), and the inline code alone, each at
  // its own offset in the page.
  const pieces = [
    ...[...text.matchAll(FENCE)].map((match) => ({
      at: match.index,
      code: match[0].replace(/(^|[ \t])#.*$/gm, (comment) => comment.replace(/./g, " ")),
    })),
    ...[...prose.matchAll(SPAN)].map((match) => ({ at: match.index, code: match[0] })),
  ].sort((a, b) => a.at - b.at);
  return pieces.flatMap(({ at, code }) =>
    [...code.matchAll(INSTALL)].map((match) => ({
      line: lineAt(text, at + match.index),
      command: `${match[1]}${match[2] ?? ""}`.trim(),
      packages: (match[2] ?? "")
        .split(/\s+/)
        .filter((word) => word !== "" && !word.startsWith("-")),
    })),
  );
}

/** The package an install names: `@scope/name@1.2` → `@scope/name`, `ai@6` → `ai`. */
export function installedName(word: string): string {
  return word.replace(/(?<=.)@[^/]*$/, "");
}

/**
 * Whether an install names this package from the registry, where its name belongs to another
 * package: `ignite-element` bare or with a version or tag (not a git, file or URL spec).
 */
export function installsFromRegistry(word: string): boolean {
  const spec = /^ignite-element(?:@(.*))?$/.exec(word);
  if (spec === null) return false;
  const version = spec[1];
  return version === undefined || !/^(github:|git\+|git:|file:|https?:|\.|\/)/.test(version);
}

/** The links of the page's prose: `[text](target)`, `![alt](target)` and `[label]: target`. */
export function linksOf(text: string): Link[] {
  // Inline code blanked too: a `[` in code is no link, and a code span may be a link's text.
  const prose = blank(proseOf(text), SPAN);
  const inline = [
    ...prose.matchAll(/!?\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
  ];
  const references = [...prose.matchAll(/^ {0,3}\[((?:[^\]\\]|\\.)+)\]:\s*<?(\S+?)>?(?:\s|$)/gm)];
  return [...inline, ...references]
    .map((match) => {
      const start = match.index + match[0].indexOf("[") + 1;
      return {
        line: lineAt(text, match.index),
        target: match[2] ?? "",
        text: { start, end: start + (match[1] ?? "").length },
      };
    })
    .sort((a, b) => a.text.start - b.text.start);
}

/** Whether a link's target is a path relative to the page (not a URL, not an anchor of its own). */
export function isRelative(target: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target);
}

/**
 * The path inside the package or repository that a relative link of `page` points at, without
 * its anchor or query (`docs/serving.md` + `../README.md#install` → `README.md`), or `undefined`
 * when it leaves the root. A directory keeps its trailing `/`.
 */
export function resolveLink(page: string, target: string): string | undefined {
  const path = decodeURI(target.replace(/[#?].*$/, ""));
  if (path === "") return page;
  const parts = page.split("/").slice(0, -1);
  for (const part of path.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (part !== "." && part !== "") parts.push(part);
  }
  return `${parts.join("/")}${path.endsWith("/") && parts.length > 0 ? "/" : ""}`;
}

/** The path of an absolute link to a file or folder of the repository on `main`, with its kind. */
export function repositoryPath(
  target: string,
): { kind: "blob" | "tree"; path: string } | undefined {
  const found = new RegExp(`^${REPOSITORY}/(blob|tree)/main/([^#?]+)`).exec(target);
  if (found === null) return undefined;
  return { kind: found[1] === "tree" ? "tree" : "blob", path: decodeURI(found[2] ?? "") };
}

/**
 * What a code span names when it reads as a path of the repository (`examples/redux/todos.ts`,
 * `src/tests/`, `../../src/tools/x.ts`): the path from the root, without a trailing `/`.
 */
export function pathOfSpan(code: string): string | undefined {
  if (!/^(\.\.?\/)*[\w.-]+\/[\w./-]*$/.test(code)) return undefined;
  return code.replace(/^(\.\.?\/)+/, "").replace(/\/$/, "");
}

/**
 * The anchors a page has, as GitHub renders it: each heading's slug (its text without Markdown,
 * lower-cased, every character but letters, digits, `-`, `_` and spaces dropped, spaces made `-`;
 * a repeated slug gets `-1`, `-2`, …), and every `id` or `name` of its own HTML.
 */
export function anchorsOf(text: string): Set<string> {
  const prose = proseOf(text);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose.matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const slug = slugOf(match[1] ?? "");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of prose.matchAll(/<[a-z][^>]*?\s(?:id|name)=["']([^"']+)["']/gi))
    anchors.add(match[1] ?? "");
  return anchors;
}

/** A heading's slug: `` From the command line: `ignite-mcp` `` → `from-the-command-line-ignite-mcp`. */
function slugOf(heading: string): string {
  const rendered = heading
    .replace(/!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)/g, "$1") // a link reads as its text
    .replace(/<[^>]+>/g, "") // HTML tags are not text
    .replace(/`+|\*+|(?<!\w)_+|_+(?!\w)/g, ""); // code spans and emphasis marks
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** A relative link's anchor (`serving.md#cancellation` → `cancellation`), decoded, or none. */
export function anchorOf(target: string): string | undefined {
  const hash = target.indexOf("#");
  return hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
}
