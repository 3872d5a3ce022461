import { createServer, type IncomingMessage } from "node:http";
import { beforeEach } from "vitest";
import { listenForTests } from "../clients/recording-server.js";

/** One scripted answer: a body written in pieces, as a streaming provider writes it. */
export interface Replay {
  contentType: string;
  /** Written one after another, each flushed as its own chunk. */
  pieces: string[];
  /** Drop the connection after the last piece instead of ending the response. */
  breakOff?: boolean;
  /** Wait this long before each piece after the first, as a model writing its turn would. */
  delayMs?: number;
}

/** A request as the server saw it. */
export interface ReplayedRequest {
  path: string;
  body: Record<string, unknown>;
}

/** A fake provider on 127.0.0.1 that answers each request with the next scripted replay. */
export interface ReplayServer {
  /** `http://127.0.0.1:<port>`; known once the server listens. */
  readonly url: string;
  readonly received: ReplayedRequest[];
  play(...replays: Replay[]): void;
  /** Forgets what was received and what is still queued. */
  clear(): void;
}

/** Server-sent events: `event:` lines only when a name is given, as each provider does. */
export function sse(events: readonly { event?: string; data: unknown }[], done?: string): Replay {
  const pieces = events.map(
    ({ event, data }) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`,
  );
  return {
    contentType: "text/event-stream",
    pieces: done === undefined ? pieces : [...pieces, `data: ${done}\n\n`],
  };
}

/** Newline-delimited JSON, as Ollama streams. */
export function ndjson(objects: readonly unknown[]): Replay {
  return {
    contentType: "application/x-ndjson",
    pieces: objects.map((object) => `${JSON.stringify(object)}\n`),
  };
}

/** A plain JSON answer, as the provider gives for the same turn without streaming. */
export function json(body: unknown): Replay {
  return { contentType: "application/json", pieces: [JSON.stringify(body)] };
}

/** The same replay with the connection dropped after `count` pieces (and half of the next). */
export function brokenAfter(replay: Replay, count: number): Replay {
  const next = replay.pieces[count] ?? "";
  return {
    ...replay,
    pieces: [...replay.pieces.slice(0, count), next.slice(0, Math.floor(next.length / 2))],
    breakOff: true,
  };
}

/**
 * A replay server for the tests that follow, in the file or `describe` this is called in: it
 * listens from before them, forgets what it received and still had queued before each, and is
 * closed after them. Its `url` is for hooks and tests.
 */
export function useReplayServer(): ReplayServer {
  const { server, ...replaying } = replayer();
  const url = listenForTests(server, { cutConnections: true });
  beforeEach(() => replaying.clear());
  return {
    ...replaying,
    get url() {
      return url();
    },
  };
}

/** What records the requests and plays the replays, with its server, not yet listening. */
function replayer() {
  const received: ReplayedRequest[] = [];
  const queue: Replay[] = [];
  const server = createServer(async (request, response) => {
    received.push({ path: request.url ?? "", body: await readBody(request) });
    const replay = queue.shift();
    if (!replay) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "no replay queued" } }));
      return;
    }
    response.writeHead(200, { "content-type": replay.contentType });
    for (const [index, piece] of replay.pieces.entries()) {
      if (replay.delayMs && index > 0)
        await new Promise((resolve) => setTimeout(resolve, replay.delayMs));
      await new Promise<void>((resolve) => response.write(piece, () => resolve()));
    }
    if (replay.breakOff) response.socket?.destroy();
    else response.end();
  });
  return {
    server,
    received,
    play: (...replays: Replay[]) => {
      queue.push(...replays);
    },
    clear: () => {
      received.length = 0;
      queue.length = 0;
    },
  };
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
