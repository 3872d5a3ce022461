/**
 * Resources beside the tools: `resources/list`, `resources/templates/list` and `resources/read`,
 * answered from what the application gives as `resources` — fixed resources and URI templates
 * (matched with the SDK's `UriTemplate`) — with the 2026-07-28 cache hints of a list that
 * changes only with the server's code; `resources/read` also gives back what the calls returned
 * whole (calls.ts keeps it), and answers an unknown URI with the SDK's `ResourceNotFoundError`,
 * as SEP-2164 has it.
 */
import {
  ResourceNotFoundError,
  type Server,
  type ServerContext,
  UriTemplate,
} from "@modelcontextprotocol/server";
import {
  aFunction,
  aName,
  anObject,
  check,
  checkOptional,
  type Expect,
  hasMethods,
} from "../../core/checks.js";
import { isRecord } from "../../core/json.js";
import type { AgentComponent, RuntimeEvent } from "../../core/types.js";
import { toJsonText } from "../../wire/result-text.js";
import { isModern } from "./host.js";
import type {
  McpResource,
  McpResourceContents,
  McpResourceEntry,
  McpResourceTemplate,
  McpView,
} from "./types.js";

/** The resources of one host, checked, with each template's matcher made once. */
export interface Resources {
  readonly fixed: readonly McpResource[];
  readonly templates: readonly {
    readonly entry: McpResourceTemplate;
    readonly match: UriTemplate;
  }[];
}

/**
 * `entries` checked: each a fixed resource (`uri`) or a template (`uriTemplate`), with a `name`
 * and a `read` function. `undefined` without any.
 *
 * @throws TypeError naming `who` and the entry for one that is neither.
 */
export function resourcesOf(
  who: string,
  entries: unknown,
  view: unknown,
  component: AgentComponent<unknown, RuntimeEvent>,
): Resources | undefined {
  const shown = checkOptional(who, "view", view, A_VIEW);
  if (entries === undefined && shown === undefined) return undefined;
  const list = check(who, "resources", entries ?? [], A_LIST);
  // The view is one more fixed resource, after the application's own.
  const fixed: McpResource[] = [];
  const templates: Resources["templates"][number][] = [];
  list.forEach((given, index) => {
    const at = `resources[${index}]`;
    const entry = check(who, at, given, AN_ENTRY);
    check(who, `${at}.name`, entry.name, aName);
    check(who, `${at}.read`, entry.read, aFunction);
    for (const key of ["title", "description", "mimeType"] as const) {
      checkOptional(who, `${at}.${key}`, entry[key], aName);
    }
    checkOptional(who, `${at}._meta`, entry._meta, anObject);
    if ("uriTemplate" in entry) {
      const template = check(who, `${at}.uriTemplate`, entry.uriTemplate, aName);
      templates.push({ entry, match: new UriTemplate(template) });
    } else {
      check(who, `${at}.uri`, entry.uri, aName);
      fixed.push(entry);
    }
  });
  if (shown) fixed.push(shown.resource);
  const state = shown && stateOf(shown, component);
  if (state) fixed.push(state);
  return { fixed, templates };
}

/**
 * The view's state resource: the component's snapshot as JSON, read afresh at each read, for a
 * component with `getSnapshot` (without one, the view shows the state of each result only).
 */
function stateOf(
  view: McpView,
  component: AgentComponent<unknown, RuntimeEvent>,
): McpResource | undefined {
  const { stateUri } = view;
  const snapshot = component.getSnapshot;
  if (stateUri === undefined || typeof snapshot !== "function") return undefined;
  return {
    uri: stateUri,
    name: `${view.resource.name} state`,
    description: "The component's state now, as the view shows it between calls.",
    mimeType: "application/json",
    read: () => ({ text: toJsonText(snapshot.call(component)) }),
  };
}

const A_VIEW = /* @__PURE__ */ hasMethods<McpView>(
  'a view made by mcpAppView (from "ignite-element/tools/mcp-app")',
  "toolMeta",
);

const A_LIST: Expect<readonly unknown[]> = {
  allowed: "a list of resources ({ uri, name, read }) and templates ({ uriTemplate, name, read })",
  test: (value): value is readonly unknown[] => Array.isArray(value),
};

const AN_ENTRY: Expect<McpResourceEntry> = {
  allowed: "a resource { uri, name, read } or a template { uriTemplate, name, read }",
  test: (value): value is McpResourceEntry =>
    isRecord(value) && ("uri" in value || "uriTemplate" in value),
};

/** What a 2026-07-28 client may cache the lists for: they change only with the server's code. */
const LISTED = { ttlMs: 60_000, cacheScope: "public" } as const;

/** No resources of the application's: a server that serves only what its calls returned. */
export const NO_RESOURCES: Resources = { fixed: [], templates: [] };

/**
 * Sets `server`'s resource handlers — the application's `resources`, then what the calls
 * `returned` — and returns the function that removes them.
 */
export function serveResources(
  server: Server,
  resources: Resources,
  returned: ReadonlyMap<string, McpResourceContents & { readonly uri: string }> | undefined,
): () => void {
  const hinted = <T extends object>(ctx: ServerContext, result: T) =>
    isModern(ctx) ? { ...result, ...LISTED } : result;
  server.setRequestHandler("resources/list", (_request, ctx) =>
    hinted(ctx, { resources: resources.fixed.map((resource) => shown(resource, "uri")) }),
  );
  server.setRequestHandler("resources/templates/list", (_request, ctx) =>
    hinted(ctx, {
      resourceTemplates: resources.templates.map(({ entry }) => shown(entry, "uriTemplate")),
    }),
  );
  server.setRequestHandler("resources/read", async ({ params }, ctx) => {
    const contents = (await read(resources, params.uri)) ?? returned?.get(params.uri);
    if (contents === undefined) throw new ResourceNotFoundError(params.uri);
    // Read afresh every time: a client may not keep it.
    const answer = { contents: [contents] };
    return isModern(ctx) ? { ...answer, ttlMs: 0, cacheScope: "private" as const } : answer;
  });
  return () => {
    for (const method of [
      "resources/list",
      "resources/templates/list",
      "resources/read",
    ] as const) {
      server.removeRequestHandler(method);
    }
  };
}

/** What a list shows of an entry: its address (`uri` or `uriTemplate`) and its description. */
function shown<Key extends "uri" | "uriTemplate">(
  entry: McpResourceEntry & Record<Key, string>,
  key: Key,
) {
  const { name, title, description, mimeType, _meta } = entry;
  return {
    [key]: entry[key],
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(mimeType === undefined ? {} : { mimeType }),
    ...(_meta === undefined ? {} : { _meta }),
  } as Record<Key, string> & { name: string };
}

/** The contents at `uri`: a fixed resource's, else the first template's that matches it. */
async function read(resources: Resources, uri: string) {
  const fixed = resources.fixed.find((resource) => resource.uri === uri);
  if (fixed) return contentsOf(uri, fixed, await fixed.read());
  for (const { entry, match } of resources.templates) {
    const variables = match.match(uri);
    if (variables === null) continue;
    const contents = await entry.read(uri, variables);
    if (contents !== undefined) return contentsOf(uri, entry, contents);
  }
  return undefined;
}

/** `contents` as `resources/read` answers them: the URI read, the MIME type, the text or bytes. */
function contentsOf(uri: string, entry: McpResourceEntry, contents: McpResourceContents) {
  const mimeType = contents.mimeType ?? entry.mimeType;
  // An MCP App host reads a view's `_meta.ui` (its CSP) from the contents it reads.
  const typed = {
    ...(mimeType === undefined ? {} : { mimeType }),
    ...(entry._meta === undefined ? {} : { _meta: entry._meta }),
  };
  return "text" in contents
    ? { uri, ...typed, text: contents.text }
    : { uri, ...typed, blob: contents.blob };
}
