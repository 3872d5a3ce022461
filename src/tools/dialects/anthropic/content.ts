/**
 * Content parts in an Anthropic `tool_result` (`contentParts()`): its content becomes blocks —
 * the observation's JSON text first, then each part as Anthropic takes it in a tool result:
 * a text block, an image block (base64 JPEG, PNG, GIF or WebP), a document block (a PDF, or a
 * plain text). Anything else, or what does not fit in the size cap, is a text that names it.
 */
import type { ContentPart } from "../../core/content.js";
import { fileName, partBlocks, refusal } from "../../wire/content-parts.js";
import type { AnthropicTextBlockParam, AnthropicToolResultContent } from "./messages.js";

/** The kinds of part the dialect sends as blocks of their own. */
export const ANTHROPIC_CARRIES: readonly ContentPart["type"][] = ["text", "image", "resource"];

const IMAGES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
const isImageType = (type: string): type is (typeof IMAGES)[number] =>
  IMAGES.some((image) => image === type);

const text = (line: string): AnthropicTextBlockParam => ({ type: "text", text: line });

/** `part` as a tool result's block, or why Anthropic takes none for it. */
function block(part: ContentPart): AnthropicToolResultContent | string {
  if (part.type === "text") return text(part.text);
  if (part.type === "image") {
    const { data, mimeType } = part;
    if (!isImageType(mimeType)) return `Anthropic takes images as JPEG, PNG, GIF or WebP`;
    return { type: "image", source: { type: "base64", media_type: mimeType, data } };
  }
  if (part.type !== "resource") return "Anthropic takes no such content in a tool result";
  const { resource } = part;
  const title = fileName(resource.uri);
  if ("text" in resource) {
    return {
      type: "document",
      source: { type: "text", media_type: "text/plain", data: resource.text },
      title,
    };
  }
  if (resource.mimeType !== "application/pdf") return "Anthropic takes files as PDF or text";
  const source = {
    type: "base64" as const,
    media_type: "application/pdf" as const,
    data: resource.blob,
  };
  return { type: "document", source, title };
}

/** Why Anthropic takes no such part in a tool result (an image that is not JPEG, PNG, GIF, WebP). */
// A function, not a call made at load: a bundle that never reads it drops the mapping with it.
export const anthropicRefuses = (part: ContentPart): string | undefined => refusal(block(part));

/** A tool result's content: `json` (already capped), then `parts` within what is left of `maxChars`. */
export function resultContent(
  json: string,
  parts: readonly ContentPart[],
  maxChars: number,
): AnthropicToolResultContent[] {
  return [text(json), ...partBlocks(parts, maxChars - json.length, block, text)];
}
