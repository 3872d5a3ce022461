/**
 * Bundles a page's script from the package source, as an application's bundler would bundle the
 * installed package for the browser: `ignite-element/tools/*` resolve to their sources (from
 * entrypoints.json) and `#…` imports to their `browser` condition where one is declared.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { loadEntrypoints } from "../../scripts/entrypoints.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const fromSource: Plugin = {
  name: "ignite-element-from-source",
  setup(build) {
    const { entrypoints, internal } = loadEntrypoints();
    const subpaths = new Map(
      entrypoints.map((entry) => [`ignite-element${entry.subpath.slice(1)}`, entry.source]),
    );
    build.onResolve({ filter: /^ignite-element\/tools(\/|$)/ }, ({ path }) => {
      const source = subpaths.get(path);
      return source === undefined ? undefined : { path: join(ROOT, source) };
    });
    build.onResolve({ filter: /^#/ }, ({ path }) => {
      const item = internal.find((candidate) => candidate.import === path);
      // Until the package declares a browser validator, the default (ajv) runs in the page: it
      // needs a page without a Content-Security-Policy that forbids `new Function`.
      const chosen = item?.conditions.browser ?? item?.conditions.default;
      return chosen === undefined ? undefined : { path: join(ROOT, chosen.source) };
    });
  },
};

/** The script `entry` bundled for the browser, as one ES module. */
export async function bundlePage(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    plugins: [fromSource],
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}
