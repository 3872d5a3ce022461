/**
 * A fresh application, as a reader of the README makes one: an ES module package with the packed
 * tarball installed, and the SDKs and frameworks the snippets import at the versions this
 * repository tests against. The docs test compiles and runs the snippets in it, so they see the
 * package's published declarations and built code, never `src/`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEntrypoints } from "../../../scripts/entrypoints.mjs";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The package an import specifier names (`@scope/name/sub` → `@scope/name`); none for a path. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Packs the repository (npm runs `prepare`, which builds `dist/` from the sources) and installs
 * the tarball with `imports` into a new directory; returns that directory.
 */
export function makeConsumer(root: string, imports: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "ignite-docs-"));
  const packs = join(dir, "packs");
  mkdirSync(packs);
  execFileSync(npm, ["pack", "--silent", "--pack-destination", packs], {
    cwd: root,
    stdio: "pipe",
  });
  const [tarball] = readdirSync(packs).filter((file) => file.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball in ${packs}`);

  const { devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const peers = loadEntrypoints().entrypoints.flatMap((entry) => Object.keys(entry.peers ?? {}));
  const wanted = new Set([...peers, ...imports, "@types/node"]);
  wanted.delete("ignite-element");
  const versions = [...wanted].sort().map((name) => {
    const version = devDependencies[name];
    if (version === undefined) {
      throw new Error(`a snippet imports ${name}, which package.json's devDependencies lack`);
    }
    return `${name}@${version}`;
  });

  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "docs-reader", private: true, type: "module" }),
  );
  // --prefer-offline: `npm ci` has just put every one of these in npm's cache.
  execFileSync(
    npm,
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--ignore-scripts",
      join(packs, tarball),
      ...versions,
    ],
    { cwd: dir, stdio: "pipe" },
  );
  return dir;
}
