/**
 * Packs the package once per test run, before any test starts, for the tests that check it as an
 * application installs it (the docs test, the `ignite-mcp` command): packing builds `dist/`, and
 * two builds at once in parallel test files would overwrite each other's output.
 */
import type { TestProject } from "vitest/node";
import { packedTarball } from "./packed.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed tarball of this run's sources. */
    tarball: string;
  }
}

export default function setup(project: TestProject): void {
  project.provide("tarball", packedTarball());
}
