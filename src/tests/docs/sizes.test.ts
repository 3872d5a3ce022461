import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, inject, it } from "vitest";
import {
  measureSizes,
  SIZES_PAGE,
  sizeTable,
  withSizeTable,
} from "../../../scripts/check-size.mjs";
import { loadEntrypoints } from "../../../scripts/entrypoints.mjs";
import { projectWith } from "../setup/packed.js";

// docs/performance.md shows the bundle sizes and gates that `npm run check:size` prints, as the
// gate writes them: measured here on the build this run packed (the global setup's `npm pack`
// builds dist/), so a change that moves a figure fails until the page is written anew.
describe("the sizes a page shows", () => {
  it("are the figures and gates npm run check:size prints, for every entry, bundle and feature", async () => {
    expect(inject("tarball")).toMatch(/\.tgz$/); // dist/ is this run's build
    const sizes = await measureSizes();
    expect(sizes.errors).toEqual([]);
    const page = readFileSync(SIZES_PAGE, "utf8");

    const written = withSizeTable(page, sizeTable(sizes));

    expect(
      page,
      "docs/performance.md's table of sizes is not what the gate measures: run `npm run build && npm run check:size -- --write-docs`",
    ).toBe(written);
  }, 60_000);

  it("names every figure the way the gate's own lines name it", () => {
    const table = sizeTable({
      rows: [
        {
          entry: "ignite-element/tools",
          file: "",
          budget: 2048,
          source: "dist",
          min: 0,
          gzip: 1024,
          ok: true,
        },
        {
          entry: "bundle: bridge alone: a + b",
          file: "",
          budget: 3072,
          source: "dist",
          min: 0,
          gzip: 3000,
          ok: true,
        },
      ],
      features: [
        {
          feature: "wait",
          over: "bridge alone: a + b",
          budget: 512,
          source: "dist",
          min: 0,
          gzip: 0,
          added: 256,
          ok: true,
        },
      ],
    });
    expect(table.split("\n")).toEqual([
      "| what (min+gzip)                    | size     | gate    |",
      "| ---------------------------------- | -------- | ------- |",
      "| `ignite-element/tools`             | 1.00 KB  | 2.00 KB |",
      "| bundle: bridge alone: a + b        | 2.93 KB  | 3.00 KB |",
      '| feature: wait, over "bridge alone" | +0.25 KB | 0.50 KB |',
    ]);
  });

  it("agree with what a user's bundler makes of the packed package: the bridge alone within the gate", async () => {
    // As a user builds it: the tarball installed in an application, bundled by esbuild with its
    // defaults for a browser (`--bundle --minify --platform=browser`), gzipped at level 9.
    const [bridge] = loadEntrypoints().bundles;
    if (bridge === undefined) throw new Error("entrypoints.json has no bundles");
    const project = projectWith(inject("tarball"), []);
    try {
      writeFileSync(join(project, "app.js"), bridge.code);
      const built = await build({
        entryPoints: [join(project, "app.js")],
        absWorkingDir: project,
        bundle: true,
        minify: true,
        platform: "browser",
        write: false,
        logLevel: "silent",
      });
      const users = gzipSync(built.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 });
      const gate = (await measureSizes()).rows.find(
        (row) => row.entry === `bundle: ${bridge.name}`,
      );

      expect(users.byteLength).toBeLessThanOrEqual(bridge.budget);
      // The two builds differ only in their wrapper (an IIFE against a module): a few bytes.
      expect(Math.abs(users.byteLength - (gate?.gzip ?? 0))).toBeLessThanOrEqual(64);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});
