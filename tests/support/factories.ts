import type { ApiClient } from './api-client';
import type { Bot, CreateBotRequest } from '../../src/shared/contracts/bots';

let counter = 0;

/** Creates a bot through the API as the owner of `token`; fields default to a valid planning bot. */
export async function createBot(t: ApiClient, token: string, overrides: Partial<CreateBotRequest> = {}): Promise<Bot> {
  counter += 1;
  const res = await t.request<Bot>('POST', '/api/bots', {
    token,
    body: {
      name: `Bot ${counter}`,
      description: 'Helps plan weekly meals',
      purpose: 'planning',
      icon: 'utensils',
      capabilities: ['memory_context'],
      config: { tone: 'friendly', maxContextMessages: 10 },
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`create bot failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A clock that moves one second forward on every reading, so timestamps are distinct and ordered. */
export function steppingClock(start = Date.parse('2025-01-01T00:00:00.000Z')) {
  let time = start;
  return { now: () => new Date((time += 1000)) };
}
