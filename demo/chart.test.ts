import { crc32, inflateSync } from "node:zlib";
import { contentParts, igniteTools } from "ignite-element/tools";
import { describe, expect, it } from "vitest";
import { temperatureChart } from "./chart.js";
import { createRoom } from "./room.js";

/** The chunks of a PNG, each checked against its CRC as a decoder does. */
function chunksOf(png: Buffer): { type: string; data: Buffer }[] {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const chunks = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString(), data: typed.subarray(4) });
    at += 12 + length;
  }
  return chunks;
}

describe("the room's temperature chart", () => {
  it("is a PNG zlib decodes: 64×32 greyscale, a bar per reading, taller for a warmer room", () => {
    const chunks = chunksOf(Buffer.from(temperatureChart([17, 21.5]), "base64"));
    expect(chunks.map((chunk) => chunk.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    const header = chunks[0]?.data ?? Buffer.alloc(0);
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([
      64, 32, 8, 0,
    ]);
    const rows = inflateSync(chunks[1]?.data ?? Buffer.alloc(0));
    expect(rows).toHaveLength(32 * 65);
    // The height of the dark bar in the first and the last column of each reading's slot.
    const height = (x: number) =>
      Array.from({ length: 32 }, (_, y) => rows[y * 65 + 1 + x]).filter((pixel) => pixel === 48)
        .length;
    expect(height(0)).toBe(11); // 17 °C of 10–30 °C
    expect(height(32)).toBe(18); // 21.5 °C
  });

  it("is what the room's chart command answers with, beside its state", async () => {
    const room = createRoom({ homecomingMs: null });
    const tools = igniteTools(room, undefined, { content: contentParts() });
    const outcome = await tools.invoke({ name: "chart", input: {} });
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        snapshot: room.state,
        content: [{ type: "image", data: temperatureChart([17]), mimeType: "image/png" }],
      },
    });
  });
});
