import { generateText } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import { CONVERSATION_TITLE_MAX } from '@shared/constants';
import { shortTaskSettings } from '../model-capabilities';
import type { Ai } from '../providers';
import { errorSummary } from './chat-reply';

/** A title is a nicety: past this the first words of the question name the conversation instead. */
export const CONVERSATION_TITLE_TIMEOUT_MS = 8_000;
/** Words of the first message that make the offline title. */
const FALLBACK_WORDS = 6;
const TITLE_WORDS_MAX = 10;
/** Ten words and then some; a model that goes on is cut off. */
const TITLE_MAX_OUTPUT_TOKENS = 30;

export const CONVERSATION_TITLE_INSTRUCTIONS = `You name chat conversations. Reply with a title of 3 to 6 words that says what the conversation is about, in the language of the conversation. No quotes, no final punctuation, nothing else.`;

/**
 * A title as it is stored: plain text (a model's `**bold**` or `[link](…)`, a question's markdown, become their
 * words) on one line, at most CONVERSATION_TITLE_MAX characters cut at a word. No "…": the lists truncate with
 * CSS, so a title is never shown with two ellipses, nor with one where it fits.
 */
export async function plainTitle(text: string): Promise<string> {
  // Loaded with the first title, not at the server's start (decision 0055).
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  const plain = textOf(fromMarkdown(text)).replace(/\s+/g, ' ').trim();
  if (plain.length <= CONVERSATION_TITLE_MAX) return plain;
  const cut = plain.slice(0, CONVERSATION_TITLE_MAX + 1);
  const atWord = cut.lastIndexOf(' ');
  return (atWord > CONVERSATION_TITLE_MAX / 2 ? cut.slice(0, atWord) : cut.slice(0, CONVERSATION_TITLE_MAX)).trimEnd();
}

type MarkdownNode = { type: string; value?: string; children?: MarkdownNode[] };
/** Nodes whose children run on within one line of text; the children of any other (blocks) are words apart. */
const PHRASING = new Set([
  'paragraph',
  'heading',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'tableCell',
]);

function textOf(node: MarkdownNode): string {
  if (node.value !== undefined) return node.value;
  return (node.children ?? []).map(textOf).join(PHRASING.has(node.type) ? '' : ' ');
}

/** The first words of the first message, the title used offline or when the model fails. */
export async function fallbackTitle(question: string): Promise<string> {
  return plainTitle((await plainTitle(question)).split(' ').slice(0, FALLBACK_WORDS).join(' '));
}

/** Models like to wrap titles in quotes, a "Title:" label or a trailing full stop. */
async function tidy(text: string): Promise<string | null> {
  const line = (text.trim().split('\n')[0] ?? '')
    .replace(/^(title|titre|titel)\s*:\s*/i, '')
    .replace(/^["'“”‘’*#\s]+|["'“”‘’*.\s]+$/g, '')
    .trim();
  const title = await plainTitle(line);
  if (!title || title.split(' ').length > TITLE_WORDS_MAX) return null;
  return title;
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
        ...shortTaskSettings(deps.ai, TITLE_MAX_OUTPUT_TOKENS),
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      const title = await tidy(text);
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
