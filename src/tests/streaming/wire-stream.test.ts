import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callLog,
  jsonProgress,
  type StreamDelta,
  scanJson,
  upToCut,
} from "../../tools/wire/stream.js";

function scanned(...pieces: string[]) {
  const progress = jsonProgress();
  for (const piece of pieces) scanJson(progress, piece);
  return progress.state;
}

describe("scanJson", () => {
  it("closes on the brace that ends the object, wherever the text was split", () => {
    const text = '{"note": "a } \\" { [", "list": [1, {"x": "]"}], "esc": "\\\\"}';
    expect(JSON.parse(text)).toBeTypeOf("object");
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 8 }), (cuts) => {
        const at = [...new Set([0, ...cuts, text.length])].sort((a, b) => a - b);
        const pieces = at.slice(1).map((end, i) => text.slice(at[i], end));
        const progress = jsonProgress();
        pieces.forEach((piece, i) => {
          scanJson(progress, piece);
          expect(progress.state).toBe(i === pieces.length - 1 ? "closed" : "open");
        });
      }),
    );
  });

  it("is blank before any text, open inside it, broken for anything but one object", () => {
    expect(scanned(" \n\t")).toBe("blank");
    expect(scanned(" {", '"a"')).toBe("open");
    expect(scanned("{} ")).toBe("closed");
    expect(scanned("[1]")).toBe("broken");
    expect(scanned('"text"')).toBe("broken");
    expect(scanned("{}", "{}")).toBe("broken");
    expect(scanned("{} x", "}")).toBe("broken");
  });
});

describe("callLog", () => {
  it("reports a call ready only once every call before it is, in model order, once each", () => {
    const log = callLog();
    const out: StreamDelta[] = [];
    const first = log.start(0, "id-a", "one", out);
    const second = log.start(2, undefined, "two", out);
    log.complete(second, out);
    expect(log.ready).toBe(0);
    log.complete(first, out);
    log.complete(undefined, out);
    log.completeAll(out);
    expect(log.ready).toBe(2);
    expect(log.get(2)).toBe(second);
    expect(out).toEqual([
      { type: "tool-call-start", index: 0, id: "id-a", name: "one" },
      { type: "tool-call-start", index: 1, name: "two" },
      { type: "tool-call-ready", index: 0, id: "id-a", name: "one" },
      { type: "tool-call-ready", index: 1, name: "two" },
    ]);
  });

  it("ends a response read now at the first call that is not complete, wherever it sits", () => {
    // Blocks of a turn: text, call a, text, call b, text; b closed before a.
    const blocks = ["text", "a", "text", "b", "text"];
    const log = callLog();
    const out: StreamDelta[] = [];
    const a = log.start(1, "a", "one", out);
    const b = log.start(3, "b", "two", out);
    log.complete(b, out);
    expect(log.cut).toBe(a);
    expect(upToCut(blocks, log)).toEqual(["text", "a"]);
    log.complete(a, out);
    expect(log.cut).toBeUndefined();
    expect(upToCut(blocks, log)).toEqual(blocks);
    log.start(5, "c", "three", out);
    expect(upToCut([...blocks, "c"], log)).toEqual([...blocks, "c"]);
  });
});
