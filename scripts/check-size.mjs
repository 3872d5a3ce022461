#!/usr/bin/env node
// Bundle-size budgets of the public entrypoints, from entrypoints.json (run `npm run build` first).
//
// Each built ESM entry is bundled with the code-split chunks it imports, its runtime dependencies
// and optional peers left external (the application installs them; they are not ours to budget),
// minified with esbuild and gzipped at level 9: what a consumer's bundler ships for an import of
// that subpath. Then each browser scenario of entrypoints.json is bundled as a browser app would
// bundle it — dependencies included, the `browser` condition on — and must stay under its budget
// and contain none of its forbidden code (ajv, `new Function`, `eval`). Last, each feature — an
// app using one opt-in capability — is bundled the same way, and what it adds over the bundle it
// names (gzip of its bundle minus gzip of that one) must stay under its budget, so a capability
// that grows shows as its own row in review rather than as a bigger bridge.
//
//   node scripts/check-size.mjs             check every budget, exit 1 when one is over
//   node scripts/check-size.mjs --json      the same figures as JSON (used by `npm run bench`)
//   node scripts/check-size.mjs --from-src  bundle every entry from src/ instead of dist/
//   node scripts/check-size.mjs --write-docs  also write the figures into docs/performance.md
//
// docs/performance.md shows the figures this prints, between its SIZES_START and SIZES_END
// marks, as sizeTable() writes them: src/tests/docs/sizes.test.ts measures the build and fails
// when the page shows other figures, so a reader never meets two tables that disagree.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { loadEntrypoints } from "./entrypoints.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

async function bundle(input, options) {
  const result = await build({
    ...input,
    bundle: true,
    write: false,
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    ...options,
  });
  const code = result.outputFiles[0].contents;
  return { code, min: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

/**
 * Every entry's and scenario's size and verdict (`rows`), and every feature's increment
 * (`features`): `{ rows, features, notes, over, errors }`.
 */
export async function measureSizes({ allFromSrc = false } = {}) {
  const { entrypoints, internal, bundles, features } = loadEntrypoints();
  const peers = entrypoints.flatMap((entry) => Object.keys(entry.peers ?? {}));
  const external = [...Object.keys(pkg.dependencies), ...peers].flatMap((name) => [
    name,
    `${name}/*`,
  ]);
  // A `#…` import resolved as a browser bundler resolves it: to its browser module, from the build
  // (or src/ with --from-src). `only` limits it to the internal imports sized as part of the
  // entries that import them (`measure: "browser"` in entrypoints.json: which bridge and which
  // strict modes a browser gets); the others (the default validator, sized as its own entries)
  // stay external there.
  const internalImports = (only, fromSrc = allFromSrc) => ({
    name: "internal-imports",
    setup(build) {
      build.onResolve({ filter: /^#/ }, ({ path }) => {
        const item = internal.find((candidate) => candidate.import === path);
        if (only && item?.measure !== "browser") return { path, external: true };
        const chosen = item?.conditions.browser ?? item?.conditions.default;
        if (!chosen) return undefined;
        return {
          path: fromSrc ? join(ROOT, chosen.source) : join(ROOT, "dist", `${chosen.out}.js`),
        };
      });
    },
  });
  const plugin = internalImports(false);
  const library = { platform: "neutral", external, plugins: [internalImports(true)] };
  const fileOf = (entry) =>
    allFromSrc ? join(ROOT, entry.source) : join(ROOT, "dist", `${entry.out}.js`);
  const source = allFromSrc ? "src" : "dist";
  const rows = [];
  const notes = [];
  const errors = [];
  const core = entrypoints[0];
  if (!existsSync(fileOf(core))) {
    throw new Error(
      `check-size: ${relative(ROOT, fileOf(core))} is missing; run \`npm run build\` first`,
    );
  }
  const coreSize = await bundle({ entryPoints: [fileOf(core)] }, library);
  for (const entry of entrypoints) {
    const file = fileOf(entry);
    const name = `ignite-element${entry.subpath.slice(1)}`;
    try {
      // A Node-only entry leaves Node's built-ins external, as Node provides them.
      const options = entry.platform === "node" ? { ...library, platform: "node" } : library;
      const size = entry === core ? coreSize : await bundle({ entryPoints: [file] }, options);
      const row = {
        entry: name,
        file: relative(ROOT, file),
        budget: entry.budget,
        source,
        min: size.min,
        gzip: size.gzip,
      };
      if (entry !== core) {
        // What the entry adds to an app that already imports the core: gzip(both) - gzip(core).
        const contents = `export * from ${JSON.stringify(fileOf(core))};\nexport * from ${JSON.stringify(file)};`;
        const both = await bundle({ stdin: { contents, resolveDir: ROOT, loader: "js" } }, options);
        row.added = both.gzip - coreSize.gzip;
      }
      rows.push(row);
    } catch (error) {
      errors.push(`${name}: ${relative(ROOT, file)} does not bundle: ${firstLine(error)}`);
    }
  }
  // An application's code, bundled as its bundler would for the browser: subpaths resolve to the
  // build (or to src/ with --from-src), the way it resolves the installed package, and `#…`
  // imports to their browser module. `external` leaves out packages the application brings.
  const aliasFrom = (file) =>
    Object.fromEntries(
      entrypoints.map((entry) => [`ignite-element${entry.subpath.slice(1)}`, file(entry)]),
    );
  const alias = aliasFrom(fileOf);
  const srcAlias = aliasFrom((entry) => join(ROOT, entry.source));
  const srcPlugin = internalImports(false, true);
  // A bundle that leaves one module out (`stub`: the module and the code standing in for it)
  // measures what that module weighs inside an entry, where the build has already inlined it:
  // so it, and a feature measured over it, are bundled from src/.
  const stubbing = (stub) => ({
    name: "stub",
    setup(build) {
      const path = join(ROOT, stub.module);
      build.onLoad({ filter: /\.ts$/ }, (args) =>
        args.path === path ? { contents: stub.code, loader: "ts" } : undefined,
      );
    },
  });
  const browserApp = (code, external = [], { fromSrc = false, stub } = {}) =>
    bundle(
      { stdin: { contents: code, resolveDir: ROOT, loader: "js" } },
      {
        platform: "browser",
        alias: fromSrc ? srcAlias : alias,
        plugins: stub ? [srcPlugin, stubbing(stub)] : [fromSrc ? srcPlugin : plugin],
        external: external.flatMap((name) => [name, `${name}/*`]),
      },
    );
  const gzipOf = new Map(); // a scenario's or feature's name → its bundle's gzip, for `over`
  for (const scenario of bundles) {
    try {
      const size = await browserApp(scenario.code, [], {
        fromSrc: !!scenario.stub,
        stub: scenario.stub,
      });
      gzipOf.set(scenario.name, size.gzip);
      const text = new TextDecoder().decode(size.code);
      const found = scenario.forbid.filter((needle) => text.includes(needle));
      rows.push({
        entry: `bundle: ${scenario.name}`,
        file: "(browser bundle)",
        budget: scenario.budget,
        source,
        min: size.min,
        gzip: size.gzip,
        forbidden: found,
      });
    } catch (error) {
      errors.push(`bundle ${scenario.name} does not build: ${firstLine(error)}`);
    }
  }
  const featureRows = [];
  for (const [index, feature] of features.entries()) {
    // `over` names a scenario or an earlier feature, so a base is measured before what is over it.
    const bases = [...bundles, ...features.slice(0, index)].map((item) => item.name);
    if (!bases.includes(feature.over)) {
      errors.push(
        `feature ${feature.name}: over names no bundle or earlier feature: "${feature.over}"`,
      );
      continue;
    }
    try {
      // Over a bundle that leaves a module out, the feature is bundled from src/ as that one is.
      const fromSrc = !!bundles.find((item) => item.name === feature.over)?.stub;
      const size = await browserApp(feature.code, feature.external, { fromSrc });
      gzipOf.set(feature.name, size.gzip);
      if (!gzipOf.has(feature.over)) {
        errors.push(`feature ${feature.name}: its base "${feature.over}" did not build`);
        continue;
      }
      featureRows.push({
        feature: feature.name,
        over: feature.over,
        budget: feature.budget,
        source,
        min: size.min,
        gzip: size.gzip,
        added: size.gzip - gzipOf.get(feature.over),
      });
    } catch (error) {
      errors.push(`feature ${feature.name} does not build: ${firstLine(error)}`);
    }
  }
  for (const row of rows) row.ok = row.gzip <= row.budget && !(row.forbidden?.length > 0);
  for (const row of featureRows) row.ok = row.added <= row.budget;
  const over = [...rows, ...featureRows].filter((row) => !row.ok);
  return { rows, features: featureRows, notes, over, errors };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
// A scenario's name reads `label: what it holds` ("bridge alone: igniteTools + …"); a feature row
// names its base by the label alone.
const label = (name) => name.split(": ")[0];

/** Where docs/performance.md's table of sizes starts and ends. */
export const SIZES_START = "<!-- sizes: written by `npm run check:size -- --write-docs` -->";
export const SIZES_END = "<!-- /sizes -->";
export const SIZES_PAGE = join(ROOT, "docs/performance.md");

/**
 * The figures of a run of `measureSizes`, as a Markdown table (padded as the formatter pads it):
 * each entry and browser bundle's min+gzip, each feature's increment over its base, and the gate.
 */
export function sizeTable({ rows, features }) {
  const lines = [
    ["what (min+gzip)", "size", "gate"],
    ...rows.map((row) => {
      const name = row.entry.startsWith("bundle: ") ? row.entry : `\`${row.entry}\``;
      return [name, kb(row.gzip), kb(row.budget)];
    }),
    ...features.map((row) => [
      `feature: ${row.feature}, over "${label(row.over)}"`,
      `${row.added < 0 ? "" : "+"}${kb(row.added)}`,
      kb(row.budget),
    ]),
  ];
  const widths = lines[0].map((_, column) => Math.max(...lines.map((line) => line[column].length)));
  const format = (cells) => `| ${cells.map((cell, at) => cell.padEnd(widths[at])).join(" | ")} |`;
  return [
    format(lines[0]),
    format(widths.map((width) => "-".repeat(width))),
    ...lines.slice(1).map(format),
  ].join("\n");
}

/** `page` with the table between its marks replaced by `table`; throws if it has no marks. */
export function withSizeTable(page, table) {
  const start = page.indexOf(SIZES_START);
  const end = page.indexOf(SIZES_END);
  if (start === -1 || end < start) {
    throw new Error(`check-size: docs/performance.md has no ${SIZES_START} … ${SIZES_END}`);
  }
  return `${page.slice(0, start + SIZES_START.length)}\n\n${table}\n\n${page.slice(end)}`;
}

function firstLine(error) {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").find((line) => line.includes("ERROR")) ?? text.split("\n")[0];
}

async function main() {
  const args = process.argv.slice(2);
  const result = await measureSizes({ allFromSrc: args.includes("--from-src") });
  if (args.includes("--json")) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  for (const row of result.rows) {
    const verdict = row.ok
      ? "ok"
      : row.forbidden?.length
        ? `CONTAINS ${row.forbidden.join(", ")}`
        : "OVER BUDGET";
    const added = row.added === undefined ? "" : `, adds ${kb(row.added)} beside the core`;
    console.log(
      `${row.entry.padEnd(40)} ${kb(row.gzip).padStart(9)} min+gzip` +
        ` (${kb(row.min)} min${added}) / budget ${kb(row.budget)}  ${verdict}`,
    );
  }
  for (const row of result.features) {
    const added = `${row.added < 0 ? "" : "+"}${kb(row.added)}`;
    const verdict = row.ok ? "ok" : "OVER BUDGET";
    console.log(
      `${`feature: ${row.feature}`.padEnd(28)} ${added} over "${label(row.over)}"` +
        ` (${kb(row.gzip)}) / budget ${kb(row.budget)}  ${verdict}`,
    );
  }
  for (const note of result.notes) console.log(`note: ${note}`);
  if (args.includes("--write-docs")) {
    writeFileSync(SIZES_PAGE, withSizeTable(readFileSync(SIZES_PAGE, "utf8"), sizeTable(result)));
    console.log("check-size: wrote the figures into docs/performance.md");
  }
  for (const error of result.errors) console.error(`check-size: ${error}`);
  if (result.over.length > 0 || result.errors.length > 0) {
    for (const row of result.over) {
      const budget = `(budget ${kb(row.budget)})`;
      console.error(
        row.feature === undefined
          ? `check-size: ${row.entry} is ${kb(row.gzip)} min+gzip ${budget}${row.forbidden?.length ? `, and contains ${row.forbidden.join(", ")}` : ""}`
          : `check-size: feature ${row.feature} adds ${kb(row.added)} over "${label(row.over)}" ${budget}`,
      );
    }
    process.exit(1);
  }
  console.log(
    `check-size: ${result.rows.length} bundles and ${result.features.length} features within budget`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
