import type { UsageRow } from '@shared/contracts/admin';

export interface UsageGroup {
  key: string;
  username: string;
  botName: string | null;
  model: string;
  replies: number;
  inputTokens: number;
  outputTokens: number;
}

/** The report's day-by-day rows summed per person, bot and model over the range, most tokens first. */
export function groupUsage(rows: UsageRow[]): UsageGroup[] {
  const groups = new Map<string, UsageGroup>();
  for (const row of rows) {
    const key = `${row.userId}/${row.botId ?? ''}/${row.model}`;
    const group = groups.get(key) ?? {
      key,
      username: row.username,
      botName: row.botName,
      model: row.model,
      replies: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    group.replies += row.replies;
    group.inputTokens += row.inputTokens;
    group.outputTokens += row.outputTokens;
    groups.set(key, group);
  }
  const tokens = (g: UsageGroup) => g.inputTokens + g.outputTokens;
  return [...groups.values()].sort((a, b) => tokens(b) - tokens(a) || b.replies - a.replies);
}
