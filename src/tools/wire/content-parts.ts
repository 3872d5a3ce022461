/**
 * Content parts on the wire, for every dialect: the observation's JSON never holds them; a dialect
 * whose provider carries a kind sends it in the provider's own form, within what is left of the
 * size cap, and a part it cannot carry, or that does not fit, becomes a short text that names
 * it — so the model knows something was there, and no base64 payload is ever cut in half.
 */
import type { ContentPart, ResourceLinkPart } from "../core/content.js";
import { ok, type Result } from "../core/result.js";
import type { NeutralToolCall, Observation, ToolError } from "../core/types.js";
import { resultText } from "./result-text.js";

/** `value` without its content parts: what the JSON text and structured content hold. */
export function withoutParts(value: Observation): Observation {
  return value?.content === undefined ? value : { snapshot: value.snapshot, events: value.events };
}

/** What a part is, in a few words: `an image (image/png)`, `the resource file:///a.pdf`. */
export function partName(part: ContentPart): string {
  switch (part.type) {
    case "image":
      return `an image (${part.mimeType})`;
    case "audio":
      return `audio (${part.mimeType})`;
    case "text":
      return "a text";
    case "resource_link":
      return `a link to ${part.uri}`;
    default:
      return `the resource ${part.resource.uri}`;
  }
}

/** A link as the text a model reads where a provider carries no link. */
export function linkText(part: ResourceLinkPart): string {
  return `Resource: ${part.name} <${part.uri}>`;
}

/**
 * A part as the text a provider that takes it as text reads: a text, a text resource's text, a
 * link's line; any other part (bytes) by its stand-in, naming it.
 */
export function partText(part: ContentPart): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "resource_link":
      return linkText(part);
    case "resource":
      if ("text" in part.resource) return part.resource.text;
  }
  return standIn(part, "this provider takes no such content in a tool result");
}

/** The name a provider shows for a resource's file: the last segment of its URI, or the URI. */
export function fileName(uri: string): string {
  return uri.slice(uri.lastIndexOf("/") + 1) || uri;
}

/**
 * A resource's bytes as a file, for a provider that takes files: the data, the MIME type
 * (`application/octet-stream` when the resource says none) and the name; `undefined` for any
 * other part.
 */
export function fileOf(
  part: ContentPart,
): { data: string; mimeType: string; filename: string } | undefined {
  if (part.type !== "resource" || !("blob" in part.resource)) return undefined;
  const { uri, mimeType = "application/octet-stream", blob } = part.resource;
  return { data: blob, mimeType, filename: fileName(uri) };
}

/** The text that stands for `part` where it was left out, and why. */
export function standIn(part: ContentPart, why: string): string {
  return `[${partName(part)} was left out: ${why}]`;
}

/** Why a part was left out when it did not fit. */
export const OVER_CAP = "over the size cap of this result";

/**
 * For a dialect's `refuses`: what its mapping of a part gave, when that is why the provider
 * cannot take it — so each provider's rules are written once, in its mapping.
 */
export function refusal(carried: unknown): string | undefined {
  return typeof carried === "string" ? carried : undefined;
}

/** The length a part takes when sent: its JSON text, base64 payload included. */
const charsOf = (part: ContentPart) => JSON.stringify(part).length;

/**
 * `parts` as a provider's blocks, in order: each one `carry` maps (or answers with why it cannot
 * be carried) while it fits in `room` characters; the others as `text` blocks standing in for
 * them, or, for a part over the cap, what `over` gives for it (a link to where it is kept). A
 * stand-in or a link is always sent, even past the cap: it is a line, and it says what is missing.
 */
export function partBlocks<Block>(
  parts: readonly ContentPart[],
  room: number,
  carry: (part: ContentPart) => Block | string,
  text: (line: string) => Block,
  over?: (part: ContentPart) => Block | undefined,
): Block[] {
  let left = room;
  return parts.map((part) => {
    const size = charsOf(part);
    if (size > left) return over?.(part) ?? text(standIn(part, OVER_CAP));
    const block = carry(part);
    if (typeof block === "string") return text(standIn(part, block));
    left -= size;
    return block;
  });
}

/**
 * A successful outcome that carries content parts, as a dialect with blocks of its own sends it:
 * the observation's text without the parts (capped), and the parts, to follow it within what is
 * left of `maxChars`; `undefined` for any other outcome, which is sent as its text alone.
 */
export function textAndParts(
  call: NeutralToolCall,
  result: Result<Observation, ToolError>,
  maxChars: number,
): { text: string; parts: readonly ContentPart[] } | undefined {
  // `?.`: called directly, a dialect may be handed what is no observation.
  const parts = result.ok ? result.value?.content : undefined;
  if (!result.ok || parts === undefined) return undefined;
  return { text: resultText(call, ok(withoutParts(result.value)), maxChars), parts };
}
