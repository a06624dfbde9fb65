import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { recordBotUse } from './bot-use';

describe.each(databaseKinds)('recordBotUse on %s', (kind) => {
  let t: TestDb;
  let botId: number;
  beforeAll(async () => {
    t = await createTestDb(kind);
    ({ botId } = await insertUserWithBot(t.db.kysely));
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
