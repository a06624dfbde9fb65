import type { LanguageModelV2Message, LanguageModelV2Prompt } from '@ai-sdk/provider';

/** A tool call in a conversation's history, as the OpenAI-compatible API's caller sent it back. */
export interface TurnToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it. */
  arguments: string;
}

/**
 * One turn of the conversation as the model sees it; images only on user turns. Only the OpenAI-compatible API
 * sends tool turns: an assistant turn's calls of the caller's tools, and a `tool` turn with one call's result.
 */
export interface ChatTurn {
  role: 'user' | 'assistant' | 'tool';
  text: string;
  images?: { mediaType: string; data: Uint8Array }[];
  toolCalls?: TurnToolCall[];
  /** A tool turn's call and its tool. */
  toolCall?: { id: string; name: string };
}

/** A tool call's arguments as a value; text that is not JSON is an empty input. */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function toMessage(turn: ChatTurn): LanguageModelV2Message {
  switch (turn.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(turn.text || !turn.toolCalls?.length ? [{ type: 'text' as const, text: turn.text }] : []),
          ...(turn.toolCalls ?? []).map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: parsedJson(call.arguments),
          })),
        ],
      };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: turn.toolCall?.id ?? '',
            toolName: turn.toolCall?.name ?? '',
            output: { type: 'text', value: turn.text },
          },
        ],
      };
    case 'user':
      return {
        role: 'user',
        content: [
          { type: 'text', text: turn.text },
          ...(turn.images ?? []).map((image) => ({
            type: 'file' as const,
            mediaType: image.mediaType,
            data: image.data,
          })),
        ],
      };
  }
}

export function toPrompt(system: string, turns: ChatTurn[]): LanguageModelV2Prompt {
  const messages: LanguageModelV2Message[] = [];
  for (const turn of turns) {
    const message = toMessage(turn);
    const last = messages.at(-1);
    // The results of one round of calls are one message, as the SDK writes them.
    if (message.role === 'tool' && last?.role === 'tool') last.content.push(...message.content);
    else messages.push(message);
  }
  return [{ role: 'system', content: system }, ...messages];
}
