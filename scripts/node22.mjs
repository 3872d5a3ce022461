#!/usr/bin/env node
// Installs the Node 22 that the MCP conformance suite and the MCP Inspector require, from
// scripts/node22's lockfile, into scripts/node22/node_modules: scripts/pinned-node.mjs, which
// says why it is kept apart, for Node 22.
//
//   node scripts/node22.mjs          install it unless the locked version is already there
//   node scripts/node22.mjs --path   print the binary's path
//
// The test run installs it before any test starts (src/tests/setup/node22.ts), so `npm test`
// stays one command.
import { fileURLToPath } from "node:url";
import { installNode, nodeBinary } from "./pinned-node.mjs";

/** The Node 22 binary, once installed. */
export const NODE22 = nodeBinary(22);

/** Installs the locked Node 22 unless it is there; says why not on another platform. */
export function installNode22() {
  installNode(22);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--path")) console.log(NODE22);
  else installNode22();
}
