import type { LanguageModelV2FinishReason } from '@ai-sdk/provider';
import type { FastifyBaseLogger } from 'fastify';
import type { Bot } from '@shared/contracts/bots';
import type { Source } from '@shared/contracts/chat';
import type { CallerSettings } from '../../ai/caller-settings';
import type { ResolvedModel } from '../../ai/model-catalog';
import type { TokenLogprob } from '../../ai/openai-chat-stream';
import type { ReplyUsage } from '../../ai/tasks/chat-reply';
import type { Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import type { ReplyBot } from '../bots/bots.repository';
import { findOwnedBotOf, findOwnedReplyBotOf } from '../bots/bots.service';
import { botsOfKey } from '../keys/key-bots';
import { authenticateKey } from '../keys/keys.service';
import { ownerLimitColumns } from '../usage/usage.service';
import { runReply, type ReplyPipelineDeps } from '../replies/reply-pipeline';
import type { ApiKeyRow, AuthenticatedKey } from '../keys/keys.repository';
import type { SafeDownload } from '../web/safe-fetch';
import { modelNotFound, replyFailed } from './openai-errors';
import type { readMessages } from './openai-messages';
import type { BottySources, ChatCompletionBody, FinishReason, Model } from './openai.schemas';

/** The chat's reply pipeline (knowledge passages, web research), so a bot answers here as it does in Botty. */
export interface OpenAiDeps extends ReplyPipelineDeps {
  db: Db;
  clock: Clock;
  /** The largest image a request may carry, as for images attached in the app (FILES_MAX_IMAGE_BYTES). */
  imageBytes: number;
  /** How images given by http(s) URL are fetched: the web research's checks (public addresses only). */
  download: SafeDownload;
}

const modelIdOf = (bot: Pick<Bot, 'id'>) => `bot-${bot.id}`;
const unixSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** The caller's API key, or null when it is not one (unknown, revoked, expired). */
export const authenticateApiKey = (deps: OpenAiDeps, key: string) => authenticateKey(deps, key);

/** The active bots the key reaches: its one bot, or every bot of its owner. */
export async function listModels(deps: OpenAiDeps, key: ApiKeyRow) {
  return { object: 'list' as const, data: (await botsOfKey(deps, key)).map(modelOf) };
}

const modelOf = (bot: Pick<Bot, 'id' | 'name' | 'createdAt'>): Model => ({
  id: modelIdOf(bot),
  object: 'model',
  created: unixSeconds(bot.createdAt),
  owned_by: 'botty',
  name: bot.name,
});

/** One model of the key's, as GET /v1/models lists it; 404 like the chat's for any other. */
export async function getModel(deps: OpenAiDeps, key: ApiKeyRow, model: string): Promise<Model> {
  const bot = await requireModelBot(deps, key, model);
  const full = await findOwnedBotOf(deps.db.kysely, key.user_id, bot.id);
  if (!full) throw modelNotFound(model);
  return modelOf(full);
}

/** `bot-{id}` of an active bot within the key's scope; anything else is the same 404, like OpenAI's. */
export async function requireModelBot(deps: OpenAiDeps, key: ApiKeyRow, model: string): Promise<ReplyBot> {
  const id = /^bot-(\d{1,10})$/.exec(model)?.[1];
  const botId = id === undefined ? NaN : Number(id);
  if (!Number.isSafeInteger(botId) || (key.bot_id !== null && key.bot_id !== botId)) throw modelNotFound(model);
  const bot = await findOwnedReplyBotOf(deps.db.kysely, key.user_id, botId);
  if (!bot?.active) throw modelNotFound(model);
  return deps.publishedVersions.of(bot, 'others');
}

/**
 * Holds a place among the owner's replies in progress, or refuses (429) past a daily limit. The bot is the key
 * owner's own (requireModelBot), so the key's read brought the owner's limit columns: no read of its own.
 */
export const admitCompletion = (deps: OpenAiDeps, key: AuthenticatedKey, bot: ReplyBot) =>
  deps.usage.admit({ ownerId: bot.userId, shared: false, owner: ownerLimitColumns(key.user_id, key) });

export interface CompletionRequest {
  key: ApiKeyRow;
  bot: ReplyBot;
  body: ChatCompletionBody;
  /** `readMessages(body.messages, …)`, read before a stream opens so a bad request is still a plain 4xx. */
  messages: Awaited<ReturnType<typeof readMessages>>;
  /** The bot's model and the request's settings for it, checked against its provider (`callerSettingsOf`). */
  model: ResolvedModel;
  settings: CallerSettings;
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export interface CompletionHandlers {
  onText(text: string): void;
  /** The log probabilities of the text handed to `onText` next (only when the request asked for them). */
  onLogprobs?(tokens: TokenLogprob[]): void;
}

export interface Completion {
  usage: ReplyUsage;
  /** Calls of the caller's tools the reply ended with. */
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  finishReason: FinishReason;
  /** `botty_sources`, when the bot was given any. */
  sources: BottySources;
}

const FINISH_REASONS: Partial<Record<LanguageModelV2FinishReason, FinishReason>> = {
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
};

const bottySources = (sources: Source[]): BottySources =>
  sources.map(({ n, kind, title, url, snippet }) => ({ n, kind, title, ...(url ? { url } : {}), snippet }));

/**
 * Answers as the bot answers in Botty (the one reply pipeline: its prompt and settings, knowledge passages, web
 * research), with the caller's system messages after the bot's own prompt, but stores nothing of the exchange:
 * like OpenAI's API, it is stateless. Only the bot's usage count goes up. Throws an OpenAiError when the model fails.
 */
export async function complete(
  deps: OpenAiDeps,
  request: CompletionRequest,
  handlers: CompletionHandlers,
): Promise<Completion> {
  const { bot, body, signal, log } = request;
  const { callerInstructions, history, question, images, afterQuestion } = request.messages;
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
      caller: request.settings,
      afterQuestion,
      model: request.model,
      ...(handlers.onLogprobs ? { onLogprobs: handlers.onLogprobs } : {}),
      signal,
      log,
    },
    // Research steps are part of Botty's own chat view; the sources come at the end (`botty_sources`).
    (event) => {
      if (event.event === 'delta') handlers.onText(event.data.text);
    },
  );
  if (result.error) throw replyFailed(result.error, result.failure ?? null);
  if (!signal.aborted) deps.usage.countUse(bot.id, isoNow(deps.clock), log);
  return {
    usage: result.usage,
    toolCalls: (result.toolCalls ?? []).map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
    finishReason: FINISH_REASONS[result.finishReason ?? 'stop'] ?? 'stop',
    sources: bottySources(result.sources),
  };
}

export const usageOf = (usage: ReplyUsage) => {
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
};
