/**
 * The Messages API's request messages, as plain types: `AnthropicMessage` and the SDK's
 * `MessageParam` (checked against `@anthropic-ai/sdk` 1.16.0) are assignable to each other, so a
 * history typed either way goes into `appendTurn` and `runToolLoop`, and what they return goes
 * into `client.messages.create()`, without a cast. Each block lists the fields a request must
 * carry; the optional ones (`cache_control`, `citations`, …) pass through untyped. Types only:
 * nothing here runs.
 */

/** A text block. */
export interface AnthropicTextBlockParam {
  type: "text";
  text: string;
}

/** Where an image comes from. */
export type AnthropicImageSource =
  | {
      type: "base64";
      data: string;
      media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
    }
  | { type: "url"; url: string }
  | { type: "file"; file_id: string };

/** An image block. */
export interface AnthropicImageBlockParam {
  type: "image";
  source: AnthropicImageSource;
}

/** A document block: a PDF, plain text, content blocks, a URL or an uploaded file. */
export interface AnthropicDocumentBlockParam {
  type: "document";
  source:
    | { type: "base64"; data: string; media_type: "application/pdf" }
    | { type: "text"; data: string; media_type: "text/plain" }
    | {
        type: "content";
        content: string | Array<AnthropicTextBlockParam | AnthropicImageBlockParam>;
      }
    | { type: "url"; url: string }
    | { type: "file"; file_id: string };
  /** The document's title, as the model reads it. */
  title?: string | null;
}

/** A block of a `tool_result`'s content this package sends (`contentParts()`). */
export type AnthropicToolResultContent =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicDocumentBlockParam
  | AnthropicToolReferenceBlockParam;

/** A search result block. */
export interface AnthropicSearchResultBlockParam {
  type: "search_result";
  content: AnthropicTextBlockParam[];
  source: string;
  title: string;
}

/** A `tool_use` block, as the model sent it. */
export interface AnthropicToolUseBlockParam {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** A thinking block; the signature must come back unchanged. */
export interface AnthropicThinkingBlockParam {
  type: "thinking";
  thinking: string;
  signature: string;
}

/** A redacted thinking block, sent back unchanged. */
export interface AnthropicRedactedThinkingBlockParam {
  type: "redacted_thinking";
  data: string;
}

/** A reference to a tool, in a tool search result. */
export interface AnthropicToolReferenceBlockParam {
  type: "tool_reference";
  tool_name: string;
}

/** A `tool_result` block answering one `tool_use` block (this dialect writes `content` as text). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  /**
   * The outcome's text; with content parts (`contentParts()`), blocks: that text first, then
   * each part as an image, document or text block.
   */
  content: string | AnthropicToolResultContent[];
  /** Present, and `true`, only when the call failed. */
  is_error?: boolean;
}

/** A `tool_result` block in a history, with any content the API accepts. */
export interface AnthropicToolResultBlockParam {
  type: "tool_result";
  tool_use_id: string;
  content?:
    | string
    | Array<
        | AnthropicTextBlockParam
        | AnthropicImageBlockParam
        | AnthropicSearchResultBlockParam
        | AnthropicDocumentBlockParam
        | AnthropicToolReferenceBlockParam
        | {
            type: "browser_state";
            tabs: Array<{ tab_id: string; title: string; url: string }>;
          }
      >;
  is_error?: boolean;
}

type ErrorCode = "invalid_tool_input" | "unavailable" | "too_many_requests";
type Timed = ErrorCode | "execution_time_exceeded";

/** A server tool call (web search, web fetch, code execution, tool search). */
export interface AnthropicServerToolUseBlockParam {
  type: "server_tool_use";
  id: string;
  input: unknown;
  name:
    | "web_search"
    | "web_fetch"
    | "code_execution"
    | "bash_code_execution"
    | "text_editor_code_execution"
    | "tool_search_tool_regex"
    | "tool_search_tool_bm25";
}

/** The result of a server tool call, as the API returned it. */
export type AnthropicServerToolResultBlockParam =
  | {
      type: "web_search_tool_result";
      tool_use_id: string;
      content:
        | Array<{
            type: "web_search_result";
            encrypted_content: string;
            title: string;
            url: string;
          }>
        | {
            type: "web_search_tool_result_error";
            error_code: ErrorCode | "max_uses_exceeded" | "query_too_long" | "request_too_large";
          };
    }
  | {
      type: "web_fetch_tool_result";
      tool_use_id: string;
      content:
        | {
            type: "web_fetch_tool_result_error";
            error_code:
              | ErrorCode
              | "url_too_long"
              | "url_not_allowed"
              | "url_not_in_prior_context"
              | "url_not_accessible"
              | "unsupported_content_type"
              | "max_uses_exceeded"
              | "content_too_large";
          }
        | { type: "web_fetch_result"; content: AnthropicDocumentBlockParam; url: string };
    }
  | {
      type: "code_execution_tool_result";
      tool_use_id: string;
      content:
        | { type: "code_execution_tool_result_error"; error_code: Timed }
        | {
            type: "code_execution_result";
            content: Array<{ type: "code_execution_output"; file_id: string }>;
            return_code: number;
            stderr: string;
            stdout: string;
          }
        | {
            type: "encrypted_code_execution_result";
            content: Array<{ type: "code_execution_output"; file_id: string }>;
            encrypted_stdout: string;
            return_code: number;
            stderr: string;
          };
    }
  | {
      type: "bash_code_execution_tool_result";
      tool_use_id: string;
      content:
        | {
            type: "bash_code_execution_tool_result_error";
            error_code: Timed | "output_file_too_large";
          }
        | {
            type: "bash_code_execution_result";
            content: Array<{ type: "bash_code_execution_output"; file_id: string }>;
            return_code: number;
            stderr: string;
            stdout: string;
          };
    }
  | {
      type: "text_editor_code_execution_tool_result";
      tool_use_id: string;
      content:
        | {
            type: "text_editor_code_execution_tool_result_error";
            error_code: Timed | "file_not_found";
          }
        | {
            type: "text_editor_code_execution_view_result";
            content: string;
            file_type: "text" | "image" | "pdf";
          }
        | { type: "text_editor_code_execution_create_result"; is_file_update: boolean }
        | { type: "text_editor_code_execution_str_replace_result" };
    }
  | {
      type: "tool_search_tool_result";
      tool_use_id: string;
      content:
        | { type: "tool_search_tool_result_error"; error_code: Timed }
        | {
            type: "tool_search_tool_search_result";
            tool_references: AnthropicToolReferenceBlockParam[];
          };
    };

/** A file uploaded to the code execution container. */
export interface AnthropicContainerUploadBlockParam {
  type: "container_upload";
  file_id: string;
}

/** Every content block a request message may hold. */
export type AnthropicContentBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicDocumentBlockParam
  | AnthropicSearchResultBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResult
  | AnthropicToolResultBlockParam
  | AnthropicServerToolUseBlockParam
  | AnthropicServerToolResultBlockParam
  | AnthropicContainerUploadBlockParam;

/**
 * A conversation message: the SDK's `MessageParam` is assignable to it, and it to `MessageParam`.
 */
export type AnthropicMessage =
  | { role: "user" | "assistant"; content: string | AnthropicContentBlockParam[] }
  | { role: "system"; content: string | AnthropicTextBlockParam[] };

/** One entry of the Messages API `tools` array (assignable to the SDK's `Tool`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  /** Always object-rooted: scalar, array and root-union inputs are wrapped as `{ value }`. */
  input_schema: { type: "object"; [key: string]: unknown };
  strict?: boolean;
}
