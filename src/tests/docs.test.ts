import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { inspect } from "node:util";
import ts from "typescript";
import { afterAll, describe, expect, it, vi } from "vitest";

// Every ```ts block in the README and docs/ is a complete module: it must type-check against the
// package's public entrypoints and run without throwing, exactly as written. A block fenced
// ```ts no-run needs what a test cannot have (a provider's network, an API key): it is
// type-checked against the real SDKs' types, and not run.
const root = join(import.meta.dirname, "../..");
// One directory per run, so parallel runs never delete each other's snippets.
const out = join(import.meta.dirname, ".snippets", String(process.pid));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const snippets = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))].flatMap((file) => {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/```ts( no-run)?\n([\s\S]*?)```/g)].map((match, index) => {
    const name = `${relative(root, file).replaceAll(/[/.]/g, "_")}_${index + 1}`;
    return { name, source: match[2] ?? "", path: join(out, `${name}.ts`), runs: !match[1] };
  });
});

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const snippet of snippets) writeFileSync(snippet.path, `${snippet.source}\nexport {};\n`);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("documentation snippets", () => {
  it("exist", () => {
    expect(snippets.length).toBeGreaterThan(5);
  });

  it("type-check against the public entrypoints", () => {
    const configFile = ts.readConfigFile(join(root, "tsconfig.json"), (path) =>
      ts.sys.readFile(path),
    );
    const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
    const program = ts.createProgram(
      snippets.map((snippet) => snippet.path),
      options,
    );
    const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file ? relative(root, diagnostic.file.fileName) : "";
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  }, 60_000);

  it.each(
    snippets.filter((snippet) => snippet.runs).map((snippet) => [snippet.name, snippet.path]),
  )("%s runs", async (_name, path) => {
    const log = vi
      .spyOn(console, "log")
      .mockImplementation(
        process.env.SHOW_SNIPPETS
          ? (...args) =>
              process.stdout.write(`${args.map((arg) => inspect(arg, { depth: 4 })).join(" ")}\n`)
          : () => {},
      );
    try {
      await import(/* @vite-ignore */ path);
    } finally {
      log.mockRestore();
    }
  });
});
