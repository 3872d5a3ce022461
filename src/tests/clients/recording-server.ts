import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** A request as the server saw it, with the JSON object the client sent as its body. */
export interface RecordedRequest {
  method: string;
  /** The request target as sent, query included. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * A fake provider API on 127.0.0.1 for a real SDK client to talk to, that records every request
 * and answers each with a queued JSON reply.
 */
export interface RecordingServer<Entry = RecordedRequest> {
  /** `http://127.0.0.1:<port>`, without a trailing slash; known once the server listens. */
  readonly url: string;
  /** Every request so far, in the order they came, as `record` made them: one array throughout. */
  readonly received: Entry[];
  /** Queues JSON bodies to answer the next requests with, one each, in order. */
  reply(...bodies: unknown[]): void;
  /** Forgets what was received and what is still queued. */
  clear(): void;
}

export interface RecordingOptions<Entry> {
  /**
   * What to answer once the queue is empty. Without it such a request is answered 500, so a
   * test that scripts too few replies fails at the call that went unanswered.
   */
  fallback?: unknown;
  /** What to keep of each request; by default the request itself. */
  record?: (request: RecordedRequest) => Entry;
}

/**
 * A recording server for the tests that follow: it listens from before them (a `beforeAll` of the
 * file or `describe` this is called in) and is closed after them. Its `url` is for hooks and
 * tests; `received` can be kept in a constant.
 */
export function useRecordingServer(
  options?: Omit<RecordingOptions<RecordedRequest>, "record">,
): RecordingServer;
export function useRecordingServer<Entry>(
  options: RecordingOptions<Entry> & { record: (request: RecordedRequest) => Entry },
): RecordingServer<Entry>;
export function useRecordingServer(
  options: RecordingOptions<unknown> = {},
): RecordingServer<unknown> {
  const { server, ...recording } = recorder(options);
  const url = listenForTests(server);
  return {
    ...recording,
    get url() {
      return url();
    },
  };
}

/**
 * `server` listening on a free port of 127.0.0.1 for the tests that follow: from a `beforeAll` of
 * the file or `describe` this is called in, and closed after them, its open connections cut first
 * when `cutConnections`. Returns its address, `http://127.0.0.1:<port>`, known from then on.
 */
export function listenForTests(server: Server, { cutConnections = false } = {}): () => string {
  let url: string | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (url === undefined) return;
    if (cutConnections) server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  });
  return () => {
    if (url === undefined) throw new Error("the server listens only from its beforeAll on");
    return url;
  };
}

/** The last `count` entries of a request's list, as the SDK sent it. */
export const lastOf = (sent: unknown, count: number) =>
  Array.isArray(sent) ? sent.slice(-count) : sent;

/** What records and answers the requests, with the server it does so in, not yet listening. */
function recorder(options: RecordingOptions<unknown>) {
  const { record = (request: RecordedRequest) => request } = options;
  const received: unknown[] = [];
  const queue: unknown[] = [];

  const server = createServer(async (request, response) => {
    const body = await readJsonObject(request);
    if (body === undefined) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "the body is not a JSON object" } }));
      return;
    }
    received.push(
      record({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body,
      }),
    );
    const answer = queue.length > 0 ? queue.shift() : options.fallback;
    const unanswered = answer === undefined;
    // Every SDK here reads JSON only with this content type; some fail outright without it.
    response.writeHead(unanswered ? 500 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(unanswered ? { error: { message: "no reply queued" } } : answer));
  });

  return {
    server,
    received,
    reply: (...bodies: unknown[]) => {
      queue.push(...bodies);
    },
    clear: () => {
      received.length = 0;
      queue.length = 0;
    },
  };
}

async function readJsonObject(
  request: IncomingMessage,
): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
