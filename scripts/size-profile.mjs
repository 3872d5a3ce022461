#!/usr/bin/env node
// What each module weighs in a browser bundle of entrypoints.json (the bridge alone unless a
// bundle's label is given): gzip level 9 of the whole bundle minus gzip of the bundle without
// that module's code, so a module's figure is what leaving it out would save, shared words and
// all. For finding bytes before cutting any: `npm run check:size` is the gate, this the map.
//
//   node scripts/size-profile.mjs                 the bridge alone, from src/
//   node scripts/size-profile.mjs "loop"          another bundle or feature, by its label
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform } from "esbuild";
import { loadEntrypoints } from "./entrypoints.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { entrypoints, internal, bundles, features } = loadEntrypoints();
const wanted = process.argv[2];
const all = [...bundles, ...features];
const chosen = wanted ? all.find(({ name }) => name.split(": ")[0] === wanted) : bundles[0];
if (!chosen) throw new Error(`size-profile: no bundle or feature labelled "${wanted}"`);

const alias = Object.fromEntries(
  entrypoints.map(({ subpath, source }) => [
    `ignite-element${subpath.slice(1)}`,
    join(ROOT, source),
  ]),
);
// Syntax minified, whitespace kept: esbuild then marks where each module's code starts.
const built = await build({
  stdin: { contents: chosen.code, resolveDir: ROOT, loader: "js" },
  bundle: true,
  write: false,
  format: "esm",
  target: "es2022",
  minifySyntax: true,
  legalComments: "none",
  logLevel: "silent",
  platform: "browser",
  alias,
  external: (chosen.external ?? []).flatMap((name) => [name, `${name}/*`]),
  plugins: [
    {
      name: "internal-imports",
      setup(b) {
        b.onResolve({ filter: /^#/ }, ({ path }) => {
          const item = internal.find((candidate) => candidate.import === path);
          const source = item?.conditions.browser ?? item?.conditions.default;
          return source ? { path: join(ROOT, source.source ?? source) } : undefined;
        });
      },
    },
  ],
});
const text = built.outputFiles[0].text;
const gzip = async (code) =>
  gzipSync((await transform(code, { minify: true, loader: "js" })).code, { level: 9 }).byteLength;
const total = await gzip(text);
const modules = text.split(/^\/\/ (?=\S+\.(?:ts|js|mjs)$)/m).slice(1);
const rows = [];
for (const code of modules) {
  const name = code.split("\n", 1)[0];
  rows.push([total - (await gzip(text.replace(code, "\n"))), name]);
}
rows.sort((a, b) => b[0] - a[0]);
console.log(
  `${chosen.name}: ${total} bytes min+gzip from src/; what leaving each module out saves:`,
);
for (const [saved, name] of rows) console.log(`${String(saved).padStart(6)}  ${name}`);
