import { BOT_SETTINGS, settingPromptLines } from '@shared/bots/bot-settings';
import { capabilityEnables, type Capability } from '@shared/bots/capabilities';
import { buildLocalPrompt } from '@shared/bots/prompt-template';
import type { Bot, BotConfig } from '@shared/contracts/bots';
import type { MessageRole } from '@shared/contracts/chat';
import type { ChatTurn } from './tasks/chat-reply';

export type PromptBot = Pick<Bot, 'name' | 'description' | 'purpose' | 'config'> & {
  capabilities?: readonly Capability[];
};

export interface HistoryMessage {
  /** `tool`: a tool's result, which only the OpenAI-compatible API's callers send. */
  role: MessageRole | 'tool';
  content: string;
  /** Only the OpenAI-compatible API sends images with earlier turns; Botty's chat sends the question's alone. */
  images?: ChatTurn['images'];
  /** The OpenAI-compatible API's: an assistant message's calls of the caller's tools, a tool message's call. */
  toolCalls?: ChatTurn['toolCalls'];
  toolCall?: ChatTurn['toolCall'];
}

const toTurn = ({ role, content, images, toolCalls, toolCall }: HistoryMessage): ChatTurn => ({
  role,
  text: content,
  ...(images && { images }),
  ...(toolCalls && { toolCalls }),
  ...(toolCall && { toolCall }),
});

/** Web research is one setting seen from two wizard steps: the web_search capability and config.webBrowsing. */
export const browsesTheWeb = (bot: Pick<Bot, 'config'> & { capabilities?: readonly Capability[] }) =>
  capabilityEnables(bot, 'web');

/** The bot's own prompt: its custom prompt, else its (generated) system prompt, else the local template. */
export function basePrompt(bot: PromptBot): string {
  return bot.config.customPrompt?.trim() || bot.config.systemPrompt?.trim() || buildLocalPrompt(bot);
}

export function composeSystemPrompt(bot: PromptBot): string {
  // The bot's settings as instructions (decisions §4); the web tools bring their own (modules/web/web-context.ts).
  const lines = settingPromptLines(bot);
  const base = basePrompt(bot);
  return lines.length ? `${base}\n\nHow to respond:\n${lines.map((line) => `- ${line}`).join('\n')}` : base;
}

/** How many earlier messages of the conversation go with each request. */
export function contextWindowOf(config: BotConfig): number {
  if (!capabilityEnables({ config }, 'memory')) return 0;
  return config.maxContextMessages ?? BOT_SETTINGS.maxContextMessages.default;
}

/** What the reply's context adds to the prompt: instructions (e.g. passages) and the question's images. */
export interface PromptAdditions {
  instructions: string[];
  sources: readonly { n: number }[];
  images: ChatTurn['images'];
  /** What follows the question (the caller's tool calls and their results, in an agent loop's later turns). */
  after?: readonly HistoryMessage[];
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
  // A window may start between a tool call and its result; a result without its call is refused by the model.
  while (earlier[0]?.role === 'tool') earlier.shift();
  const sections = [composeSystemPrompt(bot), ...additions.instructions];
  if (additions.sources.length && bot.config.citationGeneration) sections.push(CITE_LINE);
  return {
    system: sections.join('\n\n'),
    turns: [
      ...earlier.map(toTurn),
      { role: 'user', text: newMessage, ...(additions.images?.length ? { images: additions.images } : {}) },
      ...(additions.after ?? []).map(toTurn),
    ],
  };
}
