/**
 * The OpenAI Agents SDK tests' model server: a recording server, cleared before each test, that
 * an OpenAI client talks to (`client()`, for the SDK's OpenAI models), with the SDK's tracing off.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { type OpenAIChatCompletionsModel, setTracingDisabled } from "@openai/agents";
import { beforeAll, beforeEach } from "vitest";
import { useRecordingServer } from "../clients/recording-server.js";

/**
 * The OpenAI client the SDK's models take: that of the `openai` the Agents SDK depends on (7.x
 * since 0.15), not this repository's (6.x, for the openai dialect's tests).
 */
type AgentsOpenAI = ConstructorParameters<typeof OpenAIChatCompletionsModel>[0];
type AgentsOpenAIClass = new (options: {
  baseURL: string;
  apiKey: string;
  maxRetries: number;
}) => AgentsOpenAI;

/** The `OpenAI` class of the `openai` package `@openai/agents-openai` resolves. */
async function agentsOpenAI(): Promise<AgentsOpenAIClass> {
  const sdk = createRequire(import.meta.url).resolve("@openai/agents-openai");
  const openai = createRequire(sdk).resolve("openai");
  const loaded = (await import(pathToFileURL(openai).href)) as { OpenAI: AgentsOpenAIClass };
  return loaded.OpenAI;
}

/** The server and client for the tests that follow, in the file or `describe` it is called in. */
export function useAgentsServer() {
  const server = useRecordingServer();
  let client: AgentsOpenAI | undefined;
  beforeAll(async () => {
    setTracingDisabled(true);
    const OpenAI = await agentsOpenAI();
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
  });
  beforeEach(() => server.clear());
  return {
    server,
    client(): AgentsOpenAI {
      if (!client) throw new Error("the OpenAI client is made in a beforeAll: use it in tests");
      return client;
    },
  };
}
