/**
 * The NodeNext way of writing TypeScript, loaded as it is written: a `.ts` module imports its
 * neighbour as `./store.js` (what `tsc` with `module: NodeNext` requires), and Node's type
 * stripping looks for a `store.js` that only exists after compiling. `ignite-mcp` serves modules
 * as they type-check, so it resolves such a specifier to its TypeScript file, as `tsc` does —
 * only when the JavaScript file is not there, and only from a TypeScript module.
 */
import { isRecord } from "../core/json.js";

/** A resolve step of Node's synchronous module hooks (`module.registerHooks`, Node 22.15+). */
type Resolve = (
  specifier: string,
  context: { parentURL?: string | undefined },
  nextResolve: (specifier: string, context: { parentURL?: string | undefined }) => unknown,
) => unknown;

type RegisterHooks = (hooks: { resolve: Resolve }) => unknown;

/** The extension TypeScript writes for each JavaScript one in a relative NodeNext specifier. */
const TYPESCRIPT: Readonly<Record<string, string>> = {
  ".js": ".ts",
  ".mjs": ".mts",
  ".cjs": ".cts",
};

/** `./store.js` → `./store.ts`, for a relative specifier imported from a TypeScript module. */
export function typescriptSpecifier(
  specifier: string,
  parentURL: string | undefined,
): string | undefined {
  if (parentURL === undefined || !/\.[cm]?ts$/.test(new URL(parentURL).pathname)) return undefined;
  const found = /^(\.{1,2}\/.*)(\.[cm]?js)$/.exec(specifier);
  const extension = found?.[2] === undefined ? undefined : TYPESCRIPT[found[2]];
  return found?.[1] === undefined || extension === undefined
    ? undefined
    : `${found[1]}${extension}`;
}

function isRegisterHooks(value: unknown): value is RegisterHooks {
  return typeof value === "function";
}

/**
 * Node's `module.registerHooks`, where this Node has it (22.15 and later): read through
 * `process.getBuiltinModule`, which Node 20 lacks as it lacks the hooks, so that nothing here
 * imports a Node built-in before it is known to be there.
 */
function registerHooksOf(): RegisterHooks | undefined {
  const load: unknown = Reflect.get(globalThis.process ?? {}, "getBuiltinModule");
  if (typeof load !== "function") return undefined;
  const loaded: unknown = load.call(globalThis.process, "node:module");
  // `node:module` is the Module function, with registerHooks among its properties.
  const registerHooks =
    typeof loaded === "function" || isRecord(loaded)
      ? Reflect.get(loaded, "registerHooks")
      : undefined;
  return isRegisterHooks(registerHooks) ? registerHooks : undefined;
}

/**
 * Lets the modules Node loads from now on import their TypeScript neighbours by `.js`. Returns
 * whether it could: a Node without synchronous hooks (before 22.15) cannot.
 */
export function resolveTypeScriptSpecifiers(): boolean {
  const registerHooks = registerHooksOf();
  if (registerHooks === undefined) return false;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      try {
        return nextResolve(specifier, context);
      } catch (error) {
        const written = typescriptSpecifier(specifier, context.parentURL);
        const notFound =
          error instanceof Error && Reflect.get(error, "code") === "ERR_MODULE_NOT_FOUND";
        if (!notFound || written === undefined) throw error;
        return nextResolve(written, context);
      }
    },
  });
  return true;
}
