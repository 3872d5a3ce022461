/**
 * Content parts in a Gemini `functionResponse` (`contentParts()`): a multimodal function
 * response. Its `response.output` stays the observation's JSON, with the texts in its `content`
 * as a text-only provider has them (a function response part holds no text); each image (PNG,
 * JPEG, WebP) and each file Gemini reads (those, a PDF, a plain text) goes in its `parts`, as
 * `inlineData`. Anything else, or what does not fit in the size cap, is a text that names it.
 */
import type { ContentPart, TextPart } from "../../core/content.js";
import { isRecord } from "../../core/json.js";
import { fileName, partBlocks, refusal } from "../../wire/content-parts.js";

/**
 * Media in a function response (assignable to the SDK's `FunctionResponsePart`): bytes
 * base64-encoded with their MIME type, and a file's name.
 */
export interface GeminiFunctionResponseMedia {
  inlineData: { mimeType: string; data: string; displayName?: string };
}

/** The kinds of part the dialect sends in a function response's `parts`; texts stay in `output`. */
export const GEMINI_CARRIES: readonly ContentPart["type"][] = ["text", "image", "resource"];

// The MIME types Google documents for a function response's inline data.
const IMAGES = ["image/png", "image/jpeg", "image/webp"];
const FILES = [...IMAGES, "application/pdf", "text/plain"];

const text = (line: string): TextPart => ({ type: "text", text: line });

/** `part` as a text or media of a function response, or why Gemini takes none for it. */
function carry(part: ContentPart): TextPart | GeminiFunctionResponseMedia | string {
  if (part.type === "text") return part;
  if (part.type === "image") {
    const { data, mimeType } = part;
    if (!IMAGES.includes(mimeType)) return "Gemini takes images as PNG, JPEG or WebP";
    return { inlineData: { mimeType, data } };
  }
  if (part.type !== "resource") return "Gemini takes no such content in a function response";
  const { resource } = part;
  // A function response part holds no text: a text resource is read as a text, as it would be
  // without this dialect's parts.
  if ("text" in resource) return text(resource.text);
  const { mimeType } = resource;
  if (mimeType === undefined || !FILES.includes(mimeType)) {
    return "Gemini takes files as PNG, JPEG, WebP, PDF or plain text";
  }
  const displayName = fileName(resource.uri);
  return { inlineData: { mimeType, data: resource.blob, displayName } };
}

/** Why Gemini takes no such part in a function response. */
// A function, not a call made at load: a bundle that never reads it drops the mapping with it.
export const geminiRefuses = (part: ContentPart): string | undefined => refusal(carry(part));

/** A function response's output and media: what `toToolResult` sends for parts. */
export interface GeminiResponseContent {
  /** `base` with the texts as `content`, when there are any. */
  readonly output: unknown;
  /** The media, when there are any. */
  readonly parts: GeminiFunctionResponseMedia[];
}

/**
 * `base` (the observation without its parts, already capped) as a function response's output,
 * its texts added as `content`; then the media of `parts` that fit in what is left of `maxChars`.
 */
export function responseContent(
  base: unknown,
  parts: readonly ContentPart[],
  maxChars: number,
): GeminiResponseContent {
  const blocks = partBlocks(parts, maxChars - JSON.stringify(base).length, carry, text);
  const texts: TextPart[] = [];
  const media: GeminiFunctionResponseMedia[] = [];
  for (const block of blocks) {
    if ("inlineData" in block) media.push(block);
    else texts.push(block);
  }
  const output = texts.length > 0 && isRecord(base) ? { ...base, content: texts } : base;
  return { output, parts: media };
}
