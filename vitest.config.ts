import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { loadEntrypoints } from "./scripts/entrypoints.mjs";

const root = fileURLToPath(new URL("./", import.meta.url));
const { entrypoints, internal, bins } = loadEntrypoints();

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
    // Before any test: the package packed once (for the tests that install it as an application
    // does), the Node 22 the MCP conformance suite needs, and a real Redis and PostgreSQL for the
    // durable ledgers, stopped again after the run.
    globalSetup: [
      "src/tests/setup/pack.ts",
      "src/tests/setup/node22.ts",
      "src/tests/setup/services.ts",
    ],
    typecheck: {
      enabled: true,
      include: ["src/tests/types/**/*.test.ts"],
      tsconfig: "./tsconfig.json",
    },
    coverage: {
      provider: "v8",
      include: ["src/tools/**"],
      // A command runs in processes of its own, built from the packed package: its tests
      // (src/tests/hosts/ignite-mcp.test.ts) exercise it there, out of this process's reach.
      exclude: ["src/tests/**", ...bins.map(({ source }) => source)],
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
