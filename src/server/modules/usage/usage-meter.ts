import type { FastifyBaseLogger } from 'fastify';
import type { UsageToday } from '@shared/contracts/admin';
import type { ChatTurn } from '../../ai/tasks/chat-reply';
import type { ReplyUsage } from '../../ai/tasks/chat-reply';
import { AppError } from '../../lib/errors';
import type { RepliesInProgress } from './replies-in-progress';
import { keepUntilSettled } from '../../lib/background-work';
import { COUNTER_GATHER_MS, coalescedWrites } from '../../lib/coalesced-writes';
import { recordBotUse } from '../bots/bot-use';
import { addUsage, findLimitColumns, type UsageIncrement } from './usage.repository';
import { getAdminSettings } from '../settings/settings.service';
import { limitsOf, usageTodayFor, utcDay, type UsageDeps, type UserLimitColumns } from './usage.service';

/** Who a model call is charged to (a bot's owner), and whether someone else is asking (a guest, a visitor). */
export interface Charge {
  ownerId: number;
  shared: boolean;
  /** The owner's limit columns, when the caller read them already (with the conversation): one read less. */
  owner?: UserLimitColumns;
}

/** A reply as it ended (stopped and failed ones too), as the reply pipeline knows it. */
export interface EndedReply {
  /** The charged user: the bot's owner. */
  userId: number;
  /** null: a draft's training preview, recorded as bot 0. */
  botId: number | null;
  /** The model id that answered; null offline, where no model was asked and nothing is counted. */
  model: string | null;
  usage: ReplyUsage;
  prompt: { system: string; turns: readonly ChatTurn[] } | null;
  text: string;
}

/** A place among the owner's replies in progress, given back by the reply's record or by `giveBack`. */
export interface Admission {
  /** For a request refused after admission, whose reply never runs. */
  giveBack(): void;
}

/** Counts replies and tokens per user, bot, model and UTC day, and refuses model calls past a daily limit. */
export interface UsageMeter {
  /**
   * Throws a 429 AppError (with `retryAfter` seconds and `resetsAt`) when the owner is past a daily limit; else
   * holds a place among the owner's replies in progress (when they have a limit) until a reply's usage is recorded.
   */
  admit(charge: Charge): Promise<Admission>;
  /** Saves the reply's usage off the caller's path; a failure is logged, never thrown. */
  record(reply: EndedReply, log: FastifyBaseLogger): void;
  /**
   * Counts a use of the bot (its usageCount and lastUsed) off the caller's path, as `record`: the reply's end
   * (`done`, `[DONE]`) no longer waits for a write of a counter; a failure only costs the count.
   */
  countUse(botId: number, at: string, log: FastifyBaseLogger): void;
}

/** Providers count roughly four characters of English to a token; used when a provider reports no usage. */
const CHARS_PER_TOKEN = 4;
const estimateTokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);
const promptChars = (prompt: EndedReply['prompt']) =>
  prompt ? prompt.system.length + prompt.turns.reduce((sum, turn) => sum + turn.text.length, 0) : 0;

function untilReset(now: Date, resetsAt: Date) {
  const minutes = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** The limit reached, or null. Replies in progress count as replies already made. */
function limitReached(today: UsageToday, inProgress: number): 'replies' | 'tokens' | null {
  const { dailyReplies, dailyTokens } = today.limits;
  if (dailyReplies !== null && today.replies + inProgress > dailyReplies) return 'replies';
  if (dailyTokens !== null && today.tokens >= dailyTokens) return 'tokens';
  return null;
}

const NOUNS = { replies: ['reply', 'replies'], tokens: ['token', 'tokens'] } as const;

function limitReachedError(now: Date, today: UsageToday, limit: 'replies' | 'tokens', shared: boolean) {
  const resetsAt = new Date(today.resetsAt);
  const reset = `The limit resets at 00:00 UTC (in ${untilReset(now, resetsAt)}).`;
  const allowed = (limit === 'replies' ? today.limits.dailyReplies : today.limits.dailyTokens) ?? 0;
  const amount = `${allowed.toLocaleString('en-US')} ${NOUNS[limit][allowed === 1 ? 0 : 1]}`;
  // A guest learns that the owner's limit was reached, never how much the owner uses.
  const message = shared
    ? `This bot’s owner has reached their daily ${NOUNS[limit][0]} limit. ${reset}`
    : `You have used today’s ${amount}. ${reset}`;
  return new AppError('RATE_LIMITED', message, {
    limit,
    resetsAt: today.resetsAt,
    retryAfter: Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000)),
  });
}

const NOTHING_HELD: Admission = { giveBack: () => {} };

export function createUsageMeter(
  deps: UsageDeps & { inProgress: RepliesInProgress; log: FastifyBaseLogger; background?: Set<Promise<unknown>> },
): UsageMeter {
  const { inProgress } = deps;
  const release = (userId: number, log: FastifyBaseLogger) =>
    inProgress.release(userId).catch((err: unknown) => log.warn({ err }, 'could not release a reply in progress'));
  // Every reply adds to its day's row of (owner, bot, model), the same row for the replies of a bot many people use
  // at once: those that end within a moment of each other, or while the row is being written, are added up and
  // written together, one statement for them all (as bot-use.ts counts a bot's uses).
  const addToRow = coalescedWrites(
    (a: UsageIncrement, b: UsageIncrement): UsageIncrement => ({
      ...a,
      replies: a.replies + b.replies,
      inputTokens: a.inputTokens + b.inputTokens,
      outputTokens: a.outputTokens + b.outputTokens,
      estimatedReplies: a.estimatedReplies + b.estimatedReplies,
    }),
    (_row: string, increment: UsageIncrement) => addUsage(deps.db.kysely, increment),
    { gatherMs: COUNTER_GATHER_MS },
  );
  function save(reply: EndedReply, model: string) {
    const { inputTokens, outputTokens } = reply.usage;
    const increment: UsageIncrement = {
      day: utcDay(deps.clock.now()),
      userId: reply.userId,
      botId: reply.botId ?? 0,
      model,
      replies: 1,
      inputTokens: inputTokens ?? estimateTokens(promptChars(reply.prompt)),
      outputTokens: outputTokens ?? estimateTokens(reply.text.length),
      estimatedReplies: inputTokens === null || outputTokens === null ? 1 : 0,
    };
    return addToRow(JSON.stringify([increment.day, increment.userId, increment.botId, model]), increment);
  }
  return {
    async admit({ ownerId, shared, owner }) {
      const user = owner ?? (await findLimitColumns(deps.db.kysely, ownerId));
      if (!user) return NOTHING_HELD;
      // Most accounts have no limit: their use today is not read before every reply.
      const limits = limitsOf(user, (await getAdminSettings(deps)).defaultLimits);
      if (limits.dailyReplies === null && limits.dailyTokens === null) return NOTHING_HELD;
      const today = (await usageTodayFor(deps, [user])).get(ownerId)!;
      const held = await inProgress.hold(ownerId);
      const reached = limitReached(today, held);
      if (!reached) return { giveBack: () => void release(ownerId, deps.log) };
      await inProgress.release(ownerId);
      throw limitReachedError(deps.clock.now(), today, reached, shared);
    },
    record(reply, log) {
      const { model } = reply;
      // The place is given back once the reply is in the totals, so a check in between counts it once.
      keepUntilSettled(
        deps.background,
        (model === null ? Promise.resolve() : save(reply, model))
          .catch((err: unknown) => log.error({ err }, 'could not record the reply’s usage'))
          .finally(() => release(reply.userId, log)),
      );
    },
    countUse(botId, at, log) {
      keepUntilSettled(
        deps.background,
        recordBotUse(deps.db.kysely, botId, at).catch((err: unknown) =>
          log.warn({ err, botId }, 'could not count the bot’s use'),
        ),
      );
    },
  };
}
