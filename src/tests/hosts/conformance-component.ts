import type { AgentComponent } from "ignite-element/tools";

const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * The component the MCP conformance suite's tool scenarios call, by the names and behaviour each
 * scenario's source states (`@modelcontextprotocol/conformance` 0.1.16): a plain text result, a
 * failing command, log lines and progress while running, an input schema with JSON Schema
 * 2020-12 keywords, and a call for the SSE polling scenario.
 */
export const conformanceComponent: AgentComponent<string, never> = {
  getSchema: () => ({
    commands: {
      test_simple_text: { description: "Answers with a simple text.", readOnly: true },
      test_error_handling: { description: "Always fails." },
      test_tool_with_logging: { description: "Logs three lines at info while it runs." },
      test_tool_with_progress: { description: "Reports 0, 50 and 100 of 100 while it runs." },
      json_schema_2020_12_tool: {
        description: "Takes an input declared with JSON Schema 2020-12 keywords.",
        input: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          $defs: {
            address: {
              type: "object",
              properties: { street: { type: "string" }, city: { type: "string" } },
            },
          },
          properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
          additionalProperties: false,
        },
      },
      test_reconnection: { description: "Answers on the call's SSE stream." },
    },
  }),
  execute: async (command, _input, context) => {
    switch (command) {
      case "test_error_handling":
        throw new Error("This tool intentionally returns an error for testing");
      case "test_tool_with_logging":
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
      default:
        return { state: "This is a simple text response for testing.", events: [] };
    }
  },
};
