import type { UsageReport } from '@shared/contracts/admin';

const DAY_MS = 86_400_000;

export interface DayUsage {
  day: string;
  replies: number;
  tokens: number;
}

/** Every day of the report's range, oldest first, with nothing used on the days the server did not list. */
export function dailyUsage(report: Pick<UsageReport, 'from' | 'to' | 'days'>): DayUsage[] {
  const listed = new Map(report.days.map((d) => [d.day, d]));
  const result: DayUsage[] = [];
  for (let time = Date.parse(report.from); time <= Date.parse(report.to); time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10);
    const found = listed.get(day);
    result.push({ day, replies: found?.replies ?? 0, tokens: found ? found.inputTokens + found.outputTokens : 0 });
  }
  return result;
}

export interface BotModelUsage {
  key: string;
  bot: string;
  model: string;
  replies: number;
  tokens: number;
}

/** The report's rows summed per bot and model over the whole range, the most tokens first. */
export function usageByBotAndModel(rows: UsageReport['rows']): BotModelUsage[] {
  const groups = new Map<string, BotModelUsage>();
  for (const row of rows) {
    // A deleted bot's (or a use without one) rows have no name; they add up together.
    const bot = row.botName ?? 'No botty';
    const key = JSON.stringify([row.botId, row.model]);
    const group = groups.get(key) ?? { key, bot, model: row.model, replies: 0, tokens: 0 };
    group.replies += row.replies;
    group.tokens += row.inputTokens + row.outputTokens;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => b.tokens - a.tokens || a.bot.localeCompare(b.bot));
}
