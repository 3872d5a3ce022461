#!/usr/bin/env node
// The pure core does no I/O and waits on nothing: no async/await, no timers, no process, fetch or
// console, no clock or randomness. The type check (tsconfig.tools.json, no Node types) keeps Node
// globals out of all of src/tools; this keeps the core free of the globals every runtime has.
import { readdirSync, readFileSync } from "node:fs";

// The pure layers, by folder: every file in them is checked, however it is named. The validator
// port and its cache are the core's view of validation; the adapters behind them are not pure.
const PURE_FOLDERS = ["src/tools/core", "src/tools/wire", "src/tools/dialects"];
const PURE_FILES = ["src/tools/validation/port.ts", "src/tools/validation/cache.ts"];
const CORE = [
  ...PURE_FOLDERS.flatMap((folder) =>
    readdirSync(folder)
      .filter((file) => file.endsWith(".ts"))
      .map((file) => `${folder}/${file}`),
  ),
  ...PURE_FILES,
];
const FORBIDDEN =
  /\b(async|await|process|fetch|console|setTimeout|setInterval|queueMicrotask|globalThis|Date\.now|Math\.random|performance)\b/;

let failures = 0;
for (const file of CORE) {
  const code = readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "")
    .replace(/`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'/g, '""');
  code.split("\n").forEach((line, index) => {
    const match = FORBIDDEN.exec(line);
    if (match) {
      failures++;
      console.error(`${file}:${index + 1}: pure code must not use \`${match[1]}\``);
    }
  });
}
if (failures > 0) process.exit(1);
console.log(
  `purity: ${CORE.length} modules of core/, wire/ and dialects/ checked, no I/O, no await, no globals`,
);
