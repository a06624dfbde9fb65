import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { insertConversation } from '../chat/conversations.repository';
import { findOwnedBot, findOwnedReplyBot, toBot, toReplyBot } from './bots.repository';
import { findConversationForReply } from './sharing.service';

describe.each(databaseKinds)('the bot a reply reads, on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t.drop());

  it('is the whole bot but its training’s example queries and test notes', async () => {
    const db = t.db.kysely;
    const now = new Date().toISOString();
    const { userId, botId } = await insertUserWithBot(db, now);
    const notes = Array.from({ length: 30 }, (_, i) => ({
      query: `Question ${i}?`,
      expected: 'A long answer. '.repeat(40),
    }));
    await db
      .updateTable('bots')
      .set({ example_queries: JSON.stringify(['What is new?']), test_notes: JSON.stringify(notes) })
      .where('id', '=', botId)
      .execute();
    const conversation = await insertConversation(db, { botId, userId, title: 'Hi', titleSource: 'user' }, now);
    const { exampleQueries, testNotes, ...whole } = toBot((await findOwnedBot(db, userId, botId))!);
    expect([exampleQueries, testNotes.length]).toEqual([['What is new?'], 30]);

    const forReply = await findConversationForReply(db, userId, conversation.id);
    const [forApi] = await findOwnedReplyBot(db, { userId, botId });
    for (const bot of [forReply!.bot, toReplyBot(forApi!)]) expect(bot).toStrictEqual(whole);
  });
});
