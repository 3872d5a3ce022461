// Everything package.json and the tsconfigs say about entrypoints, derived from entrypoints.json.
//
//   node scripts/entrypoints.mjs          check: exit 1 when package.json or tsconfig.json differ
//   node scripts/entrypoints.mjs --write  write the derived fields into both files
//
// Derived: package.json `exports`, `typesVersions` (types under moduleResolution node10),
// `imports` (the internal, condition-chosen modules), `bin` (the commands), `peerDependencies` +
// `peerDependenciesMeta` for each entrypoint's optional peers; tsconfig.json
// `compilerOptions.paths`; tsconfig.tools.json `exclude` (the Node-only sources, which its
// Node-free type check cannot compile).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const read = (file) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

/** The list, with each entry's output path under dist/ (without extension). */
export function loadEntrypoints() {
  const {
    entrypoints,
    internal,
    bundles = [],
    features = [],
    bins = [],
  } = read("entrypoints.json");
  const withOut = entrypoints.map((entry) => ({ ...entry, out: outOf(entry.subpath) }));
  const modules = internal.map((item) => {
    // Conditions that share a source (`browser` and `worker`) share one built file, named after
    // the first of them; `default` is the plain name.
    const outs = new Map();
    for (const [condition, source] of Object.entries(item.conditions)) {
      const suffix = condition === "default" ? "" : `.${condition}`;
      if (!outs.has(source)) outs.set(source, `tools/internal/${item.import.slice(1)}${suffix}`);
    }
    return {
      ...item,
      conditions: Object.fromEntries(
        Object.entries(item.conditions).map(([condition, source]) => [
          condition,
          { source, out: outs.get(source) },
        ]),
      ),
    };
  });
  const commands = bins.map((item) => ({ ...item, out: `bin/${item.name}` }));
  return { entrypoints: withOut, internal: modules, bundles, features, bins: commands };
}

/** `./tools` → `tools/index`, `./tools/openai` → `tools/openai`. */
function outOf(subpath) {
  const path = subpath.replace(/^\.\//, "");
  return path.includes("/") ? path : `${path}/index`;
}

/** Every source tsup builds, keyed by output path; `declared: true` leaves out the commands. */
export function buildEntries({ declared = false } = {}) {
  const { entrypoints, internal, bins } = loadEntrypoints();
  const entry = Object.fromEntries(entrypoints.map(({ out, source }) => [out, source]));
  for (const item of internal) {
    for (const { out, source } of Object.values(item.conditions)) entry[out] = source;
  }
  if (!declared) for (const { out, source } of bins) entry[out] = source;
  return entry;
}

const formats = (out) => ({
  import: { types: `./dist/${out}.d.ts`, default: `./dist/${out}.js` },
  require: { types: `./dist/${out}.d.cts`, default: `./dist/${out}.cjs` },
});

/** The fields of package.json and the tsconfigs the list decides. */
export function derived() {
  const { entrypoints, internal, bins } = loadEntrypoints();
  const exports = Object.fromEntries(
    entrypoints.map(({ subpath, out }) => [subpath, formats(out)]),
  );
  exports["./package.json"] = "./package.json";
  const typesVersions = {
    "*": Object.fromEntries(
      entrypoints.map(({ subpath, out }) => [subpath.replace(/^\.\//, ""), [`./dist/${out}.d.ts`]]),
    ),
  };
  const imports = Object.fromEntries(
    internal.map((item) => [
      item.import,
      Object.fromEntries(
        Object.entries(item.conditions).map(([condition, { out }]) => [
          condition,
          { import: `./dist/${out}.js`, require: `./dist/${out}.cjs` },
        ]),
      ),
    ]),
  );
  const bin = Object.fromEntries(bins.map(({ name, out }) => [name, `./dist/${out}.js`]));
  const peers = {};
  for (const { peers: declared = {} } of [...entrypoints, ...bins]) Object.assign(peers, declared);
  const peerMeta = Object.fromEntries(Object.keys(peers).map((name) => [name, { optional: true }]));
  const paths = Object.fromEntries(
    entrypoints.map(({ subpath, source }) => [
      `ignite-element${subpath.slice(1)}`,
      [`./${source}`],
    ]),
  );
  for (const item of internal) paths[item.import] = [`./${item.conditions.default.source}`];
  const nodeOnly = [...entrypoints.filter((entry) => entry.platform === "node"), ...bins].map(
    ({ source }) => source,
  );
  return { exports, typesVersions, imports, bin, peers, peerMeta, paths, nodeOnly };
}

function sync(write) {
  const pkg = read("package.json");
  const tsconfig = read("tsconfig.json");
  const toolsTsconfig = read("tsconfig.tools.json");
  const want = derived();
  const fields = [
    [pkg, "exports", want.exports],
    [pkg, "typesVersions", want.typesVersions],
    [pkg, "imports", want.imports],
    [pkg, "bin", Object.keys(want.bin).length ? want.bin : undefined],
    [pkg, "peerDependencies", Object.keys(want.peers).length ? want.peers : undefined],
    [pkg, "peerDependenciesMeta", Object.keys(want.peerMeta).length ? want.peerMeta : undefined],
    [tsconfig.compilerOptions, "paths", want.paths],
    [toolsTsconfig, "exclude", want.nodeOnly.length ? want.nodeOnly : undefined],
  ];
  const stale = fields.filter(
    ([owner, key, value]) => JSON.stringify(owner[key]) !== JSON.stringify(value),
  );
  const { entrypoints, bins } = loadEntrypoints();
  for (const { source } of [...entrypoints, ...bins]) {
    if (!existsSync(join(ROOT, source))) {
      console.error(`entrypoints.json: ${source} does not exist`);
      process.exitCode = 1;
    }
  }
  if (write) {
    for (const [owner, key, value] of fields) {
      if (value === undefined) delete owner[key];
      else owner[key] = value;
    }
    writeFileSync(join(ROOT, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
    writeFileSync(join(ROOT, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
    writeFileSync(join(ROOT, "tsconfig.tools.json"), `${JSON.stringify(toolsTsconfig, null, 2)}\n`);
    // The formatter owns the layout (short arrays on one line), so a write leaves no format diff.
    const written = ["package.json", "tsconfig.json", "tsconfig.tools.json"];
    execFileSync("npx", ["biome", "format", "--write", ...written], {
      cwd: ROOT,
      stdio: "ignore",
    });
    console.log(`entrypoints: ${written.join(", ")} written from entrypoints.json`);
    return;
  }
  if (stale.length > 0) {
    for (const [, key] of stale)
      console.error(`entrypoints: \`${key}\` differs from entrypoints.json`);
    console.error("run `node scripts/entrypoints.mjs --write`");
    process.exitCode = 1;
    return;
  }
  console.log(`entrypoints: package.json and the tsconfigs match entrypoints.json`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  sync(process.argv.includes("--write"));
}
