import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { recordBotUse } from './bot-use';

describe.each(databaseKinds)('recordBotUse on %s', (kind) => {
  let t: TestDb;
  let botId: number;
  beforeAll(async () => {
    t = await createTestDb(kind);
    const now = new Date().toISOString();
    const user = await t.db.kysely
      .insertInto('users')
      .values({
        username: 'ada',
        email: 'ada@example.com',
        password_hash: 'not a hash',
        role: 'user',
        email_verified: false,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bot = await t.db.kysely
      .insertInto('bots')
      .values({
        user_id: user.id,
        name: 'Popular',
        description: '',
        purpose: 'answering',
        icon: 'bot',
        active: true,
        capabilities: '[]',
        config: '{}',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    botId = bot.id;
  });
  afterAll(() => t.drop());

  it('counts every one of many concurrent uses, with the latest as last used', async () => {
    const times = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
    // Out of order: the last use written is not the latest one.
    await Promise.all([...times].reverse().map((at) => recordBotUse(t.db.kysely, botId, at)));
    const bot = await t.db.kysely
      .selectFrom('bots')
      .select(['usage_count', 'last_used'])
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(bot.usage_count).toBe(40);
    expect(new Date(bot.last_used!).toISOString()).toBe(times.at(-1));
  });
});
