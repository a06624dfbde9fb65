import { buildLocalPrompt } from '@shared/bots/prompt-template';
import { splitTrustedSources } from '@shared/bots/trusted-sources';
import { CONTEXT_WINDOW_DEFAULT } from '@shared/constants';
import type { Capability } from '@shared/bots/capabilities';
import type { Bot, BotConfig, TONES, WRITING_STYLES } from '@shared/contracts/bots';
import type { MessageRole } from '@shared/contracts/chat';
import type { ChatTurn } from './tasks/chat-reply';

export type PromptBot = Pick<Bot, 'name' | 'description' | 'purpose' | 'config'> & {
  capabilities?: readonly Capability[];
};

export interface HistoryMessage {
  role: MessageRole;
  content: string;
  /** Only the OpenAI-compatible API sends images with earlier turns; Botty's chat sends the question's alone. */
  images?: ChatTurn['images'];
}

const TONE_LINES: Record<(typeof TONES)[number], string> = {
  professional: 'Use a professional tone: courteous, precise and businesslike.',
  friendly: 'Use a friendly tone: warm, approachable and conversational.',
  enthusiastic: 'Use an enthusiastic tone: upbeat and encouraging, with genuine interest in the topic.',
};

const STYLE_LINES: Record<(typeof WRITING_STYLES)[number], string> = {
  concise: 'Write concisely: short answers that get straight to the point, with lists where they help.',
  detailed: 'Write in detail: thorough, well-structured answers with explanations and examples.',
  simple: 'Write simply: plain everyday language and short sentences, without jargon.',
};

/** Web research is one setting seen from two wizard steps: the web_search capability and config.webBrowsing. */
export const browsesTheWeb = (bot: Pick<Bot, 'config'> & { capabilities?: readonly Capability[] }) =>
  Boolean(bot.config.webBrowsing) || Boolean(bot.capabilities?.includes('web_search'));

/** The bot's settings as instructions (decisions §4); the web tools bring their own (modules/web/web-context.ts). */
function guidelines(config: BotConfig, webBrowsing: boolean): string[] {
  const sources = splitTrustedSources(config.trustedSources);
  const lines: string[] = [];
  if (config.tone) lines.push(TONE_LINES[config.tone]);
  if (config.writingStyle) lines.push(STYLE_LINES[config.writingStyle]);
  if (config.citationGeneration) {
    lines.push(
      'Cite your sources: say where each fact comes from (title and site, with a link when you know it). Never invent a source; if you cannot name one, say so.',
    );
  }
  if (sources.length)
    lines.push(`Prefer these trusted sources and point the user to them when relevant: ${sources.join(', ')}.`);
  if (config.useKnowledgeCutoff) {
    lines.push(
      `Your knowledge ends at your training cutoff. When an answer may depend on recent events or facts that change, say that your information may be out of date${webBrowsing ? ', and prefer what you find on the web for recent facts' : ''}.`,
    );
  }
  return lines;
}

/** The bot's own prompt: its custom prompt, else its (generated) system prompt, else the local template. */
export function basePrompt(bot: PromptBot): string {
  return bot.config.customPrompt?.trim() || bot.config.systemPrompt?.trim() || buildLocalPrompt(bot);
}

export function composeSystemPrompt(bot: PromptBot): string {
  const lines = guidelines(bot.config, browsesTheWeb(bot));
  const base = basePrompt(bot);
  return lines.length ? `${base}\n\nHow to respond:\n${lines.map((line) => `- ${line}`).join('\n')}` : base;
}

/** How many earlier messages of the conversation go with each request. */
export function contextWindowOf(config: BotConfig): number {
  // Memory is on unless switched off, so a bot created with an empty config still holds a conversation.
  return config.conversationMemory === false ? 0 : (config.maxContextMessages ?? CONTEXT_WINDOW_DEFAULT);
}

/** What the reply's context adds to the prompt: instructions (e.g. passages) and the question's images. */
export interface PromptAdditions {
  instructions: string[];
  sources: readonly { n: number }[];
  images: ChatTurn['images'];
}

const CITE_LINE =
  'Answer from the numbered sources above when they are relevant, and cite them inline as [1], [2] right after the facts they support. Cite only the sources you used; never invent a number.';

/**
 * Everything the model receives for one reply: the system prompt (with what the reply's context adds), then the
 * last messages of the conversation before the new one (as many as the context window allows; none without
 * conversation memory), then the new one with its images.
 */
export function composePrompt(
  bot: PromptBot,
  history: readonly HistoryMessage[],
  newMessage: string,
  additions: PromptAdditions = { instructions: [], sources: [], images: [] },
): { system: string; turns: ChatTurn[] } {
  const window = contextWindowOf(bot.config);
  const earlier = window > 0 ? history.slice(-window) : [];
  const sections = [composeSystemPrompt(bot), ...additions.instructions];
  if (additions.sources.length && bot.config.citationGeneration) sections.push(CITE_LINE);
  return {
    system: sections.join('\n\n'),
    turns: [
      ...earlier.map(({ role, content, images }): ChatTurn => ({ role, text: content, ...(images && { images }) })),
      { role: 'user', text: newMessage, ...(additions.images?.length ? { images: additions.images } : {}) },
    ],
  };
}
