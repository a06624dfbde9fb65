import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotConfig } from '@shared/contracts/bots';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { contextWindowOf } from '../../ai/compose-prompt';
import { fromJson, toJson } from '../../db/json';
import { insertConversation } from './conversations.repository';
import { insertMessage } from './messages.repository';
import { findLastMessages } from './branches.repository';
import { findReplyConversation } from './reply-conversation.repository';

describe.each(databaseKinds)('the conversation a reply starts from, on %s', (kind) => {
  let t: TestDb;
  let owner: { userId: number; botId: number };
  let conversationId: number;
  beforeAll(async () => {
    t = await createTestDb(kind);
    const db = t.db.kysely;
    owner = await insertUserWithBot(db);
    const now = new Date().toISOString();
    conversationId = (await insertConversation(db, { ...owner, title: 'Long', titleSource: 'user' }, now)).id;
    let parentId: number | null = null;
    for (let i = 0; i < 14; i += 1) {
      const role = i % 2 ? 'assistant' : 'user';
      // A version left behind by an edit is not part of the branch, nor of the memory.
      if (i === 6)
        await insertMessage(db, { conversationId, parentId, role, content: 'Old version', status: 'complete' }, now);
      const row = await insertMessage(
        db,
        { conversationId, parentId, role, content: `Message ${i}`, status: i === 9 ? 'failed' : 'complete' },
        now,
      );
      if (i === 6)
        await db.updateTable('messages').set({ active: false }).where('content', '=', 'Old version').execute();
      parentId = row.id;
    }
  });
  afterAll(() => t.drop());

  const configs: BotConfig[] = [
    {},
    { conversationMemory: false },
    { maxContextMessages: 3 },
    { conversationMemory: true, maxContextMessages: 40 },
  ];
  it.each(configs)(
    'reads the memory that findLastMessages would for %j (PostgreSQL; SQLite reads it later)',
    async (config) => {
      await t.db.kysely
        .updateTable('bots')
        .set({ config: toJson(config) })
        .where('id', '=', owner.botId)
        .execute();
      const found = await findReplyConversation(t.db, owner.userId, conversationId);
      expect(fromJson(found?.row.config)).toEqual(config);
      if (kind === 'sqlite') return expect(found?.recent).toBeUndefined();
      const expected = await findLastMessages(t.db.kysely, conversationId, Math.max(1, contextWindowOf(config)));
      expect(found?.recent).toEqual(expected);
      expect(found?.recent?.length).toBe(Math.min(14, Math.max(1, contextWindowOf(config))));
    },
  );

  it('finds nothing in someone else’s conversation, and no bot the caller may not use', async () => {
    expect(await findReplyConversation(t.db, owner.userId + 1, conversationId)).toBeNull();
    // The conversation is theirs but the bot is not usable: no bot in the row (the service answers 404).
    expect((await findReplyConversation(t.db, owner.userId, conversationId, owner.botId + 1))?.row.id).toBeNull();
  });
});
