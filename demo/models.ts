/**
 * Real models over plain `fetch`: the Anthropic Messages API and any OpenAI-compatible Chat
 * Completions server (OpenAI, Ollama, vLLM, LM Studio). No provider SDK: the dialects already
 * speak the wire format, so a model call is one POST. Every failure a user can cause — a wrong
 * key, a server that is not running, a bad URL — becomes a `ModelError` with a one-line message.
 */
import type { AbortSignalLike, ModelRequest } from "ignite-element/tools";
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicResponse,
  AnthropicTool,
} from "ignite-element/tools/anthropic";
import type {
  OpenAIChatMessage,
  OpenAIChatResponse,
  OpenAIChatTool,
} from "ignite-element/tools/openai";

/** A failure the user can fix (configuration, key, server); its message is one line. */
export class ModelError extends Error {
  override readonly name = "ModelError";
}

/** A Messages API response, with the fields the demo reads besides `content`. */
export interface MessagesResponse extends AnthropicResponse {
  readonly id?: string;
  readonly type?: string;
  readonly role?: string;
  readonly content: readonly (AnthropicContentBlock & { readonly text?: unknown })[];
  readonly stop_reason?: string | null;
  readonly model?: string;
}

export type AnthropicModel = (
  request: ModelRequest<AnthropicTool[], AnthropicMessage>,
) => Promise<MessagesResponse>;

export type OpenAIModel = (
  request: ModelRequest<OpenAIChatTool[], OpenAIChatMessage>,
) => Promise<OpenAIChatResponse>;

/** What both clients share; everything has a default except what identifies the endpoint. */
interface ClientOptions {
  /** Sent as the system prompt. */
  system?: string;
  /** Local models can take minutes to load on their first request. Default 180 000. */
  timeoutMs?: number;
  /** Injected in tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
}

export interface AnthropicOptions extends ClientOptions {
  apiKey: string;
  /** Default `claude-sonnet-4-5`. */
  model?: string;
  /** Default `https://api.anthropic.com`; a test points it at a local server. */
  baseUrl?: string;
  /** Default 1024. */
  maxTokens?: number;
}

export interface OpenAIOptions extends ClientOptions {
  /** Up to and including the version segment, e.g. `http://localhost:11434/v1`. */
  baseUrl: string;
  model: string;
  /** Local servers usually need none; when set it is sent as a bearer token. */
  apiKey?: string;
}

export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
const DEFAULT_TIMEOUT_MS = 180_000;

/** A model function for `runToolLoop` that calls the Anthropic Messages API. */
export function anthropicModel(options: AnthropicOptions): AnthropicModel {
  const url = `${trimSlash(options.baseUrl ?? "https://api.anthropic.com")}/v1/messages`;
  const model = options.model ?? DEFAULT_ANTHROPIC_MODEL;
  return async ({ tools, messages, signal }) => {
    const body = await postJson({
      url,
      label: "Anthropic",
      keyHint: "check ANTHROPIC_API_KEY",
      headers: { "x-api-key": options.apiKey, "anthropic-version": "2023-06-01" },
      body: {
        model,
        max_tokens: options.maxTokens ?? 1024,
        ...(options.system === undefined ? {} : { system: options.system }),
        tools,
        messages,
      },
      signal,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
    if (!isRecord(body) || !Array.isArray(body.content)) {
      throw new ModelError(`Anthropic answered ${url} with JSON that is not a Messages response`);
    }
    return body as unknown as MessagesResponse; // its one field the loop relies on was checked
  };
}

/** A model function for `runToolLoop` that calls an OpenAI-compatible Chat Completions server. */
export function openaiModel(options: OpenAIOptions): OpenAIModel {
  const url = `${trimSlash(options.baseUrl)}/chat/completions`;
  const messagesWithSystem = (messages: OpenAIChatMessage[]): OpenAIChatMessage[] =>
    options.system === undefined
      ? messages
      : [{ role: "system", content: options.system }, ...messages];
  return async ({ tools, messages, signal }) => {
    const body = await postJson({
      url,
      label: url,
      keyHint: options.apiKey === undefined ? "set OPENAI_API_KEY" : "check OPENAI_API_KEY",
      headers: options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` },
      body: { model: options.model, tools, messages: messagesWithSystem(messages) },
      signal,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
    if (!isRecord(body) || !Array.isArray(body.choices)) {
      throw new ModelError(`${url} answered with JSON that is not a Chat Completions response`);
    }
    return body as unknown as OpenAIChatResponse; // its one field the loop relies on was checked
  };
}

/** The text parts of a Messages API response, joined. */
export function anthropicText(response: MessagesResponse): string {
  return response.content
    .flatMap((block) =>
      block.type === "text" && typeof block.text === "string" ? [block.text] : [],
    )
    .join("\n")
    .trim();
}

/** The text of a Chat Completions response's first choice. */
export function openaiText(response: OpenAIChatResponse): string {
  const content = response.choices[0]?.message.content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
}

interface Post {
  url: string;
  /** Who is speaking, for messages: "Anthropic", or the server's URL. */
  label: string;
  /** What to do about a rejected key. */
  keyHint: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignalLike;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** POSTs JSON and returns the parsed answer, or throws a `ModelError` saying what went wrong. */
async function postJson(post: Post): Promise<unknown> {
  const timeoutMs = post.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // `fetch` wants a real AbortSignal; the loop's signal is only AbortSignalLike, so follow it
  // with our own controller, which also enforces the timeout.
  const controller = new AbortController();
  const onAbort = () => controller.abort(post.signal?.reason);
  post.signal?.addEventListener("abort", onAbort);
  if (post.signal?.aborted) onAbort();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    let response: Response;
    try {
      response = await (post.fetch ?? fetch)(post.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...post.headers },
        body: JSON.stringify(post.body),
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) {
        throw new ModelError(`${post.label} did not answer within ${timeoutMs / 1000} s`);
      }
      if (controller.signal.aborted) throw error; // the user aborted; the loop reports it
      throw new ModelError(unreachable(post.url, error));
    }
    const text = await response.text();
    if (!response.ok) throw new ModelError(rejected(post, response, text));
    try {
      return JSON.parse(text);
    } catch {
      throw new ModelError(
        `${post.label} answered ${response.status} with a body that is not JSON`,
      );
    }
  } finally {
    clearTimeout(timer);
    post.signal?.removeEventListener("abort", onAbort);
  }
}

function rejected(post: Post, response: Response, text: string): string {
  const detail = errorDetail(text);
  const why = detail === "" ? "" : `: ${detail}`;
  if (response.status === 401 || response.status === 403) {
    return `${post.label} rejected the API key (${response.status}) — ${post.keyHint}${why}`;
  }
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return `${post.label} answered ${status}${why}`;
}

/** The server's own explanation, from the usual error shapes, as one short line. */
function errorDetail(text: string): string {
  let detail = text;
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    if (typeof error === "string") detail = error;
    else if (isRecord(error) && typeof error.message === "string") detail = error.message;
  } catch {
    // Not JSON (a proxy's HTML page, say): its text, squeezed onto one line, is the best we have.
  }
  const line = detail.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function unreachable(url: string, error: unknown): string {
  const code = errorCode(error);
  const hint =
    code === "ECONNREFUSED"
      ? "is the server running?"
      : code === "ENOTFOUND" || code === "EAI_AGAIN"
        ? "is the host name right?"
        : "check the URL and the network";
  const reason = code ?? (error instanceof Error ? error.message : String(error));
  return `Cannot reach ${url} (${reason}) — ${hint}`;
}

/** Node's `fetch` rejects with "fetch failed" and puts the socket error's code in `cause`. */
function errorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (isRecord(current) && !seen.has(current)) {
    seen.add(current);
    if (typeof current.code === "string" && current.code !== "") return current.code;
    // A host with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
    const first: unknown = Array.isArray(current.errors) ? current.errors[0] : undefined;
    current = current.cause ?? first;
  }
  return undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
