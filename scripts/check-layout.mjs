#!/usr/bin/env node
// The layout the architecture promises, checked by file: every source file of src/tools opens
// with a comment saying what it owns and stays under 500 lines, and the file that defines
// `igniteTools` stays small and names no capability — each capability joins its pipeline as a
// layer from a room of its own (.dependency-cruiser.cjs checks the arrows between the rooms).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const MAX_LINES = 500;
// The rooms the shell is: each opens with a README.md saying what it owns.
const ROOMS = [
  "bridge",
  "approval",
  "live",
  "content",
  "telemetry",
  "loop",
  "compat",
  "dialects",
  "hosts/mcp",
];
const BRIDGE = "src/tools/bridge/ignite-tools.ts";
const MAX_BRIDGE_LINES = 350;
// What the capabilities are called in code: a branch on any of them belongs in its layer.
const CAPABILITIES = /\b(approv\w*|wait\w*|ledger\w*|observe\w*|live\w*|notes?|changeNotes)\b/i;

const files = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });

/** `source` without its comments and the text of its strings: the code alone. */
const code = (source) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');

let failures = 0;
const fail = (message) => {
  failures++;
  console.error(message);
};
const sources = files("src/tools");
for (const file of sources) {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").length - 1;
  if (lines > MAX_LINES) fail(`${file}: ${lines} lines; a source file has at most ${MAX_LINES}`);
  if (!text.startsWith("/**") && !text.startsWith("#!")) {
    fail(`${file}: opens without a comment saying what it owns`);
  }
}
for (const room of ROOMS) {
  if (!existsSync(`src/tools/${room}/README.md`)) {
    fail(`src/tools/${room}/: no README.md saying what the room owns`);
  }
}
const bridge = readFileSync(BRIDGE, "utf8");
const bridgeLines = bridge.split("\n").length - 1;
if (bridgeLines > MAX_BRIDGE_LINES) {
  fail(`${BRIDGE}: ${bridgeLines} lines; igniteTools' file has at most ${MAX_BRIDGE_LINES}`);
}
code(bridge)
  .split("\n")
  .forEach((line, index) => {
    const named = CAPABILITIES.exec(line);
    if (named) {
      fail(`${BRIDGE}:${index + 1}: names the capability "${named[1]}": make it a layer`);
    }
  });
if (failures > 0) process.exit(1);
console.log(
  `layout: ${sources.length} source files open with what they own and have ≤ ${MAX_LINES} lines; ${BRIDGE} has ${bridgeLines} and names no capability`,
);
