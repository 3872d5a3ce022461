import { defineConfig } from "tsup";
import pkg from "./package.json" with { type: "json" };
import { buildEntries, loadEntrypoints } from "./scripts/entrypoints.mjs";

// Entrypoints come from entrypoints.json; nothing to add here for a new one.
export default defineConfig({
  entry: buildEntries(),
  format: ["esm", "cjs"],
  // Declarations for the entrypoints; a command has nothing to import.
  dts: { entry: buildEntries({ declared: true }) },
  sourcemap: true,
  clean: true,
  treeshake: true,
  splitting: true,
  target: "es2022",
  platform: "neutral",
  // `import.meta.url` in the CommonJS build too (mcp-app finds the view's runtime beside it).
  shims: true,
  outDir: "dist",
  // Runtime dependencies and optional peers are the application's to install; `#…` imports are
  // chosen by the application's runtime through package.json `imports` conditions.
  external: [
    ...[
      ...Object.keys(pkg.dependencies),
      ...loadEntrypoints().entrypoints.flatMap((entry) => Object.keys(entry.peers ?? {})),
    ].map((name) => new RegExp(`^${name}(/|$)`)),
    /^#/,
  ],
  outExtension({ format }) {
    return { js: format === "cjs" ? ".cjs" : ".js" };
  },
});
