import type { LanguageModelV2Message, LanguageModelV2Prompt } from '@ai-sdk/provider';

/** One turn of the conversation as the model sees it; images only on user turns. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
  images?: { mediaType: string; data: Uint8Array }[];
}

export function toPrompt(system: string, turns: ChatTurn[]): LanguageModelV2Prompt {
  const messages: LanguageModelV2Message[] = turns.map((turn) =>
    turn.role === 'assistant'
      ? { role: 'assistant', content: [{ type: 'text', text: turn.text }] }
      : {
          role: 'user',
          content: [
            { type: 'text', text: turn.text },
            ...(turn.images ?? []).map((image) => ({
              type: 'file' as const,
              mediaType: image.mediaType,
              data: image.data,
            })),
          ],
        },
  );
  return [{ role: 'system', content: system }, ...messages];
}
