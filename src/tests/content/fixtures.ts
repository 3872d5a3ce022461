/**
 * The content parts the content tests send: a 1×1 PNG, and its bytes as the other kinds carry
 * them — audio, a PDF as an embedded resource and as a link, a text resource, an SVG (an image
 * type most providers do not read).
 */
import type { ContentPart } from "../../tools/index.js";

/** A 1×1 PNG, base64. */
export const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
export const image: ContentPart = { type: "image", data: PNG, mimeType: "image/png" };
export const svg: ContentPart = { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml" };
export const audio: ContentPart = {
  type: "audio",
  data: "UklGRiQAAABXQVZF",
  mimeType: "audio/wav",
};
export const link: ContentPart = {
  type: "resource_link",
  uri: "file:///reports/q3.pdf",
  name: "q3.pdf",
  mimeType: "application/pdf",
};
export const pdf: ContentPart = {
  type: "resource",
  resource: { uri: "file:///reports/q3.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
};
export const notes: ContentPart = {
  type: "resource",
  resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "Sales rose." },
};
