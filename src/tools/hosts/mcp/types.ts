/**
 * The public types of the MCP host, apart from the code that reads them so that every room may
 * name them and `server.ts` re-exports them: the options of `serveMcp` and `mcpServerFactory`,
 * the factory's own type, and what the SDK tells it about each `Server` it asks for.
 */
import type { Server, ServerEventBus } from "@modelcontextprotocol/server";
import type { IgniteToolsOptions } from "../../bridge/types.js";
import type { CallLedger } from "../../core/ledger.js";
import type { RuntimeEvent, ToolOffer } from "../../core/types.js";
import type { McpOptions } from "../../dialects/mcp/dialect.js";

/** Options of `serveMcp`: the bridge's (`igniteTools`), the dialect's (`mcp`) and the host's. */
export interface ServeMcpOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends IgniteToolsOptions<S, E>,
    // The host keeps what is over the cap itself, with `content` (see `resources`).
    Omit<McpOptions, "keepOverCap"> {
  /**
   * Which commands `tools/list` answers with. `"declared"`: every declared command, whatever the
   * state — a gated command's description ends with its `availableWhen`, and a call made while it
   * is unavailable is answered `Unavailable` saying when it will be; the list changes only when the
   * declarations do, so a 2026-07-28 client may cache it (`listTtlMs`). `"available"`: the
   * commands available now, with `notifications/tools/list_changed` each time that changes — only
   * for clients that list the tools again when told (many hosts keep the first list: see
   * docs/serving.md); its lists are never cached (`ttlMs: 0`).
   *
   * @default "declared"
   */
  offer?: ToolOffer;
  /**
   * The HMAC key (at least 32 bytes) that signs the `requestState` of an approval asked of a
   * 2026-07-28 client: the state carries the held call, and the retry that brings the person's
   * answer is refused unless it verifies. Give every server node the same key, so that the
   * answer may reach any of them.
   *
   * @default 32 random bytes drawn for this process
   */
  requestStateKey?: string | Uint8Array;
  /**
   * How long the person has to answer an approval, in seconds: a retry with an older state is
   * refused. @default 600
   */
  approvalTtlSeconds?: number;
  /**
   * Where an approved call is claimed and recorded before and after it runs, so that the retry
   * carrying the person's answer runs it once however often it is delivered, and on whichever
   * node: give every node the same durable ledger (`ignite-element/tools/ledger-redis`,
   * `…/ledger-postgres`).
   *
   * @default the process's own in-memory ledger
   */
  ledger?: CallLedger;
  /**
   * How long a 2026-07-28 client may reuse a `tools/list` answer under `offer: "declared"`, in
   * milliseconds (its `ttlMs`; `cacheScope` is `"public"`: the list is the same for every caller).
   * @default 60_000
   */
  listTtlMs?: number;
  /**
   * What the server offers as resources beside the tools: each a fixed resource (`uri`) or a
   * template of them (`uriTemplate`, RFC 6570, e.g. `"orders://{id}/receipt"`), with what
   * `resources/list` and `resources/templates/list` show of it and the `read` that answers
   * `resources/read`. An unknown URI is answered the protocol's resource-not-found error.
   *
   * @default undefined — no resources capability
   */
  resources?: readonly McpResourceEntry[];
  /**
   * The component's own element as an MCP App view (the extension `io.modelcontextprotocol/ui`),
   * made by `mcpAppView` from `ignite-element/tools/mcp-app`: the server offers it as a `ui://`
   * resource and links the commands' tools to it (`_meta.ui.resourceUri`), so a host that renders
   * apps shows it beside the conversation. See docs/apps.md.
   *
   * @default undefined — no view
   */
  view?: McpView;
}

/**
 * A view the server offers and links its tools to: what `mcpAppView` makes. Its `resource` is
 * served beside the application's own; `toolMeta` gives the `_meta` of the tool for a command.
 */
export interface McpView {
  /** The view's `ui://` resource. */
  readonly resource: McpResource;
  /** The `_meta` the tool for `command` carries (its link to the view), or none. */
  toolMeta(command: string): Readonly<Record<string, unknown>> | undefined;
  /** The commands meant only for the person (visible to the view, not the model). */
  readonly appOnly?: readonly string[];
  /**
   * Where the view reads the component's state between calls: the server serves the component's
   * `getSnapshot()` there as JSON, when it has one, so a change made outside calls reaches the view.
   */
  readonly stateUri?: string;
}

/** A text, or bytes as base64 (`blob`): what a resource holds when it is read. */
export type McpResourceContents =
  | { readonly text: string; readonly mimeType?: string }
  | { readonly blob: string; readonly mimeType?: string };

/** What `resources/list` (or `resources/templates/list`) shows of a resource. */
interface McpResourceInfo {
  /** Its name, a short identifier. */
  readonly name: string;
  /** What a person reads as its name. */
  readonly title?: string;
  readonly description?: string;
  /** Of its contents, unless `read` says otherwise. */
  readonly mimeType?: string;
  /**
   * Metadata the list entry and the read contents carry as `_meta` (an MCP App view's
   * `{ ui: { csp, prefersBorder } }`).
   */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** One fixed resource the server offers. */
export interface McpResource extends McpResourceInfo {
  readonly uri: string;
  /** Its contents now. A throw or rejection is answered as the read's error. */
  read(): McpResourceContents | PromiseLike<McpResourceContents>;
}

/** A template of resources: every URI it matches, its variables read out of it. */
export interface McpResourceTemplate extends McpResourceInfo {
  /** An RFC 6570 URI template, e.g. `"orders://{id}/receipt"`. */
  readonly uriTemplate: string;
  /**
   * The contents of the resource at `uri`, its template's variables given (`{ id: "42" }`);
   * `undefined` when there is none, answered resource-not-found.
   */
  read(
    uri: string,
    variables: Readonly<Record<string, string | string[]>>,
  ): McpResourceContents | undefined | PromiseLike<McpResourceContents | undefined>;
}

/** A resource, or a template of them, as `resources` takes them. */
export type McpResourceEntry = McpResource | McpResourceTemplate;

/** Options of `mcpServerFactory`: `serveMcp`'s, and what each `Server` it makes is given. */
export interface McpServerFactoryOptions<S = unknown, E extends RuntimeEvent = RuntimeEvent>
  extends ServeMcpOptions<S, E> {
  /** The name and version the server gives. @default { name: "ignite-element", version: "1.0.0" } */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /**
   * Where a change of the tool list is published for 2026-07-28 clients listening with
   * `subscriptions/listen`: the same bus given to `createMcpHandler` (`options.bus`), which
   * delivers it on every open subscription stream.
   */
  readonly bus?: ServerEventBus;
}

/**
 * A factory of SDK `Server`s bound to one component, as `createMcpHandler` and `serveStdio`
 * take it (`McpServerFactory`): every `Server` shares one bridge (one queue, one component), the
 * approvals' signing key and the ledger.
 */
export interface IgniteMcpServerFactory {
  (context?: McpServerContext): Server;
  /** Stops watching the component; the servers already made keep answering. */
  close(): void;
}

/**
 * What `createMcpHandler` and `serveStdio` tell a factory about the `Server` they ask for (the
 * SDK's `McpRequestContext`, as far as the factory reads it).
 */
export interface McpServerContext {
  /** The revision the server will speak: `"modern"` for 2026-07-28, `"legacy"` for 2025-11-25. */
  readonly era?: "legacy" | "modern";
  /**
   * The HTTP request the server answers, when it serves one request only (`createMcpHandler`
   * sets it); without it, the server lives as long as its connection (`serveStdio`, a session).
   */
  readonly requestInfo?: Request;
}
