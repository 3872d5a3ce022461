import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dirname, "../../..");

/** What the packed package is made from: a change to any of it means packing again. */
function sources(dir = join(root, "src/tools")): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? sources(path) : [path];
    })
    .sort();
}

function fingerprint(): string {
  const hash = createHash("sha256");
  const files = [
    ...["package.json", "entrypoints.json", "tsup.config.ts", "scripts/entrypoints.mjs"].map(
      (file) => join(root, file),
    ),
    ...sources(),
  ];
  for (const file of files) hash.update(relative(root, file)).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/**
 * A project outside this repository with the package installed from its packed tarball, as an
 * application installs it, and the MCP SDK beside it: its directory. Packing builds the package,
 * so the project is kept (under node_modules/.cache) and reused until the sources change.
 */
export function packedProject(): string {
  const cache = join(root, "node_modules/.cache/ignite-element-packed");
  const dir = join(cache, fingerprint());
  const project = join(dir, "project");
  if (existsSync(join(dir, "ready"))) return project;

  rmSync(cache, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  const quiet = { stdio: "pipe" } as const;
  // `npm pack` runs `prepare`, the build.
  execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: root, ...quiet });
  const tarball = readdirSync(dir).find((file) => file.endsWith(".tgz"));
  if (tarball === undefined) throw new Error(`npm pack left no tarball in ${dir}`);
  const { devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "an-application", private: true, type: "module" }),
  );
  execFileSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefer-offline",
      join(dir, tarball),
      `@modelcontextprotocol/sdk@${devDependencies["@modelcontextprotocol/sdk"]}`,
    ],
    { cwd: project, ...quiet },
  );
  writeFileSync(join(dir, "ready"), "");
  return project;
}
