/**
 * Content parts in an Ollama `tool` message (`contentParts()`): Ollama's `/api/chat` takes
 * `images` (base64) on any message, a `tool` one included — the server feeds every message's
 * images to a vision model — so each JPEG or PNG image a command returns travels there, in order,
 * while it fits in the size cap. Texts, text resources and links stay in the observation's JSON,
 * as in every text-only dialect; any other part is a text that names it.
 */
import type { ContentPart } from "../../core/content.js";
import { ok, type Result } from "../../core/result.js";
import type { NeutralToolCall, Observation, ToolError } from "../../core/types.js";
import { partBlocks, refusal } from "../../wire/content-parts.js";
import { resultText } from "../../wire/result-text.js";

/** The kinds of part the dialect sends in a place of their own: images, in `images`. */
export const OLLAMA_CARRIES: readonly ContentPart["type"][] = ["image"];

// What Ollama's vision models decode, whichever engine runs them.
const IMAGES = ["image/jpeg", "image/png"];

type Sent = { image: string } | { line: string };

/** An image's base64 data, or why Ollama takes none for `part`. */
function carry(part: ContentPart): Sent | string {
  if (part.type !== "image") return "this provider takes no such content in a tool result";
  return IMAGES.includes(part.mimeType)
    ? { image: part.data }
    : "Ollama takes images as JPEG or PNG";
}

/** Why Ollama takes no such part in a tool message (an image that is not JPEG or PNG). */
// A function, not a call made at load: a bundle that never reads it drops the mapping with it.
export const ollamaRefuses = (part: ContentPart): string | undefined => refusal(carry(part));

/**
 * A successful outcome whose parts include images, as a `tool` message sends it: the observation's
 * JSON with its other parts (capped), then a line naming each image that did not fit, and the
 * images that did; `undefined` for any other outcome, which is sent as its text alone.
 */
export function withImages(
  call: NeutralToolCall,
  result: Result<Observation, ToolError>,
  maxChars: number,
): { content: string; images: string[] } | undefined {
  // `?.`: called directly, a dialect may be handed what is no observation.
  const parts = result.ok ? result.value?.content : undefined;
  if (!result.ok || !parts?.some((part) => part.type === "image")) return undefined;
  const { snapshot, events } = result.value;
  const others = parts.filter((part) => part.type !== "image");
  const observation = others.length ? { snapshot, events, content: others } : { snapshot, events };
  const json = resultText(call, ok(observation), maxChars);
  const blocks = partBlocks(
    parts.filter((part) => part.type === "image"),
    maxChars - json.length,
    carry,
    (line): Sent => ({ line }),
  );
  const images: string[] = [];
  const lines = [json];
  for (const block of blocks) {
    if ("image" in block) images.push(block.image);
    else lines.push(block.line);
  }
  return { content: lines.join("\n"), images };
}
