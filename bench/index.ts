/**
 * `npm run bench`: one table of ratios, each measured in this process and run, so that a noisy
 * machine slows both sides of a ratio alike and cannot fake it. See docs/performance.md.
 *
 *   npx tsx bench/index.ts            every row
 *   npx tsx bench/index.ts --quick    fewer, shorter rounds (a smoke run, not for the docs)
 *   npx tsx bench/index.ts --strict   exit 1 when a row misses its target
 *   npx tsx bench/index.ts --only=1,4 just those rows
 *   npx tsx bench/index.ts --only=T   the tokens a turn's tool definitions cost (ends with TOKENS:)
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ledgerRows } from "./ledgers.js";
import { peerRows } from "./peers.js";
import {
  alternativeRows,
  manifestRows,
  type Row,
  type RowOptions,
  scaleRows,
  turnRows,
  validationRows,
} from "./rows.js";
import { scaleRows as growthRows } from "./scale.js";
import { type TokenSection, tokenRows } from "./tokens.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const strict = args.includes("--strict");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const wanted = (id: string) => only === undefined || only.includes(id);
const options: RowOptions = quick ? { rounds: 5, timeMs: 20 } : { rounds: 15, timeMs: 40 };

const startedAt = performance.now();
const version = (name: string) =>
  (
    JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
const cpu = cpus();
console.log(
  `machine: ${cpu[0]?.model ?? "unknown CPU"} × ${cpu.length}, ` +
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version} ${process.platform}-${process.arch}`,
);
console.log(
  `tinybench ${version("tinybench")}, ajv ${version("ajv")}, @cfworker/json-schema ` +
    `${version("@cfworker/json-schema")}, zod ${version("zod")}; ` +
    `${options.rounds} rounds × ${options.timeMs} ms per side${quick ? " (--quick)" : ""}`,
);

const rows: Row[] = [];
const notes: string[] = [];
/** Section T's tables and its `TOKENS:` line, the last line of the output. */
let tokens: TokenSection | undefined;
async function section(id: string, title: string, run: () => Row[] | Promise<Row[]>) {
  if (!wanted(id)) return;
  const at = performance.now();
  process.stdout.write(`  row ${id}: ${title}…`);
  rows.push(...(await run()));
  process.stdout.write(` ${((performance.now() - at) / 1000).toFixed(1)} s\n`);
}

await section("1", "validation vs the limit", () => validationRows(options));
await section("2", "a whole turn vs its payload", () => turnRows(options));
await section("3", "per-turn manifest rebuild", () => manifestRows(options));
await section("4", "scale", () => scaleRows(options));
await section("S", "scale: a call and a turn's tool definitions, 10 to 10 000 commands", () =>
  growthRows(options),
);
await section("5", "alternatives", () => alternativeRows(options));
await section("6", "memory (child process, --expose-gc)", memoryRows);
await section("7", "bundle size (scripts/check-size.mjs)", sizeRows);
await section("P", "peers: AI SDK, LangChain, MCP SDK at 10–10 000 commands", () =>
  peerRows(options, quick ? [10, 100] : undefined),
);
await section(
  "L",
  "ledgers' cost per call, resumes/s through the queue (own Redis, PostgreSQL)",
  () => ledgerRows(options, quick),
);
await section("T", "tokens: tool definitions per request, prompt-cache prefix, peers", async () => {
  tokens = await tokenRows(quick);
  return tokens.rows;
});

function memoryRows(): Row[] {
  const runs = quick ? 1 : 3;
  const results: MemoryResult[] = [];
  for (let run = 0; run < runs; run++) {
    const out = execFileSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", join(ROOT, "bench", "memory.ts")],
      { cwd: ROOT, encoding: "utf8" },
    );
    results.push(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as MemoryResult);
  }
  const median = (pick: (result: MemoryResult) => number) => {
    const values = results.map(pick).sort((a, b) => a - b);
    return {
      median: values[values.length >> 1] ?? 0,
      min: values[0] ?? 0,
      max: values.at(-1) ?? 0,
    };
  };
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  const manifest = median((result) => result.bridgeAndManifestBytes);
  const heap = median((result) => result.heapAfterManifest);
  const perInvoke = median((result) => result.bytesPerInvoke);
  const steady = median(
    (result) => result.segmentGrowth.slice(1).reduce((a, b) => a + b, 0) / (result.invokes * 0.75),
  );
  const commands = results[0]?.commands ?? 0;
  return [
    {
      id: "6a",
      what: "heap of bridge + manifest + tool defs, 10 000 commands",
      value: mb(manifest.median),
      range: `${mb(manifest.min)}–${mb(manifest.max)}`,
      target: "(reported)",
      verdict: "info",
      details: [
        `6a ${((manifest.median / commands) | 0).toLocaleString("en")} bytes per command; heap ` +
          `after building it ${mb(heap.median)} in all, of which the schema objects themselves ` +
          `${mb(median((result) => result.schemaBytes).median)} (${runs} child runs)`,
      ],
    },
    {
      id: "6b",
      what: "heap growth per invoke, over 100 000 invokes",
      value: `${perInvoke.median.toFixed(2)} B`,
      range: `${perInvoke.min.toFixed(2)}–${perInvoke.max.toFixed(2)} B`,
      target: "flat (< 4 B)",
      verdict: perInvoke.median < 4 ? "pass" : "FAIL",
      details: [
        `6b after the first 25 000: ${steady.median.toFixed(2)} B per invoke; ` +
          `${median((result) => result.usPerInvoke).median.toFixed(2)} µs per invoke`,
      ],
    },
  ];
}

interface MemoryResult {
  commands: number;
  schemaBytes: number;
  bridgeAndManifestBytes: number;
  heapAfterManifest: number;
  invokes: number;
  bytesPerInvoke: number;
  segmentGrowth: number[];
  usPerInvoke: number;
}

interface SizeRow {
  entry: string;
  min: number;
  gzip: number;
  added?: number;
  budget: number;
  ok: boolean;
  source: string;
}

/** What an opt-in capability adds to a browser app: `added` = gzip(its bundle) − gzip(`over`'s). */
interface FeatureRow {
  feature: string;
  over: string;
  min: number;
  gzip: number;
  added: number;
  budget: number;
  ok: boolean;
  source: string;
}

interface SizeResult {
  rows: SizeRow[];
  features: FeatureRow[];
  notes: string[];
  errors: string[];
}

function sizeRows(): Row[] {
  // dist/ as built when it is current; otherwise the same bundling straight from src/, so the
  // row always describes the code as it is now (./verify.sh --full enforces on a fresh build).
  const core = join(ROOT, "dist", "tools", "index.js");
  const fresh = existsSync(core) && newest(join(ROOT, "src", "tools")) <= statSync(core).mtimeMs;
  let result: SizeResult;
  try {
    const out = execFileSync(
      process.execPath,
      [join(ROOT, "scripts", "check-size.mjs"), "--json", fresh ? "--src" : "--from-src"],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    result = JSON.parse(out) as SizeResult;
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? error).split("\n")[0] ?? "";
    return [
      {
        id: "7",
        what: "bundle size",
        value: "error",
        range: "",
        target: "",
        verdict: "FAIL",
        details: [`7  check-size failed: ${reason}`],
      },
    ];
  }
  notes.push(...result.notes.map((note) => `7  ${note}`));
  // --json exits 0 whatever it found, so what did not bundle is said here or not at all.
  notes.push(...result.errors.map((error) => `7  check-size: ${error}`));
  if (!fresh) notes.push("7  dist/ missing or older than src/tools: sizes bundled from src/");
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
  const src = (row: { source: string }) => (row.source === "dist" ? "" : " [src]");
  // The targets the issues set: 6 KB for the core and 2.5 KB for each dialect (the first
  // performance issue), 15 KB for the CSP-safe browser bundle (the reshape). check-size enforces
  // its own budgets (entrypoints.json), larger where docs/performance.md and docs/validation.md
  // say why, so both are shown; an entry no issue set a target for is held to its budget.
  const DIALECTS = ["anthropic", "openai", "gemini", "mcp", "ollama"];
  const targetOf = ({ entry, budget }: SizeRow) => {
    if (entry === "ignite-element/tools") return 6 * 1024;
    if (entry.startsWith("bundle:")) return 15 * 1024;
    return DIALECTS.includes(entry.split("/").at(-1) ?? "") ? 2.5 * 1024 : budget;
  };
  const sizes: Row[] = result.rows.map((row) => ({
    id: row.entry === "ignite-element/tools" ? "7" : `7 ${row.entry.split("/").at(-1)}`,
    what: row.entry.startsWith("bundle:")
      ? `${row.entry.slice(8)}, min+gzip, dependencies included${row.source === "dist" ? "" : " [src]"}`
      : `${row.entry} min+gzip, ajv external${row.source === "dist" ? "" : " [src]"}`,
    value: kb(row.gzip),
    range: `${kb(row.min)} min`,
    target:
      row.budget === targetOf(row)
        ? `≤ ${kb(row.budget)}`
        : `≤ ${kb(targetOf(row))} (gate ${kb(row.budget)})`,
    verdict: row.gzip <= targetOf(row) ? "pass" : "FAIL",
    details:
      row.added === undefined
        ? []
        : [`7  ${row.entry}: adds ${kb(row.added)} to an app that already imports the core`],
  }));
  // A feature is held to its own budget of increment; `over` is named by its label, the part of
  // a scenario's name before ": " (check-size prints it so too).
  const features: Row[] = result.features.map((row) => ({
    id: `7 +${row.feature}`,
    what: `${row.feature}: added over "${row.over.split(": ")[0]}", min+gzip${src(row)}`,
    value: `${row.added < 0 ? "" : "+"}${kb(row.added)}`,
    range: `${kb(row.gzip)} in all`,
    target: `≤ +${kb(row.budget)}`,
    verdict: row.ok ? "pass" : "FAIL",
  }));
  return [...sizes, ...features];
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

const header: Row = {
  id: "row",
  what: "what (subject / baseline, same process and run)",
  value: "median",
  range: "spread (min–max)",
  target: "target",
  verdict: "info",
};
const cells = (row: Row) => [
  row.id,
  row.what,
  row.value,
  row.range,
  row.target,
  row === header ? "verdict" : row.verdict === "info" ? "" : row.verdict,
];
const table = [header, ...rows].map(cells);
const widths = (table[0] ?? []).map((_, column) =>
  Math.max(...table.map((line) => (line[column] ?? "").length)),
);
const line = (values: string[]) =>
  `| ${values.map((value, column) => value.padEnd(widths[column] ?? 0)).join(" | ")} |`;
console.log("");
console.log(line(cells(header)));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const row of rows) console.log(line(cells(row)));
console.log("");
for (const row of rows) for (const detail of row.details ?? []) console.log(detail);
for (const note of notes) console.log(note);
if (tokens) console.log(["", ...tokens.table].join("\n"));
const failed = rows.filter((row) => row.verdict === "FAIL");
console.log(
  `\n${rows.length} rows in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; ` +
    (failed.length === 0
      ? "every target met"
      : `target missed: ${failed.map((row) => row.id).join(", ")} (see docs/performance.md)`),
);
if (tokens) console.log(tokens.line);
if (strict && failed.length > 0) process.exitCode = 1;
