import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const tools = fileURLToPath(new URL("./src/tools/", import.meta.url));

export default defineConfig({
  // Tests, examples and doc snippets import the package by its public name, as users do.
  resolve: {
    alias: [
      { find: /^ignite-element\/tools$/, replacement: `${tools}index.ts` },
      { find: /^ignite-element\/tools\/(.+)$/, replacement: `${tools}dialects/$1.ts` },
    ],
  },
  test: {
    include: ["src/tests/**/*.test.ts", "examples/**/*.test.ts", "demo/**/*.test.ts"],
    environment: "node",
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
