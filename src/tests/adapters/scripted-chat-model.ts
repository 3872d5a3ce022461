import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";

interface ScriptedCallOptions extends BaseChatModelCallOptions {
  tools?: unknown[];
}

/** What the model was sent on one turn. */
export interface ScriptedRequest {
  messages: BaseMessage[];
  /** The tool definitions the model was bound to, as `convertToOpenAITool` wrote them. */
  tools: unknown[] | undefined;
}

/**
 * A chat model that answers each turn with the next scripted message and records what it was
 * sent. `bindTools` converts tools as `ChatOpenAI` does (`convertToOpenAITool`), so the recorded
 * tools are what a provider would receive.
 */
export class ScriptedChatModel extends BaseChatModel<ScriptedCallOptions> {
  readonly requests: ScriptedRequest[] = [];

  constructor(private readonly script: AIMessage[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: BindToolsInput[]) {
    return this.withConfig({ tools: tools.map((tool) => convertToOpenAITool(tool)) });
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    this.requests.push({ messages, tools: options.tools });
    const message = this.script.shift() ?? new AIMessage("(the script has ended)");
    return { generations: [{ message, text: message.text }] };
  }
}
