import type { Insights } from '@shared/contracts/insights';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { requireOwnedBot } from '../bots/bots.service';
import { finishedEvaluationsOf } from '../evaluations/evaluations.service';
import { findConversationDates, findFaithfulness, findMessageFacts } from './insights.repository';

export interface InsightsDeps {
  db: Db;
  clock: Clock;
}

const DAY_MS = 24 * 60 * 60_000;
const dateOf = (iso: string) => iso.slice(0, 10);

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const present = (values: readonly (number | null)[]) => values.filter((v): v is number => v !== null);

/**
 * How a bot is used and how it is doing over the last `days` days (today included, UTC days): conversations,
 * messages and replies per day, reply timings, failures, ratings, token usage and its test results per version.
 */
export async function botInsights(deps: InsightsDeps, userId: number, botId: number, days: number): Promise<Insights> {
  const db = deps.db.kysely;
  await requireOwnedBot(db, userId, botId);
  const today = Date.parse(`${dateOf(deps.clock.now().toISOString())}T00:00:00.000Z`);
  const since = new Date(today - (days - 1) * DAY_MS).toISOString();
  const [conversations, messages, evaluations, faithfulness] = await Promise.all([
    findConversationDates(db, botId, since),
    findMessageFacts(db, botId, since),
    finishedEvaluationsOf(db, botId),
    findFaithfulness(deps.db, botId, since),
  ]);

  const perDay = Array.from({ length: days }, (_, i) => ({
    date: dateOf(new Date(today - (days - 1 - i) * DAY_MS).toISOString()),
    conversations: 0,
    messages: 0,
    replies: 0,
  }));
  const day = new Map(perDay.map((d) => [d.date, d]));
  // A row stamped after today (a clock set back) counts in the totals but on no day.
  for (const c of conversations) {
    const d = day.get(dateOf(c.created_at));
    if (d) d.conversations += 1;
  }
  const replies = messages.filter((m) => m.role === 'assistant');
  for (const m of messages) {
    const d = day.get(dateOf(m.created_at));
    if (d) d[m.role === 'assistant' ? 'replies' : 'messages'] += 1;
  }

  const usage = replies.filter((r) => r.input_tokens !== null || r.output_tokens !== null);
  const latestPerVersion = new Map<number, Insights['testPassRates'][number]>();
  for (const e of evaluations) {
    if (!latestPerVersion.has(e.version)) {
      // Answers the judge could not grade are neither passed nor failed.
      const total = e.total - e.judgeUnavailable;
      latestPerVersion.set(e.version, { version: e.version, passed: e.passed, total, at: e.createdAt });
    }
  }

  return {
    days,
    from: perDay[0]!.date,
    to: perDay.at(-1)!.date,
    perDay,
    totals: {
      conversations: conversations.length,
      messages: messages.length - replies.length,
      replies: replies.length,
    },
    medianFirstTokenMs: median(present(replies.map((r) => r.first_token_ms))),
    medianReplyMs: median(present(replies.map((r) => r.reply_ms))),
    failedReplies: replies.filter((r) => r.status === 'failed').length,
    stoppedReplies: replies.filter((r) => r.status === 'stopped').length,
    ratings: {
      up: replies.filter((r) => r.rating === 'up').length,
      down: replies.filter((r) => r.rating === 'down').length,
    },
    tokens: usage.length
      ? {
          input: usage.reduce((sum, r) => sum + (r.input_tokens ?? 0), 0),
          output: usage.reduce((sum, r) => sum + (r.output_tokens ?? 0), 0),
        }
      : null,
    faithfulness,
    testPassRates: [...latestPerVersion.values()].sort((a, b) => b.version - a.version),
  };
}
