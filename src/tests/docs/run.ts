/**
 * Type-checking and running the docs' snippets in a reader's project (a directory with the packed
 * package installed): for docs.test.ts, and for ai-sdk7.test.ts, which runs the pages' AI SDK 7
 * blocks under Node 22 in a project of their own.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import {
  instrumented,
  type PromisedOutput,
  promisedOutputs,
  type Snippet,
  sameOutput,
} from "./snippets.js";

/** The compiler options of the reader's project; this package's declarations are checked too. */
export const READER: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  skipLibCheck: false,
  noEmit: true,
};

// Records what each instrumented `console.log` prints, as Node's console would print it, and
// writes it out when the snippet's process ends.
const RECORDER = `
import { writeFileSync } from "node:fs";
import { format } from "node:util";
const printed = {};
globalThis.__printed = (id) => (...args) => {
  const text = format(...args);
  (printed[id] ??= []).push(text);
  console.log(text);
};
process.on("exit", () => writeFileSync(process.env.DOCS_PRINTED, JSON.stringify(printed)));
`;

/** Writes each snippet into `consumer` as `<name>.ts`, and the recorder the runs load. */
export function writeSnippets(consumer: string, snippets: readonly Snippet[]): void {
  for (const snippet of snippets) {
    writeFileSync(join(consumer, `${snippet.name}.ts`), `${snippet.source}\nexport {};\n`);
  }
  writeFileSync(join(consumer, "recorder.mjs"), RECORDER);
}

/**
 * The type errors of `files` (in `consumer`) under the reader's options, each where it stands: a
 * snippet's on its page's line. Other packages' declarations are theirs to check; this package's
 * (`node_modules/ignite-element`) and the files' own are ours.
 */
export function typeErrors(
  consumer: string,
  files: readonly string[],
  snippets: readonly Snippet[],
): string[] {
  const program = ts.createProgram(files as string[], READER);
  const own = join(consumer, "node_modules", "ignite-element");
  const where = (diagnostic: ts.Diagnostic): string => {
    const file = diagnostic.file;
    if (file === undefined) return "";
    const snippet = snippets.find((candidate) => file.fileName.endsWith(`/${candidate.name}.ts`));
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return snippet === undefined
      ? `${relative(consumer, file.fileName)}:${line + 1}`
      : `${snippet.page}:${snippet.line + line}`;
  };
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => {
      const file = diagnostic.file?.fileName;
      return file === undefined || !file.includes("node_modules") || file.startsWith(own);
    })
    .map(
      (diagnostic) =>
        `${where(diagnostic)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`,
    );
}

const execFileAsync = promisify(execFile);

/**
 * Runs `snippet` in `consumer` with the Node binary `node`, and says where what it printed differs
 * from what its page promises (nothing when it all matches). Throws when it fails to run.
 */
export async function misprinted(
  consumer: string,
  snippet: Snippet,
  node: string = process.execPath,
): Promise<string[]> {
  const promises = promisedOutputs(snippet);
  const printed = await run(consumer, snippet, promises, node);
  return promises.flatMap((promise) => {
    const got = printed[promise.id]?.join("\n");
    if (got !== undefined && sameOutput(got, promise.text)) return [];
    return [
      `${snippet.page}:${promise.line}\n  the page says: ${promise.text}\n  it printed:    ${got ?? "(nothing)"}`,
    ];
  });
}

async function run(
  consumer: string,
  snippet: Snippet,
  promises: readonly PromisedOutput[],
  node: string,
): Promise<Record<number, string[]>> {
  const script = join(consumer, `${snippet.name}.run.js`);
  const printed = join(consumer, `${snippet.name}.printed.json`);
  const js = ts.transpileModule(instrumented(snippet, promises), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  writeFileSync(script, js);
  try {
    await execFileAsync(node, ["--import", "./recorder.mjs", script], {
      cwd: consumer,
      env: { ...process.env, DOCS_PRINTED: printed },
      timeout: 50_000,
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`${snippet.page}:${snippet.line} failed to run:\n${stderr ?? String(error)}`);
  }
  return JSON.parse(readFileSync(printed, "utf8")) as Record<number, string[]>;
}
