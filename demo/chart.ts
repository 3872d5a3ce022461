/**
 * The room's temperature history as a small PNG image, drawn in plain TypeScript: no canvas, no
 * native module, no compression library — a PNG may hold its pixels in stored (uncompressed)
 * deflate blocks, and a chart of a few readings is a few kilobytes that way. What the `chart`
 * command answers with, as a content part, so the demo shows how each dialect carries an image.
 */

const WIDTH = 64;
const HEIGHT = 32;
/** The range the chart spans, in °C: the room's whole target range. */
const LOW = 10;
const HIGH = 30;

/** One bar per reading, oldest first, dark on white, as a base64 PNG (8-bit greyscale). */
export function temperatureChart(readings: readonly number[]): string {
  const pixels = new Uint8Array(WIDTH * HEIGHT).fill(255);
  const slot = Math.max(1, Math.floor(WIDTH / Math.max(readings.length, 1)));
  readings.slice(-WIDTH).forEach((celsius, index) => {
    const share = (Math.min(Math.max(celsius, LOW), HIGH) - LOW) / (HIGH - LOW);
    const top = HEIGHT - Math.max(1, Math.round(share * HEIGHT));
    // A gap of one pixel between bars, so two equal readings still read as two.
    for (let x = index * slot; x < index * slot + slot - 1 && x < WIDTH; x++) {
      for (let y = top; y < HEIGHT; y++) pixels[y * WIDTH + x] = 48;
    }
  });
  return base64(png(WIDTH, HEIGHT, pixels));
}

/** A greyscale PNG of `pixels` (one byte each, row by row). */
function png(width: number, height: number, pixels: Uint8Array): Uint8Array {
  // Each row starts with its filter type: 0, none.
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) {
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 0, 0, 0, 0], 8); // 8 bits, greyscale, deflate, no filter choice, no interlace
  return concat([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    chunk("IHDR", header),
    chunk("IDAT", zlibStored(raw)),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/** `data` as a zlib stream of stored deflate blocks (at most 65 535 bytes each). */
function zlibStored(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(0x78, 0x01)];
  for (let at = 0; at < data.length || at === 0; at += 0xffff) {
    const block = data.subarray(at, at + 0xffff);
    const last = at + 0xffff >= data.length ? 1 : 0;
    const length = block.length;
    parts.push(
      Uint8Array.of(last, length & 0xff, length >> 8, ~length & 0xff, (~length >> 8) & 0xff),
    );
    parts.push(block);
  }
  parts.push(uint32(adler32(data)));
  return concat(parts);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data]);
  return concat([uint32(data.length), typed, uint32(crc32(typed))]);
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
