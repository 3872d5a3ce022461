/**
 * The content layer, `contentParts()`: a command may answer with content parts beside its state —
 * an image, audio, a text, a resource or a link to one — read and checked once (core/content.ts).
 * What the model reads of a call then carries them: each kind the dialect sends in its provider's
 * own form as it is, any other as a text part standing in for it (the application hears
 * `content-left-out`). A layer, so a bridge that never sends a part carries none of this.
 */
import type { Layer } from "../bridge/pipeline.js";
import { type ContentPart, readParts } from "../core/content.js";
import { ok } from "../core/result.js";
import type { Observation, WarningSink } from "../core/types.js";
import { linkText, standIn } from "../wire/content-parts.js";

/** The content layer: what `content` takes. */
export interface ContentLayer extends Layer<"content"> {}

/**
 * Lets the bridge's commands answer with content parts: `execute` returns
 * `{ state, events, content: [{ type: "image", data, mimeType: "image/png" }] }` and the dialect
 * sends them in its provider's own form (MCP content blocks, Anthropic image and document
 * blocks, the Responses API's `input_image` and `input_file`, Gemini's inline data); a kind its
 * provider cannot carry reaches the model as a text naming it. A malformed
 * part (an unknown type, a MIME type that is not one, data that is not base64) answers the call
 * `ExecuteFailed`: nothing is sent half-formed. `invoke` returns the parts as they came.
 *
 * @example
 * ```ts
 * const tools = igniteTools(chart, anthropic, { content: contentParts() });
 * ```
 */
export function contentParts(): ContentLayer {
  return {
    layer: "content",
    install({ pipeline, dialect, warn }) {
      const carries = dialect?.carries ?? [];
      const refuses = dialect?.refuses;
      pipeline.parts = readParts;
      const inner = pipeline.answer;
      pipeline.answer = (call, value) => {
        const read = inner ? inner(call, value) : ok<Observation>(value);
        const parts = read.ok ? read.value.content : undefined;
        if (!read.ok || parts === undefined) return read;
        const fitted = parts.map((part) => carried(part, carries, refuses, call.name, warn));
        return ok({ ...read.value, content: fitted });
      };
    },
  };
}

/**
 * `part` as the dialect can send it: itself when it carries its kind and takes the part, else a
 * text part — the part's own text where it has one, or one naming what was left out, and why.
 */
function carried(
  part: ContentPart,
  carries: readonly ContentPart["type"][],
  refuses: ((part: ContentPart) => string | undefined) | undefined,
  command: string,
  warn: WarningSink,
): ContentPart {
  let why: string | undefined;
  if (carries.includes(part.type)) {
    why = refuses?.(part);
    if (why === undefined) return part;
  } else {
    switch (part.type) {
      case "text":
        return part;
      case "resource_link":
        return { type: "text", text: linkText(part) };
      case "resource":
        if ("text" in part.resource) return { type: "text", text: part.resource.text };
    }
    why = "this provider takes no such content in a tool result";
  }
  warn({ code: "content-left-out", command, message: `${command}: ${standIn(part, why)}` });
  return { type: "text", text: standIn(part, why) };
}
