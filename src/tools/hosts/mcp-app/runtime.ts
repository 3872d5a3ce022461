/**
 * The runtime inside an MCP App view (`ignite-element/tools/mcp-app-view`): the server's component
 * as the view's element sees it, through the host, on the extension's `App`. The state is the one
 * each result the host pushes shows (a call the model made, or the view's own); the input of the
 * call the host is running arrives while it streams; a person's click runs the same command
 * through the same bridge on the server — validated, gated, approved, executed once — and the
 * model is told what the person did (`ui/update-model-context`). `mcpAppView` bundles it into the
 * view's document and hands the element its component.
 */
import { App } from "@modelcontextprotocol/ext-apps";
import { isRecord } from "../../core/json.js";
import type { ExecuteResult, RuntimeEvent } from "../../core/types.js";

/** The server's component, as a view's element reads and drives it. */
export interface ViewComponent<S = unknown, E extends RuntimeEvent = RuntimeEvent> {
  /** The state as the last result showed it; `undefined` before the first. */
  getSnapshot(): S | undefined;
  /** The input of the call the host is running, while it streams and once whole; else `undefined`. */
  readonly input: Readonly<Record<string, unknown>> | undefined;
  /** Hears each change of the state or of the input; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** Hears each event a result carries; returns the function that stops it. */
  onEvent(listener: (event: E) => void): () => void;
  /**
   * Runs `command` on the server through the host, as the person's act, and tells the model what
   * they did. Rejects with the server's answer when the call is refused or fails: nothing ran
   * twice, and the state is as it was.
   */
  execute(command: string, input?: Readonly<Record<string, unknown>>): Promise<ExecuteResult<S, E>>;
}

/** A tool result as the host pushes it and `callServerTool` answers it. */
type ToolResult = Awaited<ReturnType<App["callServerTool"]>>;

/** Options of `viewComponent`. */
export interface ViewOptions {
  /**
   * The resource where the server serves the component's state between calls (`McpView.stateUri`,
   * which `mcpAppView` gives its runtime): read through the host every `refreshMs`, so a change
   * made outside calls reaches the view. Without it, the view shows the state of each result.
   */
  stateUri?: string;
  /** How often the state is read, in milliseconds. @default 2000 */
  refreshMs?: number;
}

/**
 * The component `app` mirrors. Call it before `app.connect()`: the host may send the first result
 * as soon as the view is ready.
 */
export function viewComponent<S = unknown, E extends RuntimeEvent = RuntimeEvent>(
  app: App,
  options: ViewOptions = {},
): ViewComponent<S, E> {
  let snapshot: S | undefined;
  let input: Readonly<Record<string, unknown>> | undefined;
  const listeners = new Set<() => void>();
  const hearers = new Set<(event: E) => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  // What a result shows of the component: its observation, when it is one whole.
  const observed = (result: ToolResult): { snapshot: S; events: E[] } | undefined => {
    const value: unknown = result.structuredContent;
    if (result.isError || !isRecord(value) || !("snapshot" in value)) return undefined;
    const events = Array.isArray(value.events) ? (value.events as E[]) : [];
    return { snapshot: value.snapshot as S, events };
  };
  const shown = (result: ToolResult) => {
    const observation = observed(result);
    if (observation === undefined) return undefined;
    snapshot = observation.snapshot;
    input = undefined;
    changed();
    for (const event of observation.events) for (const hear of [...hearers]) hear(event);
    return observation;
  };
  app.ontoolinputpartial = ({ arguments: given }) => {
    input = given;
    changed();
  };
  app.ontoolinput = ({ arguments: given }) => {
    input = given;
    changed();
  };
  app.ontoolresult = (result) => {
    shown(result);
  };
  const { stateUri, refreshMs = 2_000 } = options;
  if (stateUri !== undefined) {
    // The state between calls, read through the host once it is connected and serves resources.
    let reading = false;
    const read = async () => {
      if (reading || !app.getHostCapabilities()?.serverResources) return;
      reading = true;
      try {
        const [contents] = (await app.readServerResource({ uri: stateUri })).contents;
        const text = contents && "text" in contents ? contents.text : undefined;
        if (text !== undefined && text !== JSON.stringify(snapshot)) {
          snapshot = JSON.parse(text) as S;
          changed();
        }
      } catch {
        // The host or the server could not answer now: the view keeps what it shows.
      } finally {
        reading = false;
      }
    };
    const timer = setInterval(read, refreshMs);
    const closed = app.onclose;
    app.onclose = () => {
      clearInterval(timer);
      closed?.();
    };
  }
  return {
    getSnapshot: () => snapshot,
    get input() {
      return input;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onEvent(listener) {
      hearers.add(listener);
      return () => hearers.delete(listener);
    },
    async execute(command, given = {}) {
      const result = await app.callServerTool({ name: command, arguments: { ...given } });
      const observation = shown(result);
      if (observation === undefined) throw new Error(textOf(result));
      // The person acted where the model cannot see: tell it, for its next turn.
      if (app.getHostCapabilities()?.updateModelContext) {
        const text = `The person ran ${command} ${JSON.stringify(given)} in the view. The state is now ${JSON.stringify(snapshot)}.`;
        await app.updateModelContext({ content: [{ type: "text", text }] }).catch(() => undefined);
      }
      return { state: observation.snapshot, events: observation.events };
    },
  };
}

/** The first text of a result: what the server said of a call it refused. */
function textOf(result: ToolResult): string {
  const [first] = result.content ?? [];
  return first?.type === "text" ? first.text : "the call was answered without a state";
}

/**
 * Connects the view to its host and gives `element` (its tag name, or the element) the server's
 * component as its `component` property. What `mcpAppView` runs in the view's document, where
 * the host is the parent window (`transport`, by default the extension's `PostMessageTransport`).
 */
export async function startView(
  element: string | object,
  options?: ViewOptions,
  transport?: Parameters<App["connect"]>[0],
): Promise<App> {
  const found = typeof element === "string" ? inDocument(element) : element;
  const name = typeof element === "string" ? element : "view";
  // The size reports go to a host that shows the view; elsewhere there is no layout to report.
  const app = new App({ name, version: "1.0.0" }, {}, { autoResize: transport === undefined });
  const component = viewComponent(app, options);
  if (found) Reflect.set(found, "component", component);
  await app.connect(transport);
  return app;
}

/** The first element `selector` finds in the page's document (no DOM types: a neutral module). */
function inDocument(selector: string): object | undefined {
  const document: unknown = Reflect.get(globalThis, "document");
  if (!isRecord(document) || typeof document.querySelector !== "function") return undefined;
  const found: unknown = document.querySelector(selector);
  return typeof found === "object" && found !== null ? found : undefined;
}
