import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadEntrypoints } from "../../scripts/entrypoints.mjs";
import { packageOf } from "./docs/imports.js";
import {
  anchorOf,
  anchorsOf,
  codeSpansOf,
  type Install,
  installedName,
  installsFromRegistry,
  installsOf,
  isRelative,
  type Link,
  linksOf,
  pathOfSpan,
  repositoryPath,
  resolveLink,
} from "./docs/markdown.js";
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
const { devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  devDependencies: Record<string, string>;
};

/** A page as the package ships it: its path inside the package, and its text there. */
interface Page {
  page: string;
  text: string;
}

/**
 * What the packed tarball holds (paths inside the package: `docs/serving.md`), with the folders
 * they are in, and its pages: the README, the changelog and docs/, read from the tarball itself.
 */
function packed(tarball: string): { files: Set<string>; pages: Page[] } {
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line !== "" && !line.endsWith("/"))
    .map((line) => line.replace(/^package\//, ""));
  const markdown = files.filter((file) => /^(docs\/.*|[^/]*)\.md$/.test(file));
  const dir = mkdtempSync(join(tmpdir(), "ignite-packed-docs-"));
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", dir, ...markdown.map((file) => `package/${file}`)]);
    const pages = markdown.map((page) => ({
      page,
      text: readFileSync(join(dir, "package", page), "utf8"),
    }));
    return { files: withFolders(files), pages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The repository's files (tracked, or new and not ignored), with the folders they are in. */
function repositoryFiles(): Set<string> {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  });
  return withFolders(listed.split("\n").filter((line) => line !== ""));
}

/** `files`, and every folder above each of them, each folder with a trailing `/`. */
function withFolders(files: readonly string[]): Set<string> {
  const all = new Set(files);
  for (const file of files) {
    const parts = file.split("/");
    for (let depth = 1; depth < parts.length; depth++)
      all.add(`${parts.slice(0, depth).join("/")}/`);
  }
  return all;
}

/** Whether `path` (a file, or a folder with or without its `/`) is among `files`. */
function has(files: ReadonlySet<string>, path: string): boolean {
  return files.has(path) || files.has(path.endsWith("/") ? path : `${path}/`);
}

/** The bare packages a page's TypeScript blocks import (not this package, not Node's). */
function importsOf(blocks: readonly Snippet[]): string[] {
  return blocks.flatMap((snippet) =>
    ts.preProcessFile(snippet.source, true, true).importedFiles.flatMap((file) => {
      const name = packageOf(file.fileName);
      return name === undefined || name === "ignite-element" ? [] : [name];
    }),
  );
}

/** Where an install stands, for a failure message: `docs/serving.md:205: npm install x`. */
const at = (page: string, install: Install) => `${page}:${install.line}: ${install.command}`;

/**
 * What the README's own install section installs besides the SDKs: the packed tarball (a path or
 * a variable holding one) or the repository on GitHub. No other page installs the package.
 */
function isReadmesWayIn(word: string): boolean {
  return /^["']?[$./]/.test(word) || word === "github:ignite-element/tools";
}

let consumer = "";

beforeAll(() => {
  const imports = importsOf(snippets);
  // Every entrypoint's optional peer too: a snippet's import of an entrypoint loads its peer.
  const optionalPeers = loadEntrypoints().entrypoints.flatMap(({ peers }) =>
    Object.keys(peers ?? {}),
  );
  // And the types a TypeScript reader installs beside a package that ships none (`@types/pg`).
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
  // The pages as they are here and as the package ships them: a reader meets either.
  let everyPage: Page[] = [];
  beforeAll(() => {
    everyPage = [
      ...pages,
      ...packed(inject("tarball")).pages.map(({ page, text }) => ({
        page: `package/${page}`,
        text,
      })),
    ];
  });

  it("never installs this package from the registry, where its name belongs to another package", () => {
    const wrong = everyPage.flatMap(({ page, text }) =>
      installsOf(text)
        .filter((install) => install.packages.some(installsFromRegistry))
        .map((install) => at(page, install)),
    );
    expect(wrong).toEqual([]);
  });

  it("installs on every page only the SDKs and frameworks the docs are tested with, and the package only as the README says", () => {
    const wrong = everyPage.flatMap(({ page, text }) =>
      installsOf(text).flatMap((install) =>
        install.packages
          .filter((word) => !(installedName(word) in devDependencies))
          .filter(
            (word) => !(page.replace(/^package\//, "") === "README.md" && isReadmesWayIn(word)),
          )
          .map((word) => `${at(page, install)} installs ${word}`),
      ),
    );
    expect(wrong).toEqual([]);
  });

  it("points every page that installs an SDK or a framework to the README's install section", () => {
    const unpointed = everyPage.flatMap(({ page, text }) => {
      const inPackage = page.replace(/^package\//, "");
      if (inPackage === "README.md") return [];
      const installs = installsOf(text).filter((install) => install.packages.length > 0);
      if (installs.length === 0) return [];
      const pointed = linksOf(text).some(
        (link) =>
          isRelative(link.target) &&
          resolveLink(inPackage, link.target) === "README.md" &&
          link.target.endsWith("#install"),
      );
      return pointed
        ? []
        : installs.map((install) => `${at(page, install)}, with no link to ../README.md#install`);
    });
    expect(unpointed).toEqual([]);
  });

  it("installs, on every page that has an install line, every package its examples import", () => {
    const missing = pages.flatMap(({ page, text }) => {
      const installed = installsOf(text).flatMap((install) =>
        install.packages.map((word) => packageOf(installedName(word))),
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

describe("the links of the shipped pages", () => {
  // The README, the changelog and docs/ as the tarball has them, read in node_modules or on
  // GitHub: a relative link must resolve in both, so it may only name what the package ships.
  let shipped: { files: Set<string>; pages: Page[] } = { files: new Set(), pages: [] };
  let repository = new Set<string>();
  beforeAll(() => {
    shipped = packed(inject("tarball"));
    repository = repositoryFiles();
  });
  const linksOfPages = () =>
    shipped.pages.flatMap(({ page, text }) => linksOf(text).map((link) => ({ page, link })));
  const where = (page: string, link: Link) => `${page}:${link.line}: (${link.target})`;

  it("are the README, the changelog and every page of docs/", () => {
    expect(shipped.pages.map(({ page }) => page).sort()).toEqual(
      ["README.md", "CHANGELOG.md", ...pages.map(({ page }) => page)]
        .filter((page, index, all) => all.indexOf(page) === index)
        .sort(),
    );
  });

  it("link relatively only to what the package ships and the repository has at the same place", () => {
    const broken = linksOfPages().flatMap(({ page, link }) => {
      if (!isRelative(link.target)) return [];
      const path = resolveLink(page, link.target);
      if (path === undefined) return [`${where(page, link)} leaves the package`];
      const missing = [
        ...(has(shipped.files, path) ? [] : ["the package"]),
        ...(has(repository, path) ? [] : ["the repository"]),
      ];
      return missing.length === 0
        ? []
        : [`${where(page, link)} names ${path}, which ${missing.join(" and ")} lacks`];
    });
    expect(broken).toEqual([]);
  });

  it("link to the repository on GitHub only at paths it has, files as blob/ and folders as tree/", () => {
    const broken = linksOfPages().flatMap(({ page, link }) => {
      const found = repositoryPath(link.target);
      if (found === undefined) return [];
      const { kind, path } = found;
      const folder = repository.has(`${path.replace(/\/$/, "")}/`);
      if (!has(repository, path)) return [`${where(page, link)}: the repository has no ${path}`];
      if (folder !== (kind === "tree")) {
        return [`${where(page, link)}: ${path} is a ${folder ? "folder (tree/)" : "file (blob/)"}`];
      }
      return [];
    });
    expect(broken).toEqual([]);
  });

  it("link only to anchors that are there, within a page and across pages", () => {
    const anchors = new Map(shipped.pages.map(({ page, text }) => [page, anchorsOf(text)]));
    const broken = linksOfPages().flatMap(({ page, link }) => {
      const anchor = anchorOf(link.target);
      const local = isRelative(link.target) || link.target.startsWith("#");
      if (anchor === undefined || !local) return [];
      const target = resolveLink(page, link.target);
      const found = target === undefined ? undefined : anchors.get(target);
      if (found === undefined) return []; // not a page: the test above checks the path
      return found.has(anchor) ? [] : [`${where(page, link)}: ${target} has no heading #${anchor}`];
    });
    expect(broken).toEqual([]);
  });

  it("link every file or folder of the repository they name that the package does not ship", () => {
    const unlinked = shipped.pages.flatMap(({ page, text }) => {
      const links = linksOf(text);
      return codeSpansOf(text).flatMap((span) => {
        const path = pathOfSpan(span.code);
        if (path === undefined || !has(repository, path) || has(shipped.files, path)) return [];
        const linked = links.some(
          (link) => span.start >= link.text.start && span.start < link.text.end,
        );
        return linked ? [] : [`${page}:${span.line}: \`${span.code}\` is not a link`];
      });
    });
    expect(unlinked).toEqual([]);
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
