import type { FastifyBaseLogger } from 'fastify';
import { acceptsUpload } from '@shared/bots/capabilities';
import type { Bot } from '@shared/contracts/bots';
import type { HistoryMessage } from '../../ai/compose-prompt';
import type { ModelCatalog } from '../../ai/model-catalog';
import type { ChatTimeouts, ReplyUsage } from '../../ai/tasks/chat-reply';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { recordBotUse } from '../bots/bot-use';
import type { ReplyBot } from '../bots/bots.repository';
import { findOwnedBotOf, findOwnedReplyBotOf, listBots } from '../bots/bots.service';
import { authenticateKey } from '../keys/keys.service';
import type { ReplyContextProvider } from '../replies/reply-context';
import { runReply } from '../replies/reply-pipeline';
import type { UsageMeter } from '../usage/usage-meter';
import type { ApiKeyRow } from '../keys/keys.repository';
import type { SafeDownload } from '../web/safe-fetch';
import { invalidRequest, modelNotFound, replyFailed } from './openai-errors';
import {
  IMAGE_MESSAGES,
  imagesOff,
  MAX_IMAGES_PER_REQUEST,
  readImageUrl,
  tooManyImages,
  type ImageInput,
} from './openai-images';
import type { ChatCompletionBody, ChatMessage } from './openai.schemas';

export interface OpenAiDeps {
  db: Db;
  clock: Clock;
  models: ModelCatalog;
  timeouts: ChatTimeouts;
  /** The same as the chat's (knowledge passages, web research), so a bot answers here as it does in Botty. */
  contextProviders: ReplyContextProvider[];
  usage: UsageMeter;
  /** The largest image a request may carry, as for images attached in the app (FILES_MAX_IMAGE_BYTES). */
  imageBytes: number;
  /** How images given by http(s) URL are fetched: the web research's checks (public addresses only). */
  download: SafeDownload;
}

type ImageLimits = Pick<OpenAiDeps, 'imageBytes' | 'download'>;

const modelIdOf = (bot: Pick<Bot, 'id'>) => `bot-${bot.id}`;
const unixSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** The caller's API key, or null when it is not one (unknown, revoked, expired). */
export const authenticateApiKey = (deps: OpenAiDeps, key: string) => authenticateKey(deps, key);

/** The active bots the key reaches: its one bot, or every bot of its owner. */
export async function listModels(deps: OpenAiDeps, key: ApiKeyRow) {
  const db = deps.db.kysely;
  const rows =
    key.bot_id === null
      ? await listBots(deps, key.user_id)
      : [await findOwnedBotOf(db, key.user_id, key.bot_id)].flatMap((bot) => bot ?? []);
  return {
    object: 'list' as const,
    data: rows
      .filter((bot) => bot.active)
      .map((bot) => ({
        id: modelIdOf(bot),
        object: 'model' as const,
        created: unixSeconds(bot.createdAt),
        owned_by: 'botty',
        name: bot.name,
      })),
  };
}

/** `bot-{id}` of an active bot within the key's scope; anything else is the same 404, like OpenAI's. */
export async function requireModelBot(deps: OpenAiDeps, key: ApiKeyRow, model: string): Promise<ReplyBot> {
  const id = /^bot-(\d{1,10})$/.exec(model)?.[1];
  const botId = id === undefined ? NaN : Number(id);
  if (!Number.isSafeInteger(botId) || (key.bot_id !== null && key.bot_id !== botId)) throw modelNotFound(model);
  const bot = await findOwnedReplyBotOf(deps.db.kysely, key.user_id, botId);
  if (!bot?.active) throw modelNotFound(model);
  return bot;
}

/** One message's text and images; `imageCount` runs across the request, so no more than the limit are decoded. */
async function readMessage(
  message: ChatMessage,
  index: number,
  bot: ReplyBot,
  limits: ImageLimits,
  imageCount: { n: number },
): Promise<{ text: string; images: ImageInput[] }> {
  if (typeof message.content === 'string' || message.content == null) {
    return { text: message.content ?? '', images: [] };
  }
  const texts: string[] = [];
  const images: ImageInput[] = [];
  for (const [j, part] of message.content.entries()) {
    const param = `messages.${index}.content.${j}`;
    if (part.type === 'text') texts.push(part.text ?? '');
    else if (part.type === 'image_url') {
      if (message.role !== 'user') throw invalidRequest(IMAGE_MESSAGES.notInUserMessage, param);
      if (!acceptsUpload(bot, 'image')) throw imagesOff(bot.name, param);
      if (++imageCount.n > MAX_IMAGES_PER_REQUEST) throw tooManyImages();
      if (typeof part.image_url?.url !== 'string') {
        throw invalidRequest('image_url.url is required', `${param}.image_url.url`);
      }
      images.push(await readImageUrl(part.image_url.url, limits, `${param}.image_url.url`));
    } else {
      throw invalidRequest(`Only text and image_url content parts are supported, not '${part.type}'.`, param);
    }
  }
  return { text: texts.join(''), images };
}

/**
 * The caller's messages as Botty's prompt pieces: system notes, the earlier turns, and the question with its
 * images. Images are checked here (the bot's capability, type, size), before a stream opens.
 */
export async function readMessages(messages: ChatMessage[], bot: ReplyBot, limits: ImageLimits) {
  const callerInstructions: string[] = [];
  const turns: HistoryMessage[] = [];
  const imageCount = { n: 0 };
  for (const [i, message] of messages.entries()) {
    const { text, images } = await readMessage(message, i, bot, limits, imageCount);
    if (message.role === 'system' || message.role === 'developer') {
      if (text.trim()) callerInstructions.push(text.trim());
    } else turns.push({ role: message.role, content: text, ...(images.length ? { images } : {}) });
  }
  const question = turns.pop();
  if (question?.role !== 'user' || !(question.content.trim() || question.images?.length)) {
    throw invalidRequest(
      'The last message (besides system messages) must be a user message with text or an image.',
      'messages',
    );
  }
  return {
    callerInstructions,
    history: turns.filter((t) => t.content.trim() || t.images?.length),
    question: question.content,
    images: question.images ?? [],
  };
}

export interface CompletionRequest {
  key: ApiKeyRow;
  bot: ReplyBot;
  body: ChatCompletionBody;
  /** `readMessages(body.messages, …)`, read before a stream opens so a bad request is still a plain 4xx. */
  messages: Awaited<ReturnType<typeof readMessages>>;
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

/**
 * Answers as the bot answers in Botty (the one reply pipeline: its prompt and settings, knowledge passages, web
 * research), with the caller's system messages after the bot's own prompt, but stores nothing of the exchange:
 * like OpenAI's API, it is stateless. Only the bot's usage count goes up. Throws an OpenAiError when the model fails.
 */
export async function complete(
  deps: OpenAiDeps,
  request: CompletionRequest,
  onText: (text: string) => void,
): Promise<ReplyUsage> {
  const { bot, body, signal, log } = request;
  const { callerInstructions, history, question, images } = request.messages;
  const result = await runReply(
    deps,
    {
      userId: request.key.user_id,
      bot,
      question: { content: question, attachments: [], conversationId: null },
      history,
      callerInstructions,
      images,
      maxOutputTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      temperature: body.temperature ?? undefined,
      signal,
      log,
    },
    // Research steps and sources are part of Botty's own chat view; OpenAI's stream has no place for them.
    (event) => {
      if (event.event === 'delta') onText(event.data.text);
    },
  );
  if (result.error) throw replyFailed(result.error, result.failure ?? null);
  if (!signal.aborted) await recordBotUse(deps.db.kysely, bot.id, isoNow(deps.clock));
  return result.usage;
}

export const usageOf = (usage: ReplyUsage) => {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
};
