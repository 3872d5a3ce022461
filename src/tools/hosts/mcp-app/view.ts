/**
 * The component's own element as an MCP App view (`ignite-element/tools/mcp-app`, the extension
 * `io.modelcontextprotocol/ui`): one self-contained HTML document, the element's module and all it
 * imports bundled in, served as a `ui://` resource of MIME type `text/html;profile=mcp-app` with
 * its Content Security Policy in `_meta.ui.csp`, and the tools of the commands linked to it. A host
 * that renders apps shows it in a sandboxed iframe, which loads no script from anywhere: what the
 * element needs is in the document. Node only: the module is bundled with esbuild when the view is
 * made, once.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpUiResourceCsp } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from "@modelcontextprotocol/ext-apps/server";
import { build } from "esbuild";
import { aBoolean, aName, anObject, check, checkOptional, type Expect } from "../../core/checks.js";
import type { McpView } from "../mcp/types.js";

/** Options of `mcpAppView`. */
export interface McpAppViewOptions {
  /** The custom element's tag name (`"thermo-stat"`): the document shows one. */
  element: string;
  /**
   * The module that defines the element (a path, or a `file:` URL), bundled into the document with
   * everything it imports.
   */
  module: string | URL;
  /** The view's address. @default `ui://ignite-element/<element>.html` */
  uri?: string;
  /** Its name in `resources/list`. @default the element's tag name */
  name?: string;
  /** What a person reads as its name, in the list and as the document's title. */
  title?: string;
  description?: string;
  /**
   * The origins the view reaches (MCP Apps' `McpUiResourceCsp`: `connectDomains`,
   * `resourceDomains`, `frameDomains`, `baseUriDomains`). None by default: the document holds all
   * its code, and the host's sandbox then lets it reach nothing.
   */
  csp?: McpUiResourceCsp;
  /** Whether the view asks the host for a visible border and background. */
  prefersBorder?: boolean;
  /**
   * Commands meant only for the person, through the view: their tools say
   * `_meta.ui.visibility: ["app"]`, so a host that renders apps keeps them from the model and lets
   * the view call them. Every other command's tool is the model's and the view's (the default,
   * `["model", "app"]`).
   */
  appOnly?: readonly string[];
  /**
   * How often the view reads the component's state between calls, in milliseconds, so a change
   * made outside calls reaches it (for a component with `getSnapshot`); `0` never: the view then
   * shows the state of each result only.
   * @default 2000
   */
  refreshMs?: number;
}

/**
 * Makes the component's element an MCP App view: the module is bundled (with esbuild) into one HTML
 * document showing the element, which `serveMcp`, `mcpServerFactory`, `serveMcpHttp` or an
 * `ignite-mcp` module serve as a `ui://` resource when given as their `view` — each command's
 * tool then carries `_meta.ui.resourceUri`, so a host that renders apps shows the element beside
 * the conversation. See docs/apps.md.
 *
 * @example
 * ```ts
 * const view = await mcpAppView({ element: "thermo-stat", module: "./thermostat.js" });
 * serveMcp(server, thermostat, { view });
 * ```
 *
 * @throws TypeError for an element name that is no custom element's, or a module that does not
 *   bundle (naming the first error).
 */
export async function mcpAppView(options: McpAppViewOptions): Promise<McpView> {
  const WHO = "mcpAppView";
  check(WHO, "options", options satisfies unknown, anObject);
  const element = check(WHO, "element", options.element, AN_ELEMENT);
  const module = check(WHO, "module", options.module, A_MODULE);
  const uri =
    checkOptional(WHO, "uri", options.uri, A_UI_URI) ?? `ui://ignite-element/${element}.html`;
  for (const key of ["name", "title", "description"] as const) {
    checkOptional(WHO, key, options[key], aName);
  }
  checkOptional(WHO, "csp", options.csp, anObject);
  checkOptional(WHO, "prefersBorder", options.prefersBorder, aBoolean);
  const appOnly = new Set(checkOptional(WHO, "appOnly", options.appOnly, COMMAND_NAMES));
  const refreshMs = checkOptional(WHO, "refreshMs", options.refreshMs, REFRESH) ?? 2_000;
  const { name = element, title, description, csp, prefersBorder } = options;

  // The state between calls, beside the view: `….html` → `….state.json`.
  const stateUri = refreshMs === 0 ? undefined : `${uri.replace(/\.html?$/, "")}.state.json`;
  const started = stateUri === undefined ? {} : { stateUri, refreshMs };
  const html = page(element, title ?? element, await bundled(WHO, module, element, started));
  const ui = {
    ...(csp === undefined ? {} : { csp }),
    ...(prefersBorder === undefined ? {} : { prefersBorder }),
  };
  // Both spellings of the link: `ui.resourceUri`, and the flat key hosts read before it.
  const link = Object.freeze({ ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri });
  const appLink = Object.freeze({
    ui: { resourceUri: uri, visibility: ["app"] },
    [RESOURCE_URI_META_KEY]: uri,
  });
  return {
    resource: {
      uri,
      name,
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui },
      read: () => ({ text: html }),
    },
    toolMeta: (command) => (appOnly.has(command) ? appLink : link),
    appOnly: [...appOnly],
    ...(stateUri === undefined ? {} : { stateUri }),
  };
}

/**
 * The module and everything it imports, then the view's runtime started on `element`, as one
 * minified ES module for a browser.
 */
async function bundled(
  who: string,
  module: string | URL,
  element: string,
  options: { stateUri?: string; refreshMs?: number },
): Promise<string> {
  // A path is read from the current directory, as esbuild reads it.
  const file = resolve(module instanceof URL ? fileURLToPath(module) : module);
  if (!existsSync(file))
    throw new TypeError(`${who}: module ${String(module)} is not there (${file})`);
  const contents = [
    `import ${JSON.stringify(file)};`,
    `import { startView } from ${JSON.stringify(runtimeFile())};`,
    `startView(${JSON.stringify(element)}, ${JSON.stringify(options)});`,
  ].join("\n");
  try {
    const { outputFiles } = await build({
      stdin: { contents, resolveDir: dirname(file), loader: "js" },
      // The module is imported for what it does (it defines the element), which a package's
      // `"sideEffects": false` would otherwise let esbuild leave out.
      plugins: [
        {
          name: "the element's module runs",
          setup(build) {
            build.onResolve({ filter: /./ }, ({ path }) =>
              path === file ? { path, sideEffects: true } : undefined,
            );
          },
        },
      ],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      // The document says it is UTF-8: text stays as written rather than escaped.
      charset: "utf8",
      write: false,
      logLevel: "silent",
    });
    return outputFiles[0]?.text ?? "";
  } catch (error) {
    const first = (error as { errors?: { text: string }[] }).errors?.[0]?.text;
    throw new TypeError(
      `${who}: module ${String(module)} does not bundle: ${first ?? String(error)}`,
    );
  }
}

/**
 * The view's runtime (`ignite-element/tools/mcp-app-view`) as a file esbuild can bundle: the
 * built entry beside this one in the package, or its source where this one runs from source.
 */
function runtimeFile(): string {
  const candidates = ["./mcp-app-view.js", "./tools/mcp-app-view.js", "./runtime.ts"];
  for (const candidate of candidates) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new TypeError("mcpAppView: the view's runtime is missing from the package");
}

/** The view's document: the element, then its code, inline — nothing loaded from elsewhere. */
function page(element: string, title: string, code: string): string {
  // The code is inside a <script>: any `</script` in it (a string, a comment) would end it.
  const script = code.replace(/<\/(script)/gi, "<\\/$1");
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<${element}></${element}>
<script type="module">${script}</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

// A valid custom element name, as far as a view needs: lowercase ASCII, starting with a letter,
// with a hyphen (the HTML standard's names also allow other letters; hosts' sandboxes do too).
const AN_ELEMENT: Expect<string> = {
  allowed:
    'a custom element name: lowercase, starting with a letter, with a hyphen ("thermo-stat")',
  test: (value): value is string =>
    typeof value === "string" && /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/.test(value),
};

const A_MODULE: Expect<string | URL> = {
  allowed: "a path or a file: URL of the module that defines the element",
  test: (value): value is string | URL =>
    (typeof value === "string" && value !== "") ||
    (value instanceof URL && value.protocol === "file:"),
};

const COMMAND_NAMES: Expect<readonly string[]> = {
  allowed: "a list of command names",
  test: (value): value is readonly string[] =>
    Array.isArray(value) && value.every((name) => typeof name === "string" && name !== ""),
};

const REFRESH: Expect<number> = {
  allowed: "a whole number of milliseconds: 0 (never), or from 100 up",
  test: (value): value is number =>
    typeof value === "number" && Number.isSafeInteger(value) && (value === 0 || value >= 100),
};

const A_UI_URI: Expect<string> = {
  allowed: 'a ui:// URI ("ui://thermostat/view.html")',
  test: (value): value is string => typeof value === "string" && /^ui:\/\/[^/]/.test(value),
};
