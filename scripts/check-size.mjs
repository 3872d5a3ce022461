#!/usr/bin/env node
// Bundle-size budgets of the built entrypoints (run `npm run build` first).
//
// Each ESM entry under dist/tools/ is bundled WITH the code-split chunks it imports, ajv and
// ajv-formats left external (the application installs them; they are not ours to budget),
// minified with esbuild and gzipped with node:zlib at level 9 — what a consumer's bundler ships
// for `import … from "ignite-element/tools"` (or a dialect subpath) before its own dependencies.
//
//   node scripts/check-size.mjs             check every budget, exit 1 when one is over
//   node scripts/check-size.mjs --json      the same figures as JSON (used by `npm run bench`)
//   node scripts/check-size.mjs --src       also estimate unbuilt dialects from src/ (not enforced)
//   node scripts/check-size.mjs --from-src  bundle every entry from src/ instead of dist/ (the same
//                                           esbuild bundling tsup does; enforced like dist/)
//   node scripts/check-size.mjs --dist=DIR  read the build from DIR instead of dist/
//
// Dialect entries not built yet (not in tsup.config.ts, so absent from dist/) are skipped with a
// note; with `--src` their size is estimated from src/ instead, for information only.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Budgets in bytes of min+gzip. The target is 6 KB for the core and 2.5 KB for each dialect;
 * three dialects carry more than a format translation and have budgets of their own, as
 * docs/performance.md explains (what each costs, and what meeting 2.5 KB would need).
 */
export const BUDGETS = {
  core: 6 * 1024,
  dialect: 2.5 * 1024,
  exceptions: {
    // Strict mode: the schema conversion behind `anthropic({ strict: true })`.
    anthropic: 3.5 * 1024,
    // Two dialects (Chat Completions and Responses) and strict mode.
    openai: 4 * 1024,
    // The OpenAPI-subset schema downgrade behind `gemini({ schema: "openapi" })`.
    gemini: 4.5 * 1024,
  },
};

function dialectBudget(entry) {
  const name = entry.split("/").pop();
  return BUDGETS.exceptions[name] ?? BUDGETS.dialect;
}

/** The dialect subpaths of tsup.config.ts; any other entry built under dist/tools is found too. */
const PLANNED_DIALECTS = ["anthropic", "openai", "gemini", "mcp", "ollama"];

const EXTERNAL = ["ajv", "ajv-formats", "ajv/*", "ajv-formats/*"];

async function minGzip(entryPoint) {
  return bundleSize({ entryPoints: [entryPoint] });
}

/** What `file` adds to a bundle that already has `core`: gzip(core + file) - gzip(core). */
async function marginal(core, file, coreGzip) {
  const contents = `export * from ${JSON.stringify(core)};\nexport * from ${JSON.stringify(file)};`;
  const both = await bundleSize({ stdin: { contents, resolveDir: ROOT, loader: "js" } });
  return both.gzip - coreGzip;
}

async function bundleSize(input) {
  const result = await build({
    ...input,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    minify: true,
    legalComments: "none",
    external: EXTERNAL,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { min: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

function builtDialects(dist) {
  if (!existsSync(dist)) return [];
  return readdirSync(dist)
    .filter((file) => file.endsWith(".js") && file !== "index.js" && !file.startsWith("chunk-"))
    .map((file) => file.slice(0, -3));
}

/** The newest modification time under `dir`, in ms. */
function newest(dir, filter = () => true) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, filter));
    else if (filter(path)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Every entry's size and verdict. `fromSrc` estimates unbuilt dialects from their source file.
 * Returns `{ rows, notes, over }`; each row is `{ entry, file, min, gzip, budget, ok, source }`.
 */
export async function measureSizes({
  fromSrc = false,
  allFromSrc = false,
  dist = join(ROOT, "dist"),
} = {}) {
  const rows = [];
  const notes = [];
  const tools = join(dist, "tools");
  const srcTools = join(ROOT, "src", "tools");
  const core = allFromSrc ? join(srcTools, "index.ts") : join(tools, "index.js");
  if (!existsSync(core)) {
    throw new Error(`check-size: ${relative(ROOT, core)} is missing; run \`npm run build\` first`);
  }
  if (!allFromSrc && newest(srcTools, (path) => path.endsWith(".ts")) > statSync(core).mtimeMs) {
    notes.push("dist/ is older than src/tools: run `npm run build` for current figures");
  }
  const source = allFromSrc ? "src" : "dist";
  const coreSize = await minGzip(core);
  const coreGzip = coreSize.gzip;
  rows.push({
    entry: "ignite-element/tools",
    file: relative(ROOT, core),
    budget: BUDGETS.core,
    source,
    ...coreSize,
  });
  const built = allFromSrc ? [] : builtDialects(tools);
  const errors = [];
  const measure = async (entry, file, source) => {
    try {
      const size = await minGzip(file);
      const added = await marginal(core, file, coreGzip);
      rows.push({
        entry,
        file: relative(ROOT, file),
        budget: dialectBudget(entry),
        source,
        ...size,
        added,
      });
    } catch (error) {
      const message = `${entry}: ${relative(ROOT, file)} does not bundle: ${firstLine(error)}`;
      // A built entry that does not bundle fails the check; a source file mid-edit is a note.
      if (source === "dist") errors.push(message);
      else notes.push(message);
    }
  };
  for (const name of [...new Set([...PLANNED_DIALECTS, ...built])].sort()) {
    const entry = `ignite-element/tools/${name}`;
    const file = allFromSrc ? join(srcTools, "dialects", `${name}.ts`) : join(tools, `${name}.js`);
    const src = join(srcTools, "dialects", `${name}.ts`);
    if (existsSync(file)) await measure(entry, file, source);
    else if (fromSrc && existsSync(src)) {
      await measure(entry, src, "src (estimate: not a built entry yet)");
    } else {
      notes.push(
        `${entry}: skipped, ${relative(ROOT, file)} is not built` +
          (existsSync(src) ? " (src exists: add it to tsup.config.ts)" : " (not written yet)"),
      );
    }
  }
  for (const row of rows) row.ok = row.gzip <= row.budget;
  // Entries measured as built (or all from src/ with --from-src) are enforced; estimates inform.
  const over = rows.filter((row) => !row.ok && row.source === source);
  return { rows, notes, over, errors };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").find((line) => line.includes("ERROR")) ?? text.split("\n")[0];
}

async function main() {
  const args = process.argv.slice(2);
  const distArg = args.find((arg) => arg.startsWith("--dist="));
  const result = await measureSizes({
    fromSrc: args.includes("--src"),
    allFromSrc: args.includes("--from-src"),
    ...(distArg ? { dist: resolve(distArg.slice("--dist=".length)) } : {}),
  });
  if (args.includes("--json")) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  for (const row of result.rows) {
    const verdict = row.ok ? "ok" : "OVER BUDGET";
    const estimate = row.source === "dist" ? "" : `  [${row.source}]`;
    const added = row.added === undefined ? "" : `, adds ${kb(row.added)} beside the core`;
    console.log(
      `${row.entry.padEnd(32)} ${kb(row.gzip).padStart(9)} min+gzip` +
        ` (${kb(row.min)} min${added}) / budget ${kb(row.budget)}  ${verdict}${estimate}`,
    );
  }
  for (const note of result.notes) console.log(`note: ${note}`);
  for (const error of result.errors) console.error(`check-size: ${error}`);
  if (result.over.length > 0 || result.errors.length > 0) {
    for (const row of result.over) {
      console.error(
        `check-size: ${row.entry} (${row.file}) is ${kb(row.gzip)} min+gzip, over its budget of ` +
          `${kb(row.budget)} by ${row.gzip - row.budget} bytes`,
      );
    }
    process.exit(1);
  }
  console.log(`check-size: ${result.rows.length} entries within budget`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
