import type { LanguageModelV2FinishReason } from '@ai-sdk/provider';
import type { FastifyBaseLogger } from 'fastify';
import type { ChatStreamEvent, ReplyStep, Source } from '@shared/contracts/chat';
import type { CallerSettings } from '../../ai/caller-settings';
import { composePrompt, type HistoryMessage } from '../../ai/compose-prompt';
import type { ModelCatalog, ResolvedModel } from '../../ai/model-catalog';
import {
  CHAT_ERRORS,
  ChatReplyError,
  runChatReply,
  type ChatTimeouts,
  type ChatTurn,
  type ReplyFailure,
  type ReplyHandlers,
  type ReplyUsage,
  type TurnToolCall,
} from '../../ai/tasks/chat-reply';
import {
  askWithContextTools,
  newReplyContext,
  offlineReplyWithSources,
  type ReplyContextProvider,
  type ReplyingBot,
  type ReplyQuestion,
  type ToolApprover,
} from './reply-context';
import type { PublishedVersions } from '../releases/published-versions';
import type { UsageMeter } from '../usage/usage-meter';

/** What every way of answering shares: the model, its time limits and the context providers, in order. */
export interface ReplyPipelineDeps {
  /** Resolves each reply's model from the bot's choice (contracts/admin.ts model ids). */
  models: ModelCatalog;
  timeouts: ChatTimeouts;
  /** What other domains add to a reply (knowledge passages, web research, images), in order. */
  contextProviders: readonly ReplyContextProvider[];
  /** Counts each reply, however it ended, against its bot's owner. */
  usage: UsageMeter;
  /** The bot as everyone but its owner gets it: its published version (the surfaces ask it before replying). */
  publishedVersions: PublishedVersions;
}

export interface ReplyRequest {
  /** Who is asking: their attachments are read, a shared bot's owner's knowledge is searched for them. */
  userId: number;
  bot: ReplyingBot;
  question: ReplyQuestion;
  /** The model's memory of the conversation, oldest first. */
  history: readonly HistoryMessage[];
  signal: AbortSignal;
  log: FastifyBaseLogger;
  /** Instructions of the caller's own, after the bot's prompt (the OpenAI-compatible API's system messages). */
  callerInstructions?: readonly string[];
  /** Images the caller sent with the question itself (the OpenAI-compatible API). */
  images?: ChatTurn['images'];
  maxOutputTokens?: number;
  temperature?: number;
  /**
   * The OpenAI-compatible API's: the caller's settings and tools, and the turns after the question (the calls
   * of its tools and their results); `model`, resolved already to check the settings against its provider;
   * `onLogprobs`, handed each piece's log probabilities just before the piece itself.
   */
  caller?: CallerSettings;
  afterQuestion?: readonly HistoryMessage[];
  model?: ResolvedModel;
  onLogprobs?: ReplyHandlers['onLogprobs'];
  /** The chat's: asks the person chatting before a tool that changes things runs; absent elsewhere. */
  approve?: ToolApprover;
}

/** The events of a reply as it is written; its end (text, usage, error) is what `runReply` resolves to. */
export type ReplyEvent = Extract<ChatStreamEvent, { event: 'delta' | 'sources' | 'step' }>;

export interface ReplyResult {
  text: string;
  /** A message fit for the user when the reply failed (also when the model wrote nothing); null otherwise. */
  error: string | null;
  /** Why it failed, when an API answers with a status for it (a busy provider, an image too large). */
  failure?: ReplyFailure | null;
  usage: ReplyUsage;
  sources: Source[];
  steps: ReplyStep[];
  /** From the call to the first piece of text; null when none came. */
  firstTokenMs: number | null;
  replyMs: number;
  /** The model that answered, as a model id (`connectionId/model`, contracts/admin.ts); null offline. */
  model: string | null;
  /** The calls of the caller's tools the reply ended with (the OpenAI-compatible API's `tool_calls`). */
  toolCalls?: TurnToolCall[];
  /** Why the model stopped: its own stop, the output cap, the caller's tool calls; 'unknown' when it failed. */
  finishReason?: LanguageModelV2FinishReason;
}

/**
 * The one way a bot answers (chat, regenerate, edit, Retry, the widget, shared links, `/v1`, training previews
 * and evaluations): the context providers fill in sources, instructions, tools and images; the prompt is composed
 * from the bot's settings; the model answers with the tools (or, when it refuses tools, after the research was
 * done up front); failures become a message for the user. Never rejects; a stop (`signal`) simply ends it.
 */
export async function runReply(
  deps: ReplyPipelineDeps,
  request: ReplyRequest,
  emit: (event: ReplyEvent) => void,
): Promise<ReplyResult> {
  const { bot, signal, log } = request;
  const startedAt = performance.now();
  const context = newReplyContext();
  let text = '';
  let firstTokenMs: number | null = null;
  let usage: ReplyUsage = { inputTokens: null, outputTokens: null };
  let error: string | null = null;
  let failure: ReplyFailure | null = null;
  let sent: ReturnType<typeof composePrompt> | null = null;
  let resolved: ResolvedModel | null = null;
  const toolCalls: TurnToolCall[] = [];
  let finishReason: LanguageModelV2FinishReason = 'unknown';
  const handlers: ReplyHandlers = {
    onText(piece: string) {
      firstTokenMs ??= Math.round(performance.now() - startedAt);
      text += piece;
      emit({ event: 'delta', data: { text: piece } });
    },
    onUsage: (u: ReplyUsage) => (usage = u),
    onToolCalls: (calls) => toolCalls.push(...calls),
    onFinish: (reason) => (finishReason = reason),
    ...(request.onLogprobs ? { onLogprobs: request.onLogprobs } : {}),
  };
  try {
    // Per reply, so a bot's new model, or a model an admin disabled, takes effect on the next one.
    const chosen = request.model ?? (await deps.models.resolve('chat', bot.config.model));
    resolved = chosen;
    let holdDeadlines: (() => () => void) | undefined;
    const input = {
      userId: request.userId,
      bot,
      question: request.question,
      signal,
      log,
      emit,
      approve: request.approve && offTheClock(request.approve, () => holdDeadlines?.()),
    };
    for (const provide of deps.contextProviders) await provide(input, context);
    await askWithContextTools(context, log, (tools) => {
      if (context.sources.length) emit({ event: 'sources', data: { sources: context.sources } });
      const prompt = composePrompt(bot, request.history, request.question.content, {
        sources: context.sources,
        instructions: [...(request.callerInstructions ?? []), ...context.instructions],
        images: [...(request.images ?? []), ...context.images],
        after: request.afterQuestion,
      });
      sent = prompt;
      return runChatReply(
        {
          ai: chosen.ai,
          botName: bot.name,
          ...prompt,
          tools,
          offlineText: offlineReplyWithSources(bot.name, context.sources),
          maxOutputTokens: request.maxOutputTokens,
          temperature: request.temperature,
          caller: request.caller,
          onDeadlines: (hold) => (holdDeadlines = hold),
          signal,
          timeouts: deps.timeouts,
          log,
        },
        handlers,
      );
    });
    if (!text && !toolCalls.length && !signal.aborted) error = CHAT_ERRORS.empty;
  } catch (err) {
    if (!(err instanceof ChatReplyError)) log.error({ err }, 'chat reply failed');
    error = err instanceof ChatReplyError ? err.message : CHAT_ERRORS.unknown;
    failure = err instanceof ChatReplyError ? err.failure : null;
  }
  const result: ReplyResult = {
    text,
    error,
    failure,
    usage,
    sources: context.sources,
    steps: context.steps,
    firstTokenMs,
    replyMs: Math.round(performance.now() - startedAt),
    model: resolved?.id ?? null,
    toolCalls,
    finishReason,
  };
  deps.usage.record({ userId: bot.userId, botId: bot.id, model: result.model, usage, prompt: sent, text }, log);
  return result;
}

/** The person's time to decide on a tool call does not count against the reply's time limit. */
function offTheClock(approve: ToolApprover, hold: () => (() => void) | undefined): ToolApprover {
  return async (call, signal) => {
    const release = hold();
    try {
      return await approve(call, signal);
    } finally {
      release?.();
    }
  };
}
