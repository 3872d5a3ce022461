/**
 * `allowedFunctions(gemini)`: a tool list that keeps Gemini's context cache. Every request carries
 * every declared command — the same declarations in the same order — and what is available now
 * travels in `toolConfig.functionCallingConfig`: mode `VALIDATED` with `allowedFunctionNames` (the
 * model may call one of them or answer in text), `AUTO` when all are, `NONE` when none is. A
 * function of its own, so a bundle that does not use it carries none of it.
 */
import { badArgument } from "../../core/checks.js";
import type { LoopDialect, NeutralManifest, ToolDefsContext } from "../../core/types.js";

/**
 * Which functions the model may call (Gemini's `FunctionCallingConfig`). With `@google/genai`,
 * whose `mode` is an enum, pass `FunctionCallingConfigMode[config.mode]`.
 */
export type GeminiFunctionCallingConfig =
  | { mode: "AUTO" }
  | { mode: "NONE" }
  | { mode: "VALIDATED"; allowedFunctionNames: string[] };

/** What a `generateContent` request's `config` takes from `allowedFunctions(gemini)`. */
export type GeminiToolRequest<Tool> = {
  tools: Tool[];
  toolConfig: { functionCallingConfig: GeminiFunctionCallingConfig };
};

/**
 * `allowedFunctions(gemini)`: every declared function, and the ones callable now; otherwise the
 * dialect it was given (`GeminiDialect` is `Dialect` here).
 */
export type GeminiAllowedDialect<Tool, Dialect> = Omit<Dialect, "toToolDefs"> & {
  toToolDefs(manifest: NeutralManifest, context?: ToolDefsContext): GeminiToolRequest<Tool>;
};

/**
 * `dialect` (`gemini`, configured or not) with a tool list that stays the same for the whole
 * conversation: `toToolDefs()` gives `{ tools, toolConfig }` — every declared function, and the
 * ones available now as `allowedFunctionNames` in mode `VALIDATED` — for the request's `config`.
 * A call to a function outside them is still answered `Unavailable`.
 *
 * @example
 * ```ts
 * const tools = igniteTools(component, allowedFunctions(gemini));
 * const { tools: declared, toolConfig } = tools.toToolDefs();
 * ```
 */
export function allowedFunctions<
  Tool extends { functionDeclarations: { name: string }[] },
  Dialect extends LoopDialect<Tool[], unknown, unknown, unknown>,
>(
  dialect: Dialect & LoopDialect<Tool[], unknown, unknown, unknown>,
): GeminiAllowedDialect<Tool, Dialect> {
  if (typeof dialect?.toToolDefs !== "function") {
    throw badArgument("allowedFunctions", "dialect", dialect, "gemini (configured or not)");
  }
  // Made once per frozen declared manifest (the bridge keeps one while no declaration changes).
  const lists = new WeakMap<NeutralManifest, Tool[]>();
  return {
    ...dialect,
    toToolDefs(manifest, context) {
      const declared = context?.declared ?? manifest;
      let tools = lists.get(declared);
      if (!tools) {
        tools = dialect.toToolDefs(declared, context);
        if (Object.isFrozen(declared)) lists.set(declared, tools);
      }
      if (manifest.length >= declared.length) {
        return { tools, toolConfig: { functionCallingConfig: { mode: "AUTO" } } };
      }
      // One declaration per declared command, in its order.
      const open = new Set(manifest.map((tool) => tool.name));
      const offered = declared.map((command) => open.has(command.name));
      const names = tools
        .flatMap((tool) => tool.functionDeclarations)
        .filter((_, index) => offered[index])
        .map((declaration) => declaration.name);
      const functionCallingConfig: GeminiFunctionCallingConfig =
        names.length === 0 ? { mode: "NONE" } : { mode: "VALIDATED", allowedFunctionNames: names };
      return { tools, toolConfig: { functionCallingConfig } };
    },
  };
}
