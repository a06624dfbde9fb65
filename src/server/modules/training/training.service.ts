import type { FastifyBaseLogger } from 'fastify';
import type { Source } from '@shared/contracts/chat';
import type { PreviewAnswersBody, PreviewEvent } from '@shared/contracts/training';
import { TRAINING_MESSAGES } from '@shared/contracts/training';
import type { ModelCatalog } from '../../ai/model-catalog';
import { ChatReplyError } from '../../ai/tasks/chat-reply';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/errors';
import { requireOwnedBot } from '../bots/bots.service';
import type { ReplyingBot } from '../replies/reply-context';
import { runReply, type ReplyPipelineDeps } from '../replies/reply-pipeline';

export interface TrainingDeps extends ReplyPipelineDeps {
  db: Db;
}

/** Refuses up front, before a stream opens, when no model could answer anything. */
export async function requireModel(models: ModelCatalog): Promise<void> {
  if (!(await models.resolve('chat')).ai.model) throw new AppError('UNAVAILABLE', TRAINING_MESSAGES.offline);
}

/**
 * The bot's answer to one query on its own, as a new conversation's first message would get it: through the one
 * reply pipeline, so with its knowledge passages and web research. Throws a ChatReplyError when it failed.
 */
export async function answerQuery(
  deps: ReplyPipelineDeps & { log: FastifyBaseLogger },
  bot: ReplyingBot,
  query: string,
  signal: AbortSignal,
): Promise<{ answer: string; sources: Source[] }> {
  const result = await runReply(
    deps,
    {
      userId: bot.userId,
      bot,
      question: { content: query, attachments: [], conversationId: null },
      history: [],
      signal,
      log: deps.log,
    },
    () => {},
  );
  if (result.error) throw new ChatReplyError(result.error);
  return { answer: result.text, sources: result.sources };
}

/**
 * The draft as a bot that can answer: while creating, one without files; while editing (`botId`), the caller's
 * bot with the draft's settings, so its knowledge files are read as the chat would read them.
 */
async function draftBot(deps: TrainingDeps, userId: number, body: PreviewAnswersBody): Promise<ReplyingBot> {
  if (body.botId === undefined) return { ...body.bot, id: null, userId };
  const bot = await requireOwnedBot(deps.db.kysely, userId, body.botId);
  return { ...body.bot, id: bot.id, userId };
}

/**
 * Answers the test queries of the wizard's draft, one after the other so a local model is not asked for all of
 * them at once, sending each answer or failure as it is known. Stops when `signal` aborts (the user cancelled
 * training or left). `prepare` checks the request before a stream opens.
 */
export async function preparePreviewAnswers(deps: TrainingDeps, userId: number, body: PreviewAnswersBody) {
  await requireModel(deps.models);
  const bot = await draftBot(deps, userId, body);
  await deps.usage.admit({ ownerId: userId, shared: false });
  return async (log: FastifyBaseLogger, signal: AbortSignal, send: (event: PreviewEvent) => void) => {
    let answered = 0;
    for (const [index, query] of body.queries.entries()) {
      if (signal.aborted) return;
      try {
        const { answer, sources } = await answerQuery({ ...deps, log }, bot, query, signal);
        if (signal.aborted) return;
        send({ type: 'answer', index, query, answer, sources });
        answered += 1;
      } catch (error) {
        if (!(error instanceof ChatReplyError)) throw error;
        send({ type: 'failed', index, query, message: error.message });
      }
    }
    send({ type: 'done', answered });
  };
}
