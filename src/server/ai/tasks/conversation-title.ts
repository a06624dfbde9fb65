import { generateText } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { CONVERSATION_TITLE_MAX } from '@shared/constants';
import type { Ai } from '../providers';
import { errorSummary } from './chat-reply';

/** A title is a nicety: past this the first words of the question name the conversation instead. */
export const CONVERSATION_TITLE_TIMEOUT_MS = 8_000;
/** Words of the first message that make the offline title. */
const FALLBACK_WORDS = 6;
const TITLE_WORDS_MAX = 10;

export const CONVERSATION_TITLE_INSTRUCTIONS = `You name chat conversations. Reply with a title of 3 to 6 words that says what the conversation is about, in the language of the conversation. No quotes, no final punctuation, nothing else.`;

/** The first words of the first message, the title used offline or when the model fails. */
export function fallbackTitle(question: string): string {
  const words = question.trim().split(/\s+/).filter(Boolean);
  const title = words.slice(0, FALLBACK_WORDS).join(' ');
  return clip(words.length > FALLBACK_WORDS ? `${title}…` : title);
}

const clip = (title: string) =>
  title.length <= CONVERSATION_TITLE_MAX ? title : `${title.slice(0, CONVERSATION_TITLE_MAX - 1).trimEnd()}…`;

/** Models like to wrap titles in quotes, a "Title:" label or a trailing full stop. */
function tidy(text: string): string | null {
  const line = (text.trim().split('\n')[0] ?? '')
    .replace(/^(title|titre|titel)\s*:\s*/i, '')
    .replace(/^["'“”‘’*#\s]+|["'“”‘’*.\s]+$/g, '')
    .trim();
  if (!line || line.split(/\s+/).length > TITLE_WORDS_MAX) return null;
  return clip(line);
}

export interface ConversationTitleDeps {
  ai: Ai;
  log: FastifyBaseLogger;
}

/**
 * A short title about a conversation's subject, from its first question and reply, by a small separate model
 * call. Never fails: offline, or when the model errors, is slow or rambles, the first words of the question.
 */
export async function conversationTitleFor(
  deps: ConversationTitleDeps,
  exchange: { question: string; reply: string },
  timeoutMs = CONVERSATION_TITLE_TIMEOUT_MS,
): Promise<string> {
  if (deps.ai.model) {
    try {
      const { text } = await generateText({
        model: deps.ai.model,
        system: CONVERSATION_TITLE_INSTRUCTIONS,
        prompt: `User: ${exchange.question.slice(0, 2000)}\n\nAssistant: ${exchange.reply.slice(0, 2000)}`,
        maxOutputTokens: 30,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      const title = tidy(text);
      if (title) return title;
      deps.log.warn({ model: deps.ai.modelId }, 'conversation-title: unusable title; using the first words');
    } catch (err) {
      deps.log.warn(
        { error: errorSummary(err), model: deps.ai.modelId },
        'conversation-title: the model failed; using the first words',
      );
    }
  }
  return fallbackTitle(exchange.question);
}
