import type { FastifyBaseLogger } from 'fastify';
import type { PreviewAnswersBody, PreviewEvent } from '@shared/contracts/training';
import { TRAINING_MESSAGES } from '@shared/contracts/training';
import { composePrompt, type PromptBot } from '../../ai/compose-prompt';
import type { Ai } from '../../ai/providers';
import { ChatReplyError, CHAT_ERRORS, runChatReply, type ChatTimeouts } from '../../ai/tasks/chat-reply';
import { AppError } from '../../lib/errors';

export interface TrainingDeps {
  ai: Ai;
  timeouts: ChatTimeouts;
}

/** Refuses up front, before a stream opens, when no model could answer anything. */
export function requireModel(ai: Ai): void {
  if (!ai.model) throw new AppError('UNAVAILABLE', TRAINING_MESSAGES.offline);
}

/** The bot's answer to one query on its own, as a new conversation's first message would get it. */
export async function answerQuery(
  deps: TrainingDeps & { log: FastifyBaseLogger },
  bot: PromptBot,
  query: string,
  signal: AbortSignal,
): Promise<string> {
  const { system, turns } = composePrompt(bot, [], query);
  let answer = '';
  await runChatReply(
    { ai: deps.ai, botName: bot.name, system, turns, signal, timeouts: deps.timeouts, log: deps.log },
    { onText: (text) => (answer += text) },
  );
  if (!signal.aborted && !answer.trim()) throw new ChatReplyError(CHAT_ERRORS.empty);
  return answer;
}

/**
 * Answers the test queries of a bot that is not created yet (the wizard's draft), one after the other so a
 * local model is not asked for all of them at once, sending each answer or failure as it is known. Stops when
 * `signal` aborts (the user cancelled training or left).
 */
export async function previewAnswers(
  deps: TrainingDeps & { log: FastifyBaseLogger },
  body: PreviewAnswersBody,
  signal: AbortSignal,
  send: (event: PreviewEvent) => void,
): Promise<void> {
  let answered = 0;
  for (const [index, query] of body.queries.entries()) {
    if (signal.aborted) return;
    try {
      const answer = await answerQuery(deps, body.bot, query, signal);
      if (signal.aborted) return;
      send({ type: 'answer', index, query, answer });
      answered += 1;
    } catch (error) {
      const message = error instanceof ChatReplyError ? error.message : CHAT_ERRORS.unknown;
      send({ type: 'failed', index, query, message });
    }
  }
  send({ type: 'done', answered });
}
