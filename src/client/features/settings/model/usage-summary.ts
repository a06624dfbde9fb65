import type { UsageReport } from '@shared/contracts/admin';
import { botLabel } from '@/entities/usage/model/bot-label';
import { daysOfRange } from '@/lib/days-of-range';

export interface DayUsage {
  day: string;
  replies: number;
  tokens: number;
}

/** Every day of the report's range, oldest first, with nothing used on the days the server did not list. */
export function dailyUsage(report: Pick<UsageReport, 'from' | 'to' | 'days'>): DayUsage[] {
  const listed = new Map(report.days.map((d) => [d.day, d]));
  return daysOfRange(report.from, report.to).map((day) => {
    const found = listed.get(day);
    return { day, replies: found?.replies ?? 0, tokens: found ? found.inputTokens + found.outputTokens : 0 };
  });
}

export interface BotModelUsage {
  key: string;
  bot: string;
  model: string;
  replies: number;
  tokens: number;
}

/** The report's totals per bot and model (summed and ordered, most tokens first, by the server). */
export const usageByBotAndModel = (totals: UsageReport['totals']): BotModelUsage[] =>
  totals.map((total) => ({
    key: JSON.stringify([total.botId, total.model]),
    bot: botLabel(total),
    model: total.model,
    replies: total.replies,
    tokens: total.inputTokens + total.outputTokens,
  }));
