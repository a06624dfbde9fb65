import type { Message } from '@shared/contracts/chat';
import { checkSupport } from '../../ai/tasks/check-support';
import { keepUntilSettled } from '../../lib/background-work';
import type { ReplyDeps } from './chat-deps';
import { saveSupport } from './messages.repository';

/** The whole check, the judge's call and its word-overlap fallback, after which it is given up (and logged). */
export const REPLY_SUPPORT_TIMEOUT_MS = 45_000;

/**
 * Work that outlives its reply: the reply never waits for it, a failure is logged, and the app waits for it when
 * it closes.
 */
export function inBackground(deps: ReplyDeps, work: () => Promise<unknown>, failure: string) {
  keepUntilSettled(
    deps.background,
    work().catch((err: unknown) => deps.log.warn({ err }, failure)),
  );
}

/**
 * Checks a saved reply's sentences against the sources it had (decision 0044), after `done` was sent: the judge
 * model maps each sentence to the sources backing it, or, offline or when the judge fails, word overlap does. The
 * result is saved on the reply; the chat fetches the reply again once it is done. Replies without sources or text
 * have nothing to check.
 */
export function checkReplySupport(deps: ReplyDeps, message: Message) {
  if (!message.sources.length || !message.content.trim()) return;
  inBackground(
    deps,
    async () => {
      const { ai } = await deps.models.resolve('judge');
      const signal = AbortSignal.timeout(REPLY_SUPPORT_TIMEOUT_MS);
      const support = await checkSupport(ai, { answer: message.content, sources: message.sources }, signal, deps.log);
      await saveSupport(deps.db.kysely, message.id, support);
    },
    'support check: could not check the reply against its sources',
  );
}
