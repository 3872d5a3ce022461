import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveConformance } from "../../../examples/mcp-server/conformance.js";
import { startPlayerServer } from "../../../examples/mcp-server/http.js";
import { node22 } from "./node22.js";

// The official MCP conformance suite at the 2026-07-28 revision (0.2.0-alpha.12, pinned in
// devDependencies as `mcp-conformance-2026` beside 0.1.16, which conformance.test.ts runs at
// 2025-11-25), against the two examples that serve over Streamable HTTP: one CLI run of every
// server scenario of the revision per example. The CLI needs Node 22 (scripts/node22.mjs).
const root = join(import.meta.dirname, "../../..");
const cli = join(root, "node_modules/mcp-conformance-2026/dist/index.js");

/** The scenarios the conformance example passes whole at 2026-07-28. */
const REQUIRED = [
  "tools-list",
  "tools-call-simple-text",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "json-schema-2020-12",
  "server-sse-multiple-streams",
  "sep-2164-resource-not-found",
  "dns-rebinding-protection",
  "http-header-validation",
  "input-required-result-request-state",
  "input-required-result-missing-input-response",
  "input-required-result-result-type",
  "input-required-result-unsupported-methods",
  "input-required-result-tampered-state",
  "input-required-result-ignore-extra-params",
  "input-required-result-validate-input",
  "input-required-result-basic-elicitation",
  "input-required-result-multi-round",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
];

/**
 * Scenarios passed but for the checks named, each a check of what a tool bridge does not serve
 * (docs/serving.md says so): `test_missing_capability` needs sampling, which the host never asks
 * for; the caching hints of the prompts list, which it does not serve.
 */
const PARTIAL: Record<string, string[]> = {
  "server-stateless": [
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
  ],
  caching: ["sep-2549-prompts-list-caching-hints"],
};

/** What the media player example (examples/mcp-server/http.ts), a real component, passes whole. */
const PLAYER = [
  "tools-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "http-header-validation",
  "input-required-result-unsupported-methods",
];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** The scenarios docs/serving.md lists as out of scope at 2026-07-28. */
function outOfScope(): string[] {
  const docs = readFileSync(join(root, "docs/serving.md"), "utf8");
  const section = docs.split("### Scenarios out of scope at 2026-07-28")[1]?.split("\n#")[0] ?? "";
  return [...section.matchAll(/^- `([a-z0-9-]+)`/gm)].map((match) => match[1] ?? "");
}

/** Runs every server scenario of 2026-07-28 against `url`: each scenario's checks, by name. */
async function conformance(url: URL): Promise<Map<string, Check[]>> {
  const out = mkdtempSync(join(tmpdir(), "ignite-conformance-2026-"));
  try {
    // The CLI exits non-zero while any scenario fails: its verdict is read per scenario.
    await promisify(execFile)(
      node22(),
      [cli, "server", "--url", url.href, "--spec-version", "2026-07-28", "--suite", "all"].concat([
        "--output-dir",
        out,
      ]),
      { cwd: out, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
    ).catch(() => undefined);
    return new Map(
      readdirSync(out).map((dir) => [
        dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, ""),
        JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Check[],
      ]),
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The failed checks of `scenario`, as `id: message`; throws when it did not run. */
function failures(results: Map<string, Check[]>, scenario: string): string[] {
  const checks = results.get(scenario);
  if (checks === undefined) throw new Error(`${scenario} did not run`);
  return checks
    .filter((check) => check.status === "FAILURE")
    .map((check) => `${check.id}: ${check.errorMessage}`);
}

describe("the MCP conformance suite at 2026-07-28 against examples/mcp-server/conformance.ts", () => {
  let results: Map<string, Check[]>;
  let close = async () => {};

  beforeAll(async () => {
    const server = await serveConformance();
    close = () => server.close();
    results = await conformance(server.url);
  }, 300_000);

  afterAll(() => close());

  it.each(REQUIRED)("passes %s: its checks succeed and none fails", (scenario) => {
    expect(failures(results, scenario)).toEqual([]);
    expect(results.get(scenario)?.some((check) => check.status === "SUCCESS")).toBe(true);
  });

  it.each(Object.entries(PARTIAL))(
    "passes %s but for the checks of what a tool bridge does not serve",
    (scenario, expected) => {
      const failed = failures(results, scenario).map((line) => line.split(":")[0]);
      expect(failed).toEqual(expected);
      const passed = results.get(scenario)?.filter((check) => check.status === "SUCCESS");
      expect(passed?.length).toBeGreaterThan(expected.length);
    },
  );

  it("runs no scenario that docs/serving.md neither requires nor lists as out of scope", () => {
    const listed = [...REQUIRED, ...Object.keys(PARTIAL), ...outOfScope()].sort();
    expect([...results.keys()].sort()).toEqual(listed);
  });

  it("fails each scenario docs/serving.md lists as out of scope at 2026-07-28, as it says", () => {
    const passing = outOfScope().filter((scenario) => failures(results, scenario).length === 0);
    expect(passing).toEqual([]);
  });
});

describe("the MCP conformance suite at 2026-07-28 against examples/mcp-server/http.ts", () => {
  let results: Map<string, Check[]>;
  let close = async () => {};

  beforeAll(async () => {
    const server = await startPlayerServer();
    close = () => server.close();
    results = await conformance(server.url);
  }, 300_000);

  afterAll(() => close());

  it.each(PLAYER)("passes %s with the media player's own tools", (scenario) => {
    expect(failures(results, scenario)).toEqual([]);
    expect(results.get(scenario)?.some((check) => check.status === "SUCCESS")).toBe(true);
  });
});
