import { describe, expect, it } from 'vitest';
import type { UsageRow } from '@shared/contracts/admin';
import { groupUsage } from './usage-totals';

const row = (fields: Partial<UsageRow>): UsageRow => ({
  day: '2026-11-01',
  userId: 1,
  username: 'ann',
  botId: 5,
  botName: 'Chef',
  model: '1/llama3',
  replies: 1,
  inputTokens: 10,
  outputTokens: 20,
  ...fields,
});

describe('groupUsage', () => {
  it('sums the days of each person, bot and model, most tokens first', () => {
    const groups = groupUsage([
      row({}),
      row({ day: '2026-11-02', replies: 2, inputTokens: 5, outputTokens: 5 }),
      row({ botId: null, botName: null, outputTokens: 500 }),
      row({ userId: 2, username: 'bob', model: '2/gpt' }),
    ]);
    expect(groups.map((g) => [g.username, g.botName, g.model, g.replies, g.inputTokens + g.outputTokens])).toEqual([
      ['ann', null, '1/llama3', 1, 510],
      ['ann', 'Chef', '1/llama3', 3, 40],
      ['bob', 'Chef', '2/gpt', 1, 30],
    ]);
  });
});
