/**
 * An in-memory `ModelContext` that behaves as Chromium 156's does (observed, see
 * webmcp-browser.test.ts for the real one): `registerTool` returns a promise, refuses a duplicate
 * name, an empty description and a name outside `[A-Za-z0-9_.-]{1,128}`; aborting the signal
 * removes the tool at once; there is no `unregisterTool`; calls are not validated and run
 * concurrently. The agent's side is `tools()` and `callTool()`.
 */
import type {
  ModelContextClientLike,
  ModelContextLike,
  WebMcpTool,
  WebMcpToolResult,
} from "ignite-element/tools/webmcp";

export class FakeModelContext implements ModelContextLike {
  readonly #tools = new Map<string, WebMcpTool>();
  /** Every `registerTool` call, refused ones included. */
  readonly registrations: string[] = [];

  registerTool(tool: WebMcpTool, options: { signal: AbortSignal }): Promise<void> {
    this.registrations.push(tool.name);
    const { signal } = options;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#tools.has(tool.name)) return Promise.reject(refusal("Duplicate tool name"));
    if (tool.description === "") return Promise.reject(refusal("Description is required"));
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(tool.name)) {
      return Promise.reject(refusal("Invalid tool name"));
    }
    this.#tools.set(tool.name, tool);
    return new Promise((resolve, reject) => {
      signal.addEventListener("abort", () => {
        if (this.#tools.get(tool.name) === tool) this.#tools.delete(tool.name);
        reject(signal.reason);
      });
      // Settled a task later, as the browser does: an abort before then rejects it.
      setTimeout(resolve, 0);
    });
  }

  /** The tools registered now, as the agent lists them. */
  tools(): Omit<WebMcpTool, "execute">[] {
    return [...this.#tools.values()].map(({ execute: _execute, ...definition }) => definition);
  }

  names(): string[] {
    return [...this.#tools.keys()].sort();
  }

  /**
   * Calls a tool as the agent does: the input unchecked, `{}` when there is none, and a client
   * object — without `requestUserInteraction` unless one is given, as Chromium 156 passes it.
   */
  async callTool(
    name: string,
    input: unknown = {},
    client: ModelContextClientLike = {},
  ): Promise<WebMcpToolResult> {
    const tool = this.#tools.get(name);
    if (!tool) throw new Error(`No WebMCP tool named "${name}"`);
    return tool.execute(input, client);
  }
}

function refusal(message: string): Error {
  const error = new Error(message);
  error.name = "InvalidStateError";
  return error;
}

/** The text of a one-block result. */
export function textOf(result: WebMcpToolResult): string {
  return result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
