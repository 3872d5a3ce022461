/**
 * Pure core: a gated command's `availableWhen` sentence, where the model reads it — at the end of
 * the tool's description when the command is listed whatever the state, and in the `Unavailable`
 * answer (core/errors.ts) everywhere.
 */
import type { NeutralTool } from "./types.js";

/** `availableWhen` as the rest of a sentence: trimmed, without a final full stop. */
export function sentence(availableWhen: string): string {
  return availableWhen.trim().replace(/\.+$/, "");
}

// One listed form per tool: the tools of a kept manifest are frozen and live as long as it does.
const listed = new WeakMap<NeutralTool, NeutralTool>();

/**
 * `tool` as it is listed whatever the state (`offer: "declared"`, a framework's fixed tool list):
 * a gated command with `availableWhen` has a description that ends with it, so the model knows
 * when to call it before it tries. Any other tool is returned as it is.
 *
 * @example `Boost the heating. Available only while the heating is on.`
 */
export function listedAnyway(tool: NeutralTool): NeutralTool {
  const { availableWhen, description } = tool;
  if (availableWhen === undefined) return tool;
  let made = listed.get(tool);
  if (made === undefined) {
    const when = `Available ${sentence(availableWhen)}.`;
    const before = description?.trimEnd() ?? "";
    made = Object.freeze({ ...tool, description: before === "" ? when : `${before} ${when}` });
    listed.set(tool, made);
  }
  return made;
}
