/**
 * The input limits, checked before any validator runs: the input's JSON size, counted exactly,
 * and its nesting, by a walk whose cost the limits bound whatever the input is.
 */
import fc from "fast-check";
import { type AgentSchema, resolveCall } from "ignite-element/tools";
import { describe, expect, it } from "vitest";
import { limitIssue } from "../../tools/core/input-limits.js";

const bytesOfJson = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
const MiB = 1_048_576;
const anything: AgentSchema = { commands: { save: { input: {} } } };

/** `target` behind a proxy that counts every property read, every key listing included. */
function counted<T extends object>(target: T): { value: T; reads: () => number } {
  let reads = 0;
  const value = new Proxy(target, {
    get: (object, key, receiver) => {
      reads++;
      return Reflect.get(object, key, receiver);
    },
    ownKeys: (object) => {
      reads++;
      return Reflect.ownKeys(object);
    },
  });
  return { value, reads: () => reads };
}

describe("the size limit: the input's JSON, in UTF-8 bytes", () => {
  it("counts exactly what JSON.stringify writes, escapes included, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 300 }), (value, maxInputBytes) => {
        const refused = limitIssue(value, { maxInputBytes, maxInputDepth: 1_000 });
        expect(refused?.keyword === "maxInputBytes").toBe(bytesOfJson(value) > maxInputBytes);
      }),
      { numRuns: 3_000 },
    );
  });

  it("counts every escape and every UTF-8 width of a string exactly, at the limit and one byte under", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (text) => {
        const value = { [text]: [text] };
        const size = bytesOfJson(value);
        expect(limitIssue(value, { maxInputBytes: size })).toBeUndefined();
        expect(limitIssue(value, { maxInputBytes: size - 1 })?.keyword).toBe("maxInputBytes");
      }),
      { numRuns: 3_000 },
    );
    // Control characters escape to six bytes (\u0001), quotes and backslashes to two, a lone
    // surrogate to six, a surrogate pair to one four-byte code point.
    expect(bytesOfJson('\u0001"\\\ud800😀')).toBe(2 + 6 + 2 + 2 + 6 + 4);
    expect(limitIssue('\u0001"\\\ud800😀', { maxInputBytes: 22 })).toBeUndefined();
    expect(limitIssue('\u0001"\\\ud800😀', { maxInputBytes: 21 })?.keyword).toBe("maxInputBytes");
  });

  it("refuses 2.4 MB of JSON made of long numbers under the 1 MiB limit", () => {
    const longNumbers = Array.from({ length: 120_000 }, (_, index) => ((index + 1) / 3) * 1e-300);
    expect(bytesOfJson(longNumbers)).toBeGreaterThan(2.3 * MiB);
    expect(resolveCall(anything, "save", longNumbers)).toMatchObject({
      ok: false,
      error: {
        issues: [
          {
            keyword: "maxInputBytes",
            message: "is larger than the limit of 1048576 bytes of JSON",
          },
        ],
      },
    });
  });

  it("accepts 800 KB of zeros under the 1 MiB limit, and refuses a byte more than the limit", () => {
    const zeros = new Array(400_000).fill(0);
    expect(bytesOfJson(zeros)).toBe(800_001);
    expect(resolveCall(anything, "save", zeros).ok).toBe(true);
    expect(limitIssue(zeros, { maxInputBytes: 800_001 })).toBeUndefined();
    expect(limitIssue(zeros, { maxInputBytes: 800_000 })?.keyword).toBe("maxInputBytes");
  });

  it("counts a JavaScript value as a validator reads it: holes and undefined as null, own keys only", () => {
    const holey: unknown[] = [undefined];
    holey[2] = 1; // [undefined, <hole>, 1], read as [null,null,1]
    expect(limitIssue(holey, { maxInputBytes: 13 })).toBeUndefined();
    expect(limitIssue(holey, { maxInputBytes: 12 })?.keyword).toBe("maxInputBytes");
    const inheriting = Object.create({ inherited: "x".repeat(100) });
    inheriting.own = 1;
    expect(limitIssue(inheriting, { maxInputBytes: 9 })).toBeUndefined(); // {"own":1}
  });
});

describe("the cost of the walk is bounded by the limits, whatever the input", () => {
  it("refuses a sparse new Array(1e7) after reading its length only", () => {
    const { value, reads } = counted(new Array(1e7));
    expect(limitIssue(value)).toMatchObject({ keyword: "maxInputBytes" });
    expect(reads()).toBeLessThanOrEqual(4);
  });

  it("refuses a sparse array of any length, up to the largest, without reading an item", () => {
    const { value, reads } = counted(new Array(2 ** 32 - 1));
    expect(resolveCall(anything, "save", { rows: value })).toMatchObject({
      ok: false,
      error: { issues: [{ keyword: "maxInputBytes" }] },
    });
    expect(reads()).toBeLessThanOrEqual(4);
  });

  it("reads no more items than the byte limit allows, for a long dense array", () => {
    const { value, reads } = counted(new Array(1_000_000).fill(0));
    expect(limitIssue(value, { maxInputBytes: 1_000 })).toMatchObject({ keyword: "maxInputBytes" });
    expect(reads()).toBeLessThan(2_000);
  });

  it("reads no further than the depth limit into nesting 100 000 deep", () => {
    let reads = 0;
    let deep: unknown = {};
    for (let level = 0; level < 100_000; level++) {
      deep = new Proxy(
        { deep },
        {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
    }
    expect(limitIssue(deep)).toMatchObject({ keyword: "maxInputDepth" });
    expect(reads).toBeLessThan(200);
  });

  it("walks iteratively, without a stack overflow, under a very large depth limit", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(limitIssue(deep, { maxInputDepth: 1_000_000, maxInputBytes: 10 * MiB })).toBeUndefined();
    expect(limitIssue(deep, { maxInputDepth: 150_000, maxInputBytes: 10 * MiB })).toMatchObject({
      keyword: "maxInputDepth",
    });
  });

  it("reads a 10 MB string's length, not its characters", () => {
    const big = "x".repeat(10_000_000);
    const { value, reads } = counted({ big });
    expect(limitIssue(value)).toMatchObject({ keyword: "maxInputBytes" });
    expect(reads()).toBeLessThanOrEqual(4);
  });

  it("names the path of a number JSON cannot carry", () => {
    expect(limitIssue({ a: [1, { b: Number.NaN }] })).toEqual({
      path: "/a/1/b",
      message: "must be a finite number, not NaN",
      keyword: "finite",
    });
    expect(limitIssue({ "x/y": -Infinity })?.path).toBe("/x~1y");
  });
});
