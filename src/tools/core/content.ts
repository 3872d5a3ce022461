/**
 * Pure core: content parts, what a command may answer with beside its observation — an image or
 * audio as bytes, a text, a link to a resource, an embedded resource — as plain data in one
 * neutral shape, the vocabulary of MCP's content blocks (no provider's type here). Read once
 * from what `execute` returned, and refused whole when any part is malformed: a provider is never
 * sent half a part.
 */
import { isRecord } from "./json.js";
import { err, ok, type Result } from "./result.js";

/** A text beside the observation. */
export interface TextPart {
  type: "text";
  text: string;
}

/** An image, its bytes base64-encoded, with its MIME type (`image/png`). */
export interface ImagePart {
  type: "image";
  data: string;
  mimeType: string;
}

/** Audio, its bytes base64-encoded, with its MIME type (`audio/wav`). */
export interface AudioPart {
  type: "audio";
  data: string;
  mimeType: string;
}

/** A link to a resource the client may fetch: its URI and name, and what it is. */
export interface ResourceLinkPart {
  type: "resource_link";
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/**
 * A resource carried whole: a text (`text`) or bytes base64-encoded (`blob`), under its URI — a
 * file is one, its name the URI's last segment (`file:///report.pdf`).
 */
export interface EmbeddedResourcePart {
  type: "resource";
  resource:
    | { uri: string; mimeType?: string; text: string }
    | { uri: string; mimeType?: string; blob: string };
}

/** One content part a command answers with, beside its observation. */
export type ContentPart =
  | TextPart
  | ImagePart
  | AudioPart
  | ResourceLinkPart
  | EmbeddedResourcePart;

// A MIME type as RFC 6838 names one: `type/subtype`, each a token, parameters allowed after `;`.
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;
// Base64 (RFC 4648, padded or not): whole groups of four, then at most one shorter group.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const KINDS = "text, image, audio, resource_link or resource";

/** Why `part` (the `index`-th) is not a content part, or `undefined` when it is one. */
function partProblem(part: unknown, index: number): string | undefined {
  const at = `content[${index}]`;
  if (!isRecord(part)) return `${at} is not an object`;
  const string = (key: string, value: unknown = part[key]) =>
    typeof value === "string" ? undefined : `${at}.${key} is not a string`;
  const mime = (value: unknown, optional: boolean) =>
    (optional && value === undefined) || (typeof value === "string" && MIME.test(value))
      ? undefined
      : `${at} has a mimeType that is not one (type/subtype): ${JSON.stringify(value)}`;
  const base64 = (key: string, value: unknown) =>
    typeof value === "string" && BASE64.test(value)
      ? undefined
      : `${at}.${key} is not base64-encoded bytes`;
  switch (part.type) {
    case "text":
      return string("text");
    case "image":
    case "audio":
      return base64("data", part.data) ?? mime(part.mimeType, false);
    case "resource_link":
      return string("uri") ?? string("name") ?? mime(part.mimeType, true);
    case "resource": {
      const { resource } = part;
      if (!isRecord(resource)) return `${at}.resource is not an object`;
      const body =
        "blob" in resource
          ? base64("resource.blob", resource.blob)
          : string("resource.text", resource.text);
      return string("resource.uri", resource.uri) ?? body ?? mime(resource.mimeType, true);
    }
    default:
      return `${at} has type ${JSON.stringify(part.type)}; a part is ${KINDS}`;
  }
}

/**
 * `content` — what `execute` returned beside `state` — as content parts, or why it is not: an
 * array of parts, each of a known type with what that type needs (base64 bytes, a MIME type that
 * is one, a URI). The parts are the application's own objects, given as they came.
 */
export function readParts(content: unknown): Result<readonly ContentPart[], string> {
  if (!Array.isArray(content)) return err("content is not an array of content parts");
  for (let index = 0; index < content.length; index++) {
    const problem = partProblem(content[index], index);
    if (problem !== undefined) return err(problem);
  }
  return ok(content as ContentPart[]);
}
