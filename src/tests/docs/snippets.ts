/**
 * The TypeScript blocks of the docs, read as a reader reads them: each a complete ES module, and
 * each `console.log(…)` followed by the output the page promises. Pure: text in, data out.
 *
 * The output convention, which docs.test.ts enforces:
 * - the `//` comment that ends a `console.log(…);` statement is its output, exactly as Node prints
 *   it but for whitespace (see `sameOutput`);
 * - a `console.log(…);` with no comment of its own takes the `//` lines right below it instead;
 * - a comment there that is not output starts with `note:`;
 * - every other comment is prose.
 */
import ts from "typescript";

/** One ```ts block of a page. */
export interface Snippet {
  /** A file name made from the page and the block's index: `docs_streaming_md_3`. */
  readonly name: string;
  /** The page, relative to the repository, and the line the block's code starts on. */
  readonly page: string;
  readonly line: number;
  readonly source: string;
  /** False for ```ts no-run: type-checked, never run (it needs a network or a key). */
  readonly runs: boolean;
  /**
   * What a block fenced ```ts ai@7 runs on instead of the docs' own project: AI SDK 7, on Node 22
   * (src/tests/adapters/ai-sdk7.test.ts type-checks and runs it; docs.test.ts leaves it out).
   */
  readonly under?: "ai@7";
}

/** What a page says one `console.log` prints. */
export interface PromisedOutput {
  /** The index of the call among the snippet's `console.log` calls that promise an output. */
  readonly id: number;
  /** The page's line of the promise, for the failure message. */
  readonly line: number;
  readonly text: string;
  /** Where `console.log` stands in the snippet's source, to be swapped for the recorder. */
  readonly callee: { readonly start: number; readonly end: number };
}

// A block may name the file a reader saves it as (```ts tickets.ts), for a test to find it.
const FENCE = /^```ts(?: [\w.-]+\.[cm]?ts)?( no-run| ai@7)?\n([\s\S]*?)^```/gm;

/** Every ```ts block of `text`, the page at `page`. */
export function snippetsOf(page: string, text: string): Snippet[] {
  return [...text.matchAll(FENCE)].map((match, index) => ({
    name: `${page.replaceAll(/[/.-]/g, "_")}_${index + 1}`,
    page,
    line: text.slice(0, match.index).split("\n").length + 1,
    source: match[2] ?? "",
    runs: match[1] !== " no-run",
    ...(match[1] === " ai@7" ? { under: "ai@7" as const } : {}),
  }));
}

/** The outputs a snippet promises, in source order. */
export function promisedOutputs(snippet: Snippet): PromisedOutput[] {
  const file = ts.createSourceFile("snippet.ts", snippet.source, ts.ScriptTarget.Latest, true);
  const text = snippet.source;
  const lines = text.split("\n");
  const promises: PromisedOutput[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node) && isConsoleLog(node.expression)) {
      const promise = promiseAfter(file, lines, node);
      if (promise !== undefined) {
        promises.push({
          id: promises.length,
          line: snippet.line + promise.line,
          text: promise.text,
          callee: {
            start: node.expression.expression.getStart(file),
            end: node.expression.expression.end,
          },
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return promises;
}

/**
 * The snippet as it runs under the docs test: each `console.log` that promises an output calls
 * `globalThis.__printed(id)` instead, which records what it prints. Everything else is unchanged.
 */
export function instrumented(snippet: Snippet, promises: readonly PromisedOutput[]): string {
  let source = snippet.source;
  for (const promise of [...promises].reverse()) {
    source = `${source.slice(0, promise.callee.start)}globalThis.__printed(${promise.id})${source.slice(promise.callee.end)}`;
  }
  return source;
}

/**
 * Whether `printed` is what the page promises. Node wraps a long value over lines where a page
 * cannot follow it, so whitespace is the one thing that may differ: a run of it in the promise
 * matches any run in the output, and a promise's line break matches any run or none (a page may
 * wrap a long JSON text where it has no space).
 */
export function sameOutput(printed: string, promised: string): boolean {
  const pattern = promised
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(literal).join("\\s+"))
    .join("\\s*");
  return new RegExp(`^\\s*${pattern}\\s*$`).test(printed);
}

function literal(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

type ConsoleLog = ts.CallExpression & { expression: ts.PropertyAccessExpression };

function isConsoleLog(node: ts.Expression): node is ConsoleLog {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    node.expression.expression.text === "console" &&
    node.expression.name.text === "log"
  );
}

/** The statement's own trailing comment, or the comment lines right below it. */
function promiseAfter(
  file: ts.SourceFile,
  lines: readonly string[],
  statement: ts.Node,
): { line: number; text: string } | undefined {
  const endLine = file.getLineAndCharacterOfPosition(statement.end).line;
  const trailing = ts
    .getTrailingCommentRanges(file.text, statement.end)
    ?.find((range) => range.kind === ts.SyntaxKind.SingleLineCommentTrivia);
  if (trailing !== undefined) {
    return output(endLine, file.text.slice(trailing.pos + 2, trailing.end));
  }
  const below: string[] = [];
  for (const line of lines.slice(endLine + 1)) {
    const comment = /^\s*\/\/(.*)$/.exec(line);
    if (comment === null) break;
    below.push(comment[1] ?? "");
  }
  return below.length === 0 ? undefined : output(endLine + 1, below.join("\n"));
}

function output(line: number, comment: string): { line: number; text: string } | undefined {
  const text = comment.trim();
  return text.startsWith("note:") ? undefined : { line, text };
}
