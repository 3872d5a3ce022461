/// <reference lib="dom" />
/**
 * A host page, as an MCP Apps host is: it connects to the MCP server over Streamable HTTP, reads
 * the view a tool links to, renders it in a sandboxed iframe, bridges it with the extension's
 * `AppBridge` (which forwards the view's calls to the server), makes the model's call and pushes
 * its result to the view, and keeps what the view tells the model.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

declare global {
  interface Window {
    told: unknown[];
    ready: boolean;
    failed: string | undefined;
  }
}

async function host(): Promise<void> {
  const endpoint = new URL(location.href).searchParams.get("mcp") ?? "";
  const client = new Client({ name: "host-page", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  const { tools } = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === "setTarget");
  const ui = tool?._meta?.ui as { resourceUri?: string } | undefined;
  const {
    contents: [view],
  } = await client.readResource({ uri: ui?.resourceUri ?? "" });
  if (view === undefined || !("text" in view)) throw new Error("no view");

  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.srcdoc = view.text;
  document.body.append(iframe);
  const bridge = new AppBridge(
    client,
    { name: "host-page", version: "1.0.0" },
    { serverTools: {}, updateModelContext: { text: {} } },
  );
  window.told = [];
  bridge.onupdatemodelcontext = async (params) => {
    window.told.push(params);
    return {};
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  const frame = iframe.contentWindow;
  if (frame === null) throw new Error("no frame");
  await bridge.connect(new PostMessageTransport(frame, frame));
  await initialized;

  // The model's call, and its result pushed to the view.
  const result = await client.callTool({ name: "setTarget", arguments: { celsius: 22 } });
  await bridge.sendToolResult(result);
  window.ready = true;
}

host().catch((error: unknown) => {
  window.failed = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
});
