/**
 * The OpenAI Agents SDK tests' model server: a recording server, cleared before each test, that
 * an OpenAI client talks to (`client()`, for the SDK's OpenAI models), with the SDK's tracing off.
 */
import { setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { beforeAll, beforeEach } from "vitest";
import { useRecordingServer } from "../clients/recording-server.js";

/** The server and client for the tests that follow, in the file or `describe` it is called in. */
export function useAgentsServer() {
  const server = useRecordingServer();
  let client: OpenAI | undefined;
  beforeAll(() => {
    setTracingDisabled(true);
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test-key", maxRetries: 0 });
  });
  beforeEach(() => server.clear());
  return {
    server,
    client(): OpenAI {
      if (!client) throw new Error("the OpenAI client is made in a beforeAll: use it in tests");
      return client;
    },
  };
}
