/**
 * The component the official MCP conformance suite calls, served by `serveMcpHttp` over
 * Streamable HTTP on `/mcp` to clients of both revisions: each tool is a command named and shaped
 * as the suite's scenarios state (`@modelcontextprotocol/conformance` 0.2.0-alpha.12 and 0.1.16),
 * served through the public entrypoints with nothing added beside them. src/tests/hosts runs the
 * suite against it; docs/serving.md lists the scenarios a tool bridge does not serve, and why.
 *
 *   PORT=3001 node --import tsx examples/mcp-server/conformance.ts
 *   npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server \
 *     --url http://127.0.0.1:3001/mcp --spec-version 2026-07-28 --scenario tools-list
 */
import { pathToFileURL } from "node:url";
// Relative, not "ignite-element/tools/…", for the reason given in server.ts.
import { approval } from "../../src/tools/approval/approval.js";
import { contentParts } from "../../src/tools/content/content.js";
import type { ApprovalPolicy, Question } from "../../src/tools/core/approval.js";
import type { ContentPart } from "../../src/tools/core/content.js";
import type { AgentComponent, AgentSchema } from "../../src/tools/core/types.js";
import { type McpHttpServer, serveMcpHttp } from "../../src/tools/hosts/mcp/http.js";
import type { McpResourceEntry } from "../../src/tools/hosts/mcp/types.js";

const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

// The input of `json_schema_2020_12_tool`, as the suite declares it: a `$ref` to a definition
// with an `$anchor`, composition and conditional keywords at the root. Listed as it is.
const contactInput = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

// A 1×1 red PNG and the smallest WAV (a header, no samples): what the media scenarios ask for.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
const image: ContentPart = { type: "image", data: PNG, mimeType: "image/png" };

/** What each media scenario's tool answers with beside its state: content parts. */
const MEDIA: Record<string, ContentPart[]> = {
  test_image_content: [image],
  test_audio_content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  test_embedded_resource: [
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ],
  test_multiple_content_types: [
    { type: "text", text: "Multiple content types test:" },
    image,
    {
      type: "resource",
      resource: {
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: '{"test":"data","value":123}',
      },
    },
  ],
};

/** Commands whose calls the approval policy puts to the person to confirm. */
const ASKED = new Set([
  "test_input_required_result_request_state",
  "test_input_required_result_tampered_state",
  "test_streaming_elicitation",
]);

/** A question with one text field, `field`: the suite's elicitation scenarios ask such. */
const textQuestion = (message: string, field: string): Question => ({
  message,
  schema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

/**
 * The questions each of the suite's question-asking tools puts to the person, round by round: the
 * policy asks the first one not answered yet, and lets the call run once all are.
 */
const ROUNDS: Record<string, [string, Question][]> = {
  test_input_required_result_elicitation: [
    ["user_name", textQuestion("What is your name?", "name")],
  ],
  test_input_required_result_multi_round: [
    ["step1", textQuestion("Step 1: What is your name?", "name")],
    ["step2", textQuestion("Step 2: What is your favorite color?", "color")],
  ],
};

/** The policy: the suite's question rounds, a confirmation for `ASKED`, every other call runs. */
const policy: ApprovalPolicy = ({ route }) => {
  const rounds = ROUNDS[route.command];
  const next = rounds?.find(([key]) => route.answers?.[key] === undefined);
  if (next) return { ask: { [next[0]]: next[1] } };
  return ASKED.has(route.command) ? "ask" : "allow";
};

/** The conformance component: what each scenario calls, and a switch the list follows. */
export function conformanceComponent(): AgentComponent<string, never> {
  // `test_trigger_tool_change` flips it; `test_changing_tool` is offered while it is on, so the
  // tools available change and clients listening hear `list_changed`.
  let extra = false;
  const schema: AgentSchema = {
    commands: {
      test_simple_text: { description: "Answers with a simple text.", readOnly: true },
      test_error_handling: { description: "Always fails." },
      test_tool_with_logging: { description: "Logs three lines at info while it runs." },
      test_logging_tool: { description: "Logs a line at info while it runs." },
      test_tool_with_progress: { description: "Reports 0, 50 and 100 of 100 while it runs." },
      json_schema_2020_12_tool: {
        description: "Takes an input declared with JSON Schema 2020-12 keywords.",
        input: contactInput,
      },
      test_reconnection: { description: "Answers on the call's SSE stream." },
      test_trigger_tool_change: { description: "Changes which tools are available." },
      test_changing_tool: { description: "Available after a tool change.", gated: true },
      ...Object.fromEntries(
        [...ASKED].map((name) => [name, { description: "Runs once the person allows it." }]),
      ),
      ...Object.fromEntries(
        Object.keys(ROUNDS).map((name) => [name, { description: "Asks the person first." }]),
      ),
      ...Object.fromEntries(
        Object.keys(MEDIA).map((name) => [name, { description: "Answers with content parts." }]),
      ),
    },
  };
  return {
    getSchema: () => schema,
    canExecute: (command) => command !== "test_changing_tool" || extra,
    execute: async (command, _input, context) => {
      switch (command) {
        case "test_error_handling":
          throw new Error("This tool intentionally returns an error for testing");
        case "test_tool_with_logging":
        case "test_logging_tool":
          context?.log("info", "Tool execution started");
          await pause();
          context?.log("info", "Tool processing data");
          await pause();
          context?.log("info", "Tool execution completed");
          return { state: "logged", events: [] };
        case "test_tool_with_progress":
          for (const progress of [0, 50, 100]) {
            if (progress > 0) await pause();
            context?.progress({ progress, total: 100 });
          }
          return { state: "done", events: [] };
        case "test_trigger_tool_change":
          extra = !extra;
          return { state: extra ? "test_changing_tool is available" : "it is not", events: [] };
        case "test_input_required_result_request_state":
          // Run only after the retry carried a requestState the server verified.
          return { state: "state-ok: the request state was verified", events: [] };
        case "test_input_required_result_elicitation":
          return { state: `Hello, ${context?.answers?.user_name?.name}!`, events: [] };
        case "test_input_required_result_multi_round": {
          const { step1, step2 } = context?.answers ?? {};
          return { state: `${step1?.name} likes ${step2?.color}`, events: [] };
        }
        default: {
          const content = MEDIA[command];
          if (content) return { state: command, events: [], content };
          return { state: "This is a simple text response for testing.", events: [] };
        }
      }
    },
  };
}

/** The resources the suite reads: a text, an image, and a template of JSON documents. */
export const CONFORMANCE_RESOURCES: McpResourceEntry[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    description: "A text that never changes.",
    mimeType: "text/plain",
    read: () => ({ text: "This is the content of the static text resource." }),
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    description: "A 1×1 red PNG.",
    mimeType: "image/png",
    read: () => ({ blob: PNG }),
  },
  {
    uriTemplate: "test://template/{id}/data",
    name: "template-data",
    description: "The data of one id, as JSON.",
    mimeType: "application/json",
    read: (_uri, { id }) => ({
      text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    }),
  },
];

/** Serves a fresh conformance component on 127.0.0.1 (`port` 0 picks a free one) at `/mcp`. */
export function serveConformance(port = 0): Promise<McpHttpServer> {
  return serveMcpHttp(conformanceComponent(), {
    port,
    serverInfo: { name: "ignite-conformance", version: "1.0.0" },
    offer: "available",
    content: contentParts(),
    approve: approval(policy),
    resources: CONFORMANCE_RESOURCES,
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await serveConformance(Number(process.env.PORT ?? 3001));
  console.log(`The conformance component is served over MCP at ${url}`);
}
