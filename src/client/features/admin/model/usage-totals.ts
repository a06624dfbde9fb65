import type { UsageTotal } from '@shared/contracts/admin';

export interface UsageGroup {
  key: string;
  username: string;
  botId: number | null;
  botName: string | null;
  model: string;
  replies: number;
  inputTokens: number;
  outputTokens: number;
}

/** The report's totals per person, bot and model (summed and ordered by the server), keyed for a table. */
export const usageGroups = (totals: UsageTotal[]): UsageGroup[] =>
  totals.map(({ userId, ...total }) => ({ key: `${userId}/${total.botId ?? ''}/${total.model}`, ...total }));
