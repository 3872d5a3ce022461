import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "../../..");

/** The files under `dir`, sorted. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? sources(path) : [path];
    })
    .sort();
}

/**
 * What the packed package is made from — the sources it builds and the pages it ships as they
 * are: a change to any of it means packing again.
 */
function fingerprint(): string {
  const hash = createHash("sha256");
  const files = [
    ...[
      "package.json",
      "entrypoints.json",
      "tsup.config.ts",
      "scripts/entrypoints.mjs",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
    ].map((file) => join(root, file)),
    ...sources(join(root, "src/tools")),
    ...sources(join(root, "docs")),
  ];
  for (const file of files) hash.update(relative(root, file)).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The packed tarball of the sources as they are now: `npm pack` runs `prepare`, the build. It is
 * kept under node_modules/.cache and reused until the sources change.
 */
export function packedTarball(): string {
  const cache = join(root, "node_modules/.cache/ignite-element-packed");
  const dir = join(cache, fingerprint());
  const ready = join(dir, "ready");
  if (existsSync(ready)) return readFileSync(ready, "utf8");

  rmSync(cache, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
    cwd: root,
    stdio: "pipe",
  });
  const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${dir}`);
  writeFileSync(ready, join(dir, tarball));
  return join(dir, tarball);
}

/**
 * A new project outside this repository, an ES module package, with `tarball` installed as an
 * application installs it, and `packages` (names whose versions come from this repository's
 * devDependencies) beside it: its directory. `name=alias` installs `name` as the devDependency
 * `alias` gives it: `ai=ai7` installs `ai` at the version of `"ai7": "npm:ai@7…"`.
 */
export function projectWith(tarball: string, packages: readonly string[]): string {
  const project = mkdtempSync(join(tmpdir(), "ignite-app-"));
  const { devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  const versions = [...new Set(packages)].sort().map((entry) => {
    const [name = entry, alias = name] = entry.split("=");
    const version = devDependencies[alias];
    if (version === undefined) throw new Error(`${alias} is not among the devDependencies`);
    return `${name}@${version}`;
  });
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "an-application", private: true, type: "module" }),
  );
  // --prefer-offline: `npm ci` has just put every one of these in npm's cache.
  execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefer-offline",
      tarball,
      ...versions,
    ],
    { cwd: project, stdio: "pipe" },
  );
  return project;
}
