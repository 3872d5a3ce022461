/**
 * What every `Server` of one component shares, made once per `serveMcp` or `mcpServerFactory`:
 * the one bridge (one queue, one component) and its dialect, how approvals are asked, how results
 * are checked, the list's cache hints, the watchers' looks and the resources the calls returned;
 * and which revision a request speaks, which the rooms that answer it read.
 */

import {
  type CacheScope,
  PROTOCOL_VERSION_META_KEY,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { igniteTools } from "#compat";
import { withDefaults } from "../../bridge/default-options.js";
import { partsOf } from "../../bridge/pipeline.js";
import { isRecord } from "../../core/json.js";
import type { AgentComponent, RuntimeEvent } from "../../core/types.js";
import { type McpEmbeddedResource, mcp } from "../../dialects/mcp/dialect.js";
import { DEFAULT_MAX_RESULT_CHARS } from "../../wire/result-text.js";
import { type Asking, asking } from "./asked.js";
import type { OutputCheck } from "./results.js";
import type { McpServerFactoryOptions, McpView } from "./types.js";

/** What every server of one component shares. */
export interface Host<S, E extends RuntimeEvent> {
  readonly component: AgentComponent<S, E>;
  readonly bridge: ReturnType<typeof bridgeOf<S, E>>["bridge"];
  readonly dialect: ReturnType<typeof bridgeOf<S, E>>["dialect"];
  readonly asked: Asking;
  readonly output: OutputCheck<S, E>;
  readonly cache: { readonly ttlMs: number; readonly cacheScope: CacheScope };
  /** Looks at the tool list again: each watcher's, called after every call is answered. */
  readonly looks: Set<() => void>;
  /**
   * The resources the calls answered with (embedded `resource` blocks), by URI, the latest
   * `RETURNED_KEPT` of them: what `resources/read` gives back when the application's own
   * resources have nothing at that URI. Present when the bridge carries content parts.
   */
  readonly returned: Map<string, McpEmbeddedResource["resource"]> | undefined;
  /** The MCP App view the tools link to, if the application gave one. */
  readonly view: McpView | undefined;
}

/** How many resources returned by calls a host keeps readable (the oldest forgotten first). */
export const RETURNED_KEPT = 256;

/**
 * `resource`, kept readable by its URI among the latest `RETURNED_KEPT`: a URI returned again
 * moves to the newest.
 */
export function keep(
  returned: Map<string, McpEmbeddedResource["resource"]>,
  resource: McpEmbeddedResource["resource"],
): void {
  returned.delete(resource.uri);
  returned.set(resource.uri, resource);
  for (const oldest of returned.keys()) {
    if (returned.size <= RETURNED_KEPT) break;
    returned.delete(oldest);
  }
}

/** The one bridge of `component` and its `mcp` dialect, each given only its own options. */
function bridgeOf<S, E extends RuntimeEvent>(
  component: AgentComponent<S, E>,
  options: McpServerFactoryOptions<S, E>,
  returned: Host<S, E>["returned"],
) {
  // A resource over the size cap is kept with the returned ones and linked to, not left out.
  const dialect = mcp(
    returned ? { ...options, keepOverCap: (resource) => keep(returned, resource) } : options,
  );
  // The bridge is given its own options only: on Node it tells `onWarning` of any other key.
  const {
    maxResultChars,
    requestStateKey,
    approvalTtlSeconds,
    ledger,
    listTtlMs,
    resources,
    view,
    serverInfo,
    bus,
    ...bridgeOptions
  } = options;
  const bridge = igniteTools(component, dialect, {
    ...bridgeOptions,
    offer: options.offer ?? "declared",
  });
  return { dialect, bridge };
}

/**
 * What the servers of `component` share, made and checked once: `who` names the function given
 * `options`, in a TypeError for a bad one.
 */
export function hostOf<S, E extends RuntimeEvent>(
  who: string,
  component: AgentComponent<S, E>,
  options: McpServerFactoryOptions<S, E>,
): Host<S, E> {
  const returned =
    options.content === undefined ? undefined : new Map<string, McpEmbeddedResource["resource"]>();
  const { dialect, bridge } = bridgeOf(component, options, returned);
  // Read now, so a malformed schema is a TypeError here rather than at the client's first list.
  bridge.toToolDefs();
  // A command named app-only that is not declared is a typo: said now, not by a missing tool.
  const commands = new Set(
    partsOf(bridge, who)
      .declared()
      .map((tool) => tool.name),
  );
  const unknown = options.view?.appOnly?.find((name) => !commands.has(name));
  if (unknown !== undefined) {
    throw new TypeError(
      `${who}: view's appOnly names ${JSON.stringify(unknown)}, which the component does not declare`,
    );
  }
  const declared = (options.offer ?? "declared") === "declared";
  return {
    component,
    bridge,
    dialect,
    asked: asking(who, options),
    output: {
      component,
      dialect,
      validator: withDefaults(options).validator,
      maxChars: options.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    },
    cache: declared
      ? { ttlMs: options.listTtlMs ?? 60_000, cacheScope: "public" }
      : { ttlMs: 0, cacheScope: "private" },
    looks: new Set(),
    returned,
    view: options.view,
  };
}

/** Whether the request was made under the 2026-07-28 revision (it carries the per-request envelope). */
export function isModern(ctx: ServerContext): boolean {
  const envelope: unknown = ctx.mcpReq.envelope;
  return isRecord(envelope) && typeof envelope[PROTOCOL_VERSION_META_KEY] === "string";
}
