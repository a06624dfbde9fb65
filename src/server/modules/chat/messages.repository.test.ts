import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { insertConversation } from './conversations.repository';
import { findLastMessages, findMessage, insertMessage, MESSAGE_COLUMNS } from './messages.repository';

describe.each(databaseKinds)('message rows on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t.drop());

  it('are read with their own columns only, not the search index’s', async () => {
    const now = new Date().toISOString();
    const db = t.db.kysely;
    const { userId, botId } = await insertUserWithBot(db, now);
    const conversation = await insertConversation(db, { botId, userId, title: 'Words', titleSource: 'user' }, now);
    const text = 'A message long enough that its search index entry would be longer still.';
    const saved = await insertMessage(
      db,
      { conversationId: conversation.id, parentId: null, role: 'user', content: text, status: 'complete' },
      now,
    );
    for (const row of [saved, await findMessage(db, saved.id), (await findLastMessages(db, conversation.id, 5))[0]]) {
      expect(Object.keys(row!).sort()).toEqual([...MESSAGE_COLUMNS].sort());
      expect(row).toMatchObject({ content: text, user_id: userId });
    }
  });
});
