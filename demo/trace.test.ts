import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderTree, traceDemo } from "./trace.js";

const telemetryDoc = fileURLToPath(new URL("../docs/telemetry.md", import.meta.url));

describe("npm run demo:trace", () => {
  it("prints the trace docs/telemetry.md shows", async () => {
    const tree = renderTree(await traceDemo());
    const shown = /## The demo's trace[\s\S]*?```text\n([\s\S]*?)```/.exec(
      readFileSync(telemetryDoc, "utf8"),
    );
    expect(shown?.[1]).toBe(`${tree.join("\n")}\n`);
  });

  it("puts the paused run and the resumed run each in one trace, each call under its turn", async () => {
    const spans = await traceDemo();
    // Resuming may happen in another process, days later: it is a run, and a trace, of its own.
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(2);
    const turns = new Map(
      spans
        .filter((span) => span.name.startsWith("turn "))
        .map((span) => [span.spanContext().spanId, span]),
    );
    const calls = spans.filter((span) => span.name.startsWith("execute_tool "));
    // Ten calls; the one held for approval has a span in each run.
    expect(calls).toHaveLength(11);
    for (const call of calls) expect(turns.has(call.parentSpanContext?.spanId ?? "")).toBe(true);
  });
});
