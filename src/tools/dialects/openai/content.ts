/**
 * Content parts in a Responses API `function_call_output` (`contentParts()`): its `output`
 * becomes a list — the observation's JSON text first (`input_text`), then each part as the API
 * takes it in a function's output: a text or a text resource as `input_text`, a JPEG, PNG, GIF
 * or WebP image as `input_image` (a base64 `data:` URL), a file's bytes as `input_file` (a
 * `data:` URL and its name). Anything else, or what does not fit in the size cap, is a text that
 * names it. Chat Completions takes text only in a tool message, so `openai` has none of this.
 */
import type { ContentPart } from "../../core/content.js";
import { fileName, partBlocks, refusal } from "../../wire/content-parts.js";

/** A text in a function's output (the SDK's `ResponseInputTextContent`). */
export interface OpenAIResponsesInputText {
  type: "input_text";
  text: string;
}

/** An image in a function's output, as a base64 `data:` URL (`ResponseInputImageContent`). */
export interface OpenAIResponsesInputImage {
  type: "input_image";
  image_url: string;
}

/** A file in a function's output: its bytes as a `data:` URL, and its name (`ResponseInputFileContent`). */
export interface OpenAIResponsesInputFile {
  type: "input_file";
  file_data: string;
  filename: string;
}

/** An item of a function's output list (the SDK's `ResponseFunctionCallOutputItem`). */
export type OpenAIResponsesOutputContent =
  | OpenAIResponsesInputText
  | OpenAIResponsesInputImage
  | OpenAIResponsesInputFile;

/** The kinds of part the dialect sends as items of their own; audio and links are texts. */
export const RESPONSES_CARRIES: readonly ContentPart["type"][] = ["text", "image", "resource"];

const IMAGES = ["image/jpeg", "image/png", "image/gif", "image/webp"];

const text = (line: string): OpenAIResponsesInputText => ({ type: "input_text", text: line });

// A data URL has no spaces: `text/plain; charset=utf-8` is written `text/plain;charset=utf-8`.
const dataUrl = (mimeType: string, data: string) =>
  `data:${mimeType.replace(/\s+/g, "")};base64,${data}`;

/** `part` as an item of a function's output, or why the Responses API takes none for it. */
function item(part: ContentPart): OpenAIResponsesOutputContent | string {
  if (part.type === "text") return text(part.text);
  if (part.type === "image") {
    if (!IMAGES.includes(part.mimeType)) return "OpenAI takes images as JPEG, PNG, GIF or WebP";
    return { type: "input_image", image_url: dataUrl(part.mimeType, part.data) };
  }
  if (part.type !== "resource") return "OpenAI takes no such content in a function's output";
  const { resource } = part;
  // A text is sent as a text: every model that reads a function's output reads text, and it
  // costs its length, not the third more its base64 would.
  if ("text" in resource) return text(resource.text);
  if (resource.mimeType === undefined) return "OpenAI takes a file with its MIME type";
  const filename = fileName(resource.uri);
  return { type: "input_file", file_data: dataUrl(resource.mimeType, resource.blob), filename };
}

/** Why the Responses API takes no such part in a function's output. */
// A function, not a call made at load: a bundle that never reads it drops the mapping with it.
export const responsesRefuses = (part: ContentPart): string | undefined => refusal(item(part));

/** A function's output: `json` (already capped), then `parts` within what is left of `maxChars`. */
export function outputContent(
  json: string,
  parts: readonly ContentPart[],
  maxChars: number,
): OpenAIResponsesOutputContent[] {
  return [text(json), ...partBlocks(parts, maxChars - json.length, item, text)];
}
