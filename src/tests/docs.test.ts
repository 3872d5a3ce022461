import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEntrypoints } from "../../scripts/entrypoints.mjs";
import { packageOf } from "./docs/imports.js";
import { misprinted, typeErrors, writeSnippets } from "./docs/run.js";
import { type Snippet, snippetsOf } from "./docs/snippets.js";
import { projectWith } from "./setup/packed.js";

// Every ```ts block of the README and docs/ is a complete ES module that a reader copies into a
// fresh project. So each is compiled against the packed tarball installed in one, under the
// settings a careful team uses, and run there with Node; what each `console.log` prints is
// compared with the output its page promises (see docs/snippets.ts for the convention). A block
// fenced ```ts no-run needs what a test cannot have (a provider's network, an API key): it is
// type-checked, and not run. A block fenced ```ts ai@7 is an AI SDK 7 application, which needs
// ai@7 and Node 22: src/tests/adapters/ai-sdk7.test.ts type-checks and runs it, in a project of
// its own, and it is left out here.
const root = join(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const pages = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))].map((file) => ({
  page: relative(root, file),
  text: readFileSync(file, "utf8"),
}));
const snippets = pages
  .flatMap(({ page, text }) => snippetsOf(page, text))
  .filter((snippet) => snippet.under === undefined);

/** The bare packages a page's TypeScript blocks import (not this package, not Node's). */
function importsOf(blocks: readonly Snippet[]): string[] {
  return blocks.flatMap((snippet) =>
    ts.preProcessFile(snippet.source, true, true).importedFiles.flatMap((file) => {
      const name = packageOf(file.fileName);
      return name === undefined || name === "ignite-element" ? [] : [name];
    }),
  );
}

/** The packages a page's ```sh blocks install with `npm install|i|add`. */
function installsOf(text: string): string[] {
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((block) =>
    (block[1] ?? "").split("\n").flatMap((line) => {
      const command = /\bnpm (?:install|i|add)\b([^#&;]*)/.exec(line);
      return (command?.[1] ?? "")
        .split(/\s+/)
        .filter((word) => word !== "" && !word.startsWith("-"));
    }),
  );
}

let consumer = "";

beforeAll(() => {
  const imports = importsOf(snippets);
  // Every entrypoint's optional peer too: a snippet's import of an entrypoint loads its peer.
  const optionalPeers = loadEntrypoints().entrypoints.flatMap(({ peers }) =>
    Object.keys(peers ?? {}),
  );
  // And the types a TypeScript reader installs beside a package that ships none (`@types/pg`).
  const { devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const types = imports
    .map((name) => `@types/${name.replace(/^@(.*)\//, "$1__")}`)
    .filter((name) => name in devDependencies);
  // DOCS_CONSUMER names a project made by an earlier run, to iterate on a page without packing
  // again; it is kept afterwards.
  consumer =
    process.env.DOCS_CONSUMER ??
    projectWith(inject("tarball"), [...imports, ...types, ...optionalPeers, "@types/node"]);
  writeSnippets(consumer, snippets);
}, 240_000);

afterAll(() => {
  if (consumer !== "" && process.env.DOCS_CONSUMER === undefined)
    rmSync(consumer, { recursive: true, force: true });
}, 60_000);

describe("the way in", () => {
  it("never installs this package from the registry, where its name belongs to another package", () => {
    const wrong = pages.flatMap(({ page, text }) =>
      installsOf(text)
        .filter((word) => word === "ignite-element" || word.startsWith("ignite-element@"))
        .map((word) => `${page}: npm install ${word}`),
    );
    expect(wrong).toEqual([]);
  });

  it("installs, on every page that has an install line, every package its examples import", () => {
    const missing = pages.flatMap(({ page, text }) => {
      const installed = installsOf(text).map((word) =>
        packageOf(word.replace(/(?<=.)@[^/]*$/, "")),
      );
      if (installed.length === 0) return [];
      const blocks = snippets.filter((snippet) => snippet.page === page);
      return [...new Set(importsOf(blocks))]
        .filter((name) => !installed.includes(name))
        .map((name) => `${page} imports ${name}, which its install line leaves out`);
    });
    expect(missing).toEqual([]);
  });

  it("lists every entrypoint and links every page of docs/ from the README", () => {
    const readme = pages.find(({ page }) => page === "README.md")?.text ?? "";
    const entrypoints = loadEntrypoints().entrypoints.map(
      ({ subpath }) => `\`ignite-element${subpath.slice(1)}\``,
    );
    const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
    expect(entrypoints.filter((name) => !readme.includes(name))).toEqual([]);
    expect(docs.filter((name) => !readme.includes(`(docs/${name}`))).toEqual([]);
  });
});

describe("documentation snippets", () => {
  it("exist", () => {
    expect(snippets.length).toBeGreaterThan(5);
  });

  it("type-check against the packed package under a strict reader's tsconfig", () => {
    const files = snippets.map((snippet) => join(consumer, `${snippet.name}.ts`));
    const diagnostics = typeErrors(consumer, files, snippets);
    if (diagnostics.length > 0) throw new Error(diagnostics.join("\n"));
    // One program over every snippet: about 40 s on 2 quiet cores, several times that on a busy one.
  }, 300_000);

  it.each(
    snippets.filter((snippet) => snippet.runs).map((snippet) => [snippet.name, snippet] as const),
  )(
    "%s runs and prints what its page says",
    async (_name, snippet) => {
      const wrong = await misprinted(consumer, snippet);
      // Thrown whole: an assertion's diff would cut the text a writer needs to fix the page.
      if (wrong.length > 0)
        throw new Error(`printed output differs from the page:\n${wrong.join("\n")}`);
    },
    60_000,
  );
});
