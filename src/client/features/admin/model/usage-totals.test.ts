import { describe, expect, it } from 'vitest';
import type { UsageTotal } from '@shared/contracts/admin';
import { usageGroups } from './usage-totals';

const total = (fields: Partial<UsageTotal>): UsageTotal => ({
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

describe('usageGroups', () => {
  it('keeps the server’s order and gives each person, bot and model a key of its own', () => {
    const groups = usageGroups([
      total({ outputTokens: 500 }),
      total({ botId: null, botName: null }),
      total({ userId: 2 }),
    ]);
    expect(groups.map((g) => g.key)).toEqual(['1/5/1/llama3', '1//1/llama3', '2/5/1/llama3']);
    expect(groups[0]).toMatchObject({
      username: 'ann',
      botName: 'Chef',
      replies: 1,
      inputTokens: 10,
      outputTokens: 500,
    });
  });
});
