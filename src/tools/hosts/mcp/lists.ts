/**
 * The tool list and its changes: `tools/list` (with the 2026-07-28 cache hints), watching the
 * component for a change of what it offers, and telling a client of it — `list_changed` on a
 * lasting connection, at once or after the call it made, on that call's own stream. Kept apart
 * from answering calls, which reach it only through the `Answered` it returns.
 */
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { partsOf } from "../../bridge/pipeline.js";
import { isRecord } from "../../core/json.js";
import type { RuntimeEvent } from "../../core/types.js";
import type { McpTool, McpToolList } from "../../dialects/mcp/dialect.js";
import { type Host, isModern } from "./host.js";
import type { McpView } from "./types.js";

/**
 * How a `tools/call` is answered: `answer` run with the call counted as running when `counted`
 * (a layer's own tool, the wait, is not), and the changes of the tool list told after it.
 */
export type Answered = <A>(
  ctx: ServerContext,
  counted: boolean,
  answer: () => Promise<A>,
) => Promise<A>;

/**
 * Calls `changed` once each time the tool list the component offers differs from the last one
 * seen — after a call, or when the component's `subscribe` says its state moved (many changes in
 * one tick are one look). Returns the function that stops watching.
 */
export function watch<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  changed: (now: string) => void,
): () => void {
  let known = JSON.stringify(host.bridge.toToolDefs());
  let scheduled = false;
  let stopped = false;
  const look = () => {
    if (scheduled || stopped) return;
    scheduled = true;
    void Promise.resolve().then(() => {
      scheduled = false;
      let now: string;
      try {
        now = JSON.stringify(host.bridge.toToolDefs());
      } catch {
        return; // getSchema() threw: each call reports it
      }
      if (now === known || stopped) return;
      known = now;
      changed(now);
    });
  };
  const unsubscribe = host.component.subscribe?.(look);
  host.looks.add(look);
  return () => {
    stopped = true;
    unsubscribe?.();
    host.looks.delete(look);
  };
}

/**
 * Sets `server`'s `tools/list` handler. A server that lives as long as its connection (`lasting`)
 * also announces each change of the tool list on it. Returns how its calls are answered, and the
 * function that stops announcing (it leaves the handler to whoever removes it).
 */
export function listTools<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  server: Server,
  lasting: boolean,
): [Answered, () => void] {
  const { bridge, cache } = host;
  let detached = false;

  // A lasting connection is told of each change of the tool list. The server's own notification
  // needs a stream the client may not hold (on Streamable HTTP, its GET stream), so it may never
  // arrive: a change while a call runs, or one the client may have missed, is announced when the
  // call is answered, on its own stream, before its result. A layer's own tool (the wait) is not
  // counted: it may last long, and what happens meanwhile is announced at once.
  // The tool list the client was last given or told about (`known`), and the one it surely has
  // (`seen`): one it listed, or a change announced on one of its own calls.
  let known = lasting ? JSON.stringify(bridge.toToolDefs()) : "";
  let seen = known;
  let running = 0;
  const announce = (now: string) => {
    // The client was told already, or hears of it after its call.
    if (now === known || running > 0 || detached) return;
    known = now;
    server.sendToolListChanged().catch(() => undefined);
  };
  const stop = lasting ? watch(host, announce) : undefined;
  const announceTo = async (ctx: ServerContext) => {
    let now: string;
    try {
      now = JSON.stringify(bridge.toToolDefs());
    } catch {
      return;
    }
    if ((now === known && now === seen) || detached) return;
    // A cancelled request's stream may be gone: its change goes out like any other. A 2026-07-28
    // client hears of changes on its `subscriptions/listen` stream only, where `serveStdio`
    // routes the server's own notification.
    if (ctx.mcpReq.signal.aborted || isModern(ctx)) return announce(now);
    seen = known = now;
    await ctx.mcpReq.notify({ method: "notifications/tools/list_changed" }).catch(() => undefined);
  };

  const linked = host.view ? viewLinks(host, host.view) : (tools: McpToolList) => tools;
  server.setRequestHandler("tools/list", (_request, ctx) => {
    const tools = bridge.toToolDefs();
    if (lasting) seen = known = JSON.stringify(tools);
    const listed = linked(tools);
    // Cache hints are a 2026-07-28 field: a 2025-11-25 client is answered as before.
    return isModern(ctx) ? { ...listed, ...cache } : listed;
  });

  const answered: Answered = async (ctx, counted, answer) => {
    if (counted) running += 1;
    let result: Awaited<ReturnType<typeof answer>>;
    try {
      result = await answer();
    } finally {
      if (counted) running -= 1;
    }
    if (lasting) await announceTo(ctx);
    for (const look of host.looks) look();
    return result;
  };
  return [
    answered,
    () => {
      detached = true;
      stop?.();
    },
  ];
}

/**
 * The tool list with each command's tool linked to `view` (its `_meta`), made once per list the
 * bridge gives: a layer's own tools (the wait, the search) are no command's, and show no view.
 * A command the list leaves out — deferred behind the search and `call_tool`, on demand — is
 * listed all the same, visible to the view alone (`visibility: ["app"]`): a host rejects an app's
 * call to a tool it was not listed with, and the model, which the host shows only the others,
 * still reads the search and `call_tool` alone.
 */
function viewLinks<S, E extends RuntimeEvent>(
  host: Host<S, E>,
  view: McpView,
): (tools: McpToolList) => McpToolList {
  const parts = partsOf<S, E>(host.bridge, "serveMcp");
  const { beside } = parts.pipeline;
  const linked = (tool: McpTool, meta: Readonly<Record<string, unknown>> | undefined) =>
    meta === undefined ? tool : { ...tool, _meta: { ...tool._meta, ...meta } };
  let from: McpToolList | undefined;
  let to: McpToolList = { tools: [] };
  return (tools) => {
    if (tools === from) return to;
    from = tools;
    const listed = new Set(tools.tools.map((tool) => tool.name));
    const all = parts.listed();
    const deferred =
      listed.size >= all.length
        ? []
        : host.dialect
            .toToolDefs(all, { declared: parts.declared() })
            .tools.filter((tool) => !listed.has(tool.name) && !beside(tool.name));
    to = {
      ...tools,
      tools: [
        ...tools.tools.map((tool) =>
          linked(tool, beside(tool.name) ? undefined : view.toolMeta(tool.name)),
        ),
        ...deferred.map((tool) => linked(tool, appOnly(view.toolMeta(tool.name)))),
      ],
    };
    return to;
  };
}

/** A tool's link to the view, made visible to the view alone. */
function appOnly(
  meta: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> {
  const ui = isRecord(meta?.ui) ? meta.ui : {};
  return { ...meta, ui: { ...ui, visibility: ["app"] } };
}
