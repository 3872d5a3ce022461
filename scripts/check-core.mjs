#!/usr/bin/env node
// The pure core does no I/O and waits on nothing: no async/await, no timers, no process, fetch or
// console, no clock or randomness. The type check (tsconfig.tools.json, no Node types) keeps Node
// globals out of all of src/tools; this keeps the core free of the globals every runtime has.
import { readFileSync } from "node:fs";

const CORE = ["manifest", "route", "errors", "validation", "limits", "result", "types"].map(
  (name) => `src/tools/${name}.ts`,
);
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
      console.error(`${file}:${index + 1}: the pure core must not use \`${match[1]}\``);
    }
  });
}
if (failures > 0) process.exit(1);
console.log(`core purity: ${CORE.length} modules checked, no I/O, no await, no globals`);
