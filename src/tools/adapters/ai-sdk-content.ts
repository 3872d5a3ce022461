/**
 * Content parts as the AI SDK's tool output. Each major names the same bytes differently: AI SDK 5
 * has `media`; 6 has `image-data` and `file-data` (and reads 5's `media`); 7 has `file` with
 * tagged data, and warns about 6's names as deprecated. So the adapter sends the installed
 * major's own, and a provider package of that major maps it to its API (an image as OpenAI's
 * `input_image`, a file as `input_file`, Anthropic's `image` and `document` blocks).
 */
import type { ContentPart } from "../core/content.js";
import { fileOf, partText } from "../wire/content-parts.js";

/** The AI SDK major the adapter speaks, as read off the installed `ai` module's exports. */
export type AiSdkMajor = 5 | 6 | 7;

/**
 * One entry of a `{ type: "content" }` tool output, in the shapes AI SDK 5 (`media`), 6
 * (`image-data`, `file-data`) and 7 (`file`) name. Written out here rather than read off the
 * installed `ai`, whose types are one major's: only the entrypoint imports `ai`.
 */
export type AiSdkContentItem =
  | { type: "text"; text: string }
  | { type: "media"; data: string; mediaType: string }
  | { type: "image-data"; data: string; mediaType: string }
  | { type: "file-data"; data: string; mediaType: string; filename?: string }
  | AiSdk7File;

/** The kinds of part the AI SDK takes in a tool output (a link is said as text by the layer). */
export const AI_SDK_CARRIES: readonly ContentPart["type"][] = [
  "text",
  "image",
  "audio",
  "resource",
];

/** AI SDK 7's file entry: bytes tagged as data, a media type, and a name when it is a file. */
interface AiSdk7File {
  type: "file";
  data: { type: "data"; data: string };
  mediaType: string;
  filename?: string;
}

/**
 * `part` as a `{ type: "content" }` tool output's entry of AI SDK `major`. Text, and a resource's
 * text, are text; an image, audio or a resource's bytes are the major's data entry, a resource
 * named by the last segment of its URI.
 */
export function aiSdkContentItem(part: ContentPart, major: AiSdkMajor): AiSdkContentItem {
  const bytes = bytesOf(part);
  if (typeof bytes === "string") return { type: "text", text: bytes };
  const { data, mediaType, filename } = bytes;
  if (major === 5) return { type: "media", data, mediaType };
  if (major === 6) {
    if (filename === undefined && mediaType.startsWith("image/")) {
      return { type: "image-data", data, mediaType };
    }
    return filename === undefined
      ? { type: "file-data", data, mediaType }
      : { type: "file-data", data, mediaType, filename };
  }
  const file: AiSdk7File = { type: "file", data: { type: "data", data }, mediaType };
  if (filename !== undefined) file.filename = filename;
  return file;
}

/** A part's bytes, with their media type and a file's name; the text of any other part. */
function bytesOf(
  part: ContentPart,
): string | { data: string; mediaType: string; filename?: string } {
  if (part.type === "image" || part.type === "audio") {
    return { data: part.data, mediaType: part.mimeType };
  }
  const file = fileOf(part);
  if (file) return { data: file.data, mediaType: file.mimeType, filename: file.filename };
  return partText(part);
}
