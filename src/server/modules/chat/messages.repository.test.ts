import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { insertConversation } from './conversations.repository';
import { CONTEXT_COLUMNS, insertMessage, insertMessageTouching, MESSAGE_COLUMNS } from './messages.repository';
import { findContextMessages, findLastMessages, findMessage } from './branches.repository';

describe.each(databaseKinds)('message rows on %s', (kind) => {
  let t: TestDb;
  let owner: { userId: number; botId: number };
  beforeAll(async () => {
    t = await createTestDb(kind);
    owner = await insertUserWithBot(t.db.kysely);
  });
  afterAll(() => t.drop());

  it('are read with their own columns only, not the search index’s', async () => {
    const now = new Date().toISOString();
    const db = t.db.kysely;
    const { userId, botId } = owner;
    const conversation = await insertConversation(db, { botId, userId, title: 'Words', titleSource: 'user' }, now);
    const text = 'A message long enough that its search index entry would be longer still.';
    const saved = await insertMessage(
      db,
      { conversationId: conversation.id, parentId: null, role: 'user', content: text, status: 'complete' },
      now,
    );
    for (const row of [saved, await findMessage(db, saved.id)]) {
      expect(Object.keys(row!).sort()).toEqual([...MESSAGE_COLUMNS].sort());
      expect(row).toMatchObject({ content: text, user_id: userId });
    }
  });

  it('are read for the model’s memory with what it needs only, not their sources, steps or ratings', async () => {
    const now = new Date().toISOString();
    const db = t.db.kysely;
    const conversation = await insertConversation(db, { ...owner, title: 'Memory', titleSource: 'user' }, now);
    const question = await insertMessage(
      db,
      { conversationId: conversation.id, parentId: null, role: 'user', content: 'Which?', status: 'complete' },
      now,
    );
    const answer = await insertMessage(
      db,
      {
        conversationId: conversation.id,
        parentId: question.id,
        role: 'assistant',
        content: 'This.',
        status: 'complete',
      },
      now,
    );
    const memory = [
      ...(await findLastMessages(db, conversation.id, 5)).reverse(),
      ...(await findContextMessages(db, conversation.id, answer.id + 1, 5)),
    ];
    expect(memory.map((row) => Object.keys(row).sort())).toEqual(Array(4).fill([...CONTEXT_COLUMNS].sort()));
    expect(memory.map((row) => row.content)).toEqual(['Which?', 'This.', 'Which?', 'This.']);
  });

  it.runIf(kind === 'postgres')(
    'save a user message only at the end of the active branch, so a parent read earlier cannot fork it',
    async () => {
      const now = new Date().toISOString();
      const db = t.db.kysely;
      const conversation = await insertConversation(db, { ...owner, title: 'Race', titleSource: 'user' }, now);
      const message = (parentId: number | null, content: string) => ({
        conversationId: conversation.id,
        parentId,
        role: 'user' as const,
        content,
        status: 'complete' as const,
      });
      const first = await insertMessageTouching({ kysely: db, kind }, message(null, 'First'), now);
      expect(first?.row.content).toBe('First');
      // Both read "no message yet" (null) or "First" as the end; only the first to save wins.
      expect(await insertMessageTouching({ kysely: db, kind }, message(null, 'Also first'), now)).toBeNull();
      const second = await insertMessageTouching(
        { kysely: db, kind },
        message(first!.row.id, 'Second'),
        now,
        owner.botId,
      );
      expect(second?.replyId).toBeDefined();
      expect(
        await insertMessageTouching({ kysely: db, kind }, message(first!.row.id, 'Also second'), now, owner.botId),
      ).toBeNull();
      const rows = await db
        .selectFrom('messages')
        .select('content')
        .where('conversation_id', '=', conversation.id)
        .execute();
      expect(rows.map((row) => row.content).sort()).toEqual(['', 'First', 'Second']);
    },
  );

  it.runIf(kind === 'postgres')(
    'open the replies that start together in one statement, each at its own branch’s end, in order',
    async () => {
      const now = new Date().toISOString();
      const db = t.db.kysely;
      const conversations = await Promise.all(
        [1, 2, 3].map((i) => insertConversation(db, { ...owner, title: `Together ${i}`, titleSource: 'user' }, now)),
      );
      const [a, b, c] = conversations.map((conversation) => conversation.id) as [number, number, number];
      const before = await insertMessage(
        db,
        { conversationId: b, parentId: null, role: 'user', content: 'Earlier', status: 'complete' },
        now,
      );
      const later = new Date(Date.now() + 1000).toISOString();
      const open = (conversationId: number, parentId: number | null, content: string) =>
        insertMessageTouching(
          { kysely: db, kind },
          { conversationId, parentId, role: 'user', content, status: 'complete', fileIds: [] },
          later,
          owner.botId,
        );
      // In one turn: three conversations, one of them twice on the same parent (the second must not fork it).
      const [inA, inB, inC, againInC] = await Promise.all([
        open(a, null, 'A?'),
        open(b, before.id, 'B?'),
        open(c, null, 'C?'),
        open(c, null, 'C again?'),
      ]);
      expect(againInC).toBeNull();
      for (const [opened, content, parentId] of [
        [inA, 'A?', null],
        [inB, 'B?', before.id],
        [inC, 'C?', null],
      ] as const) {
        expect(opened?.row).toMatchObject({ content, parent_id: parentId, role: 'user', user_id: owner.userId });
        expect(opened!.replyId).toBeGreaterThan(opened!.row.id);
        expect(opened!.versions?.get(parentId ?? 0)).toEqual([opened!.row.id]);
        const reply = await findMessage(db, opened!.replyId!);
        expect(reply).toMatchObject({ parent_id: opened!.row.id, status: 'streaming', bot_version: owner.botId });
      }
      const touched = await db.selectFrom('conversations').select('updated_at').where('id', 'in', [a, b, c]).execute();
      expect(touched.map((row) => new Date(row.updated_at).toISOString())).toEqual([later, later, later]);
    },
  );
});
