import { readLedgerEntry } from "ignite-element/tools";
import { describe, expect, it } from "vitest";
import { listedAnyway } from "../tools/core/availability.js";
import type { NeutralTool } from "../tools/core/types.js";

// What a durable ledger reads back is checked before it is trusted (a corrupted entry answers the
// call `ExecuteFailed`, reason `ledger`); these pin the reading itself, entry by entry.
describe("a ledger entry, read back from a store", () => {
  const answered = { ok: true, value: { snapshot: { n: 1 }, events: [] } };
  const failed = { ok: false, error: { kind: "ExecuteFailed", message: "disk full" } };

  it("is a started lease, or an answered outcome, success or failure", () => {
    expect(readLedgerEntry({ status: "started", holder: "h1", until: 5 })).toEqual({
      status: "started",
      holder: "h1",
      until: 5,
    });
    expect(readLedgerEntry({ status: "answered", outcome: answered })).toEqual({
      status: "answered",
      outcome: answered,
    });
    expect(readLedgerEntry({ status: "answered", outcome: failed })).toEqual({
      status: "answered",
      outcome: failed,
    });
  });

  it.each([
    ["a lease without its holder", { status: "started", until: 5 }],
    ["a lease whose end is no time", { status: "started", holder: "h1", until: "soon" }],
    ["an outcome without its events", { status: "answered", outcome: { ok: true, value: {} } }],
    ["an outcome whose value is none", { status: "answered", outcome: { ok: true } }],
    [
      "an error without its message",
      { status: "answered", outcome: { ok: false, error: { kind: "X" } } },
    ],
    ["an error that is none", { status: "answered", outcome: { ok: false, error: "x" } }],
    ["an outcome that is none", { status: "answered", outcome: "done" }],
    ["another status", { status: "queued" }],
    ["a list", []],
    ["nothing", undefined],
  ])("refuses %s, saying what it read", (_, value) => {
    expect(() => readLedgerEntry(value)).toThrow(
      /^not a ledger entry \(expected \{ status: "started", holder, until \} or \{ status: "answered", outcome \}\): /,
    );
  });

  it("shows a long or unprintable entry in a few words", () => {
    const long = { status: "queued", note: "x".repeat(500) };
    expect(() => readLedgerEntry(long)).toThrow(/x…$/);
    const circular: Record<string, unknown> = { status: "queued" };
    circular.self = circular;
    expect(() => readLedgerEntry(circular)).toThrow(/\[object Object\]$/);
    expect(() => readLedgerEntry(undefined)).toThrow(/: undefined$/);
  });
});

describe("a gated tool listed whatever the state", () => {
  const tool = (fields: Partial<NeutralTool>): NeutralTool => ({
    name: "boost",
    inputSchema: { type: "object" },
    gated: true,
    ...fields,
  });

  it("says when it is available, after its description or alone, once per tool", () => {
    const described = tool({
      description: "Boost the heating. ",
      availableWhen: "while the heating is on.",
    });
    const listed = listedAnyway(described);
    expect(listed.description).toBe("Boost the heating. Available while the heating is on.");
    expect(listedAnyway(described)).toBe(listed);
    expect(listedAnyway(tool({ availableWhen: "at night" })).description).toBe(
      "Available at night.",
    );
    expect(listedAnyway(tool({ description: "", availableWhen: "at night" })).description).toBe(
      "Available at night.",
    );
  });

  it("lists a tool that says nothing of when as it is", () => {
    const plain = tool({ description: "Boost." });
    expect(listedAnyway(plain)).toBe(plain);
  });
});
