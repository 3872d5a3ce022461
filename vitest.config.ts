import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { loadEntrypoints } from "./scripts/entrypoints.mjs";

const root = fileURLToPath(new URL("./", import.meta.url));
const { entrypoints, internal } = loadEntrypoints();

export default defineConfig({
  // Tests, examples and doc snippets import the package by its public name, as users do; the
  // names come from entrypoints.json, and `#…` imports resolve to their Node (default) module.
  resolve: {
    alias: [
      ...entrypoints.map(({ subpath, source }) => ({
        find: new RegExp(`^ignite-element${subpath.slice(1).replaceAll("/", "\\/")}$`),
        replacement: `${root}${source}`,
      })),
      ...internal.map((item) => ({
        find: new RegExp(`^${item.import}$`),
        replacement: `${root}${item.conditions.default?.source}`,
      })),
    ],
  },
  test: {
    include: ["src/tests/**/*.test.ts", "examples/**/*.test.ts", "demo/**/*.test.ts"],
    environment: "node",
    // A real Redis and PostgreSQL for the durable ledgers, started and stopped around the run.
    globalSetup: ["src/tests/setup/services.ts"],
    typecheck: {
      enabled: true,
      include: ["src/tests/types/**/*.test.ts"],
      tsconfig: "./tsconfig.json",
    },
    coverage: {
      provider: "v8",
      include: ["src/tools/**"],
      exclude: ["src/tests/**"],
      reporter: ["text", "html", "lcov"],
      reportsDirectory: "coverage",
      thresholds: {
        lines: 95,
        branches: 95,
        functions: 95,
        statements: 95,
      },
    },
  },
});
