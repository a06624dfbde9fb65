import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGES,
  type Conversation,
  type ConversationPage,
  type ConversationSearchResult,
  type Message,
} from '@shared/contracts/chat';
import { expectError, startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, messagesOf, openChatStream, streamChat } from '../../../../tests/support/chat-api';
import { anotherConnection, databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { messageText, startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, type TestApp } from '../../../../tests/support/test-app';

/** Issue 9: titles, History and search across bots, edit and resend on branches, message paging. */
describe.each(databaseKinds)('conversation history, titles and branches on %s', (kind) => {
  let fake: FakeLlm;
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    t = await startCheckedApp({ kind, env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' } });
    alice = (await signUp(t)).token;
    bob = (await signUp(t)).token;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.setReply('Hello from the fake model.');
    fake.setTitleReply('Fake conversation title');
  });

  const get = <T>(path: string, token = alice) => t.request<T>('GET', path, { token });
  const send = (conversationId: number, content: string, token = alice) =>
    streamChat(t, `/api/conversations/${conversationId}/stream`, { token, body: { content } });
  const edit = (messageId: number, content: string, token = alice) =>
    streamChat(t, `/api/messages/${messageId}/edit`, { token, body: { content } });
  const conversationOf = async (id: number) => (await get<Conversation>(`/api/conversations/${id}`)).body;

  /** A conversation with a bot of its own and these user messages, each answered. */
  async function conversationWith(messages: string[], token = alice, botName?: string) {
    const bot = await createBot(t, token, botName ? { name: botName } : {});
    const conversation = await createConversation(t, token, bot.id);
    for (const content of messages) await send(conversation.id, content, token);
    return { bot, conversation };
  }

  async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > deadline) return value;
      await sleep(20);
    }
  }

  describe('titles', () => {
    it('renames a conversation once, after its first reply, by a separate model call', async () => {
      const before = fake.titleRequests.length;
      const { conversation } = await conversationWith(['How do I keep a sourdough starter alive?']);
      const named = await eventually(
        () => conversationOf(conversation.id),
        (c) => c.titleSource === 'auto',
      );
      expect(named).toMatchObject({ title: 'Fake conversation title', titleSource: 'auto' });
      expect(fake.titleRequests.length).toBe(before + 1);
      const asked = fake.titleRequests.at(-1)!.body.messages.map(messageText).join('\n');
      expect(asked).toContain('How do I keep a sourdough starter alive?');
      expect(asked).toContain('Hello from the fake model.');

      await send(conversation.id, 'And how often do I feed it?');
      await t.app.backgroundSettled();
      expect(fake.titleRequests.length).toBe(before + 1);
      expect((await conversationOf(conversation.id)).title).toBe('Fake conversation title');
    });

    it("never renames over the user's title, even one given while the title was being written", async () => {
      const renamedFirst = await createConversation(t, alice, (await createBot(t, alice)).id);
      await t.request('PATCH', `/api/conversations/${renamedFirst.id}`, { token: alice, body: { title: 'Mine' } });
      const before = fake.titleRequests.length;
      await send(renamedFirst.id, 'What should I cook tonight?');
      await t.app.backgroundSettled();
      expect(fake.titleRequests.length).toBe(before);
      expect(await conversationOf(renamedFirst.id)).toMatchObject({ title: 'Mine', titleSource: 'user' });

      let release = () => {};
      fake.setTitleReply(() => new Promise((resolve) => (release = () => resolve('Too late'))));
      const racing = await conversationWith(['Plan a picnic for six']);
      await eventually(
        async () => fake.titleRequests.length,
        (n) => n > before,
      );
      await t.request('PATCH', `/api/conversations/${racing.conversation.id}`, {
        token: alice,
        body: { title: 'Picnic' },
      });
      release();
      await t.app.backgroundSettled();
      expect(await conversationOf(racing.conversation.id)).toMatchObject({ title: 'Picnic', titleSource: 'user' });
    });

    it('falls back to the first words of the question when the model fails', async () => {
      fake.setTitleReply({ status: 500 });
      const { conversation } = await conversationWith(['Which houseplants survive a dark north-facing flat?']);
      const named = await eventually(
        () => conversationOf(conversation.id),
        (c) => c.titleSource === 'auto',
      );
      expect(named.title).toBe('Which houseplants survive a dark north-facing');
    });
  });

  const searchFor = async (q: string, token = alice) =>
    (await get<{ results: ConversationSearchResult[] }>(`/api/conversations/search?q=${encodeURIComponent(q)}`, token))
      .body.results;

  /** SQLite: the external-content indexes agree with their tables (after inserts, updates and cascades). */
  async function checkIndexes() {
    if (kind !== 'sqlite') {
      // Every saved message is either indexed with its current text or waiting for the indexer.
      const { rows } = await sql<{ n: string }>`select count(*) as n from messages m
        left join message_search s on s.message_id = m.id
        where m.status != 'streaming' and s.tsv is distinct from to_tsvector('english', m.content)
          and not exists (select 1 from messages_search_pending p where p.message_id = m.id)`.execute(t.db.kysely);
      expect(Number(rows[0]!.n)).toBe(0);
      return;
    }
    for (const index of ['messages_fts', 'conversations_fts'])
      await sql`insert into ${sql.raw(index)}(${sql.raw(index)}) values ('integrity-check')`.execute(t.db.kysely);
  }

  describe('History and search', () => {
    it("lists only the caller's conversations with a message, across bots, newest first, page by page", async () => {
      const me = (await signUp(t)).token;
      const a = await conversationWith(['first'], me, 'Alpha');
      const b = await conversationWith(['second'], me, 'Beta');
      await createConversation(t, me, a.bot.id);
      const c = await conversationWith(['third'], me, 'Gamma');
      await conversationWith(['not mine'], bob);

      const first = await get<ConversationPage>('/api/conversations?limit=2', me);
      expect(first.status).toBe(200);
      expect(first.body.items.map((i) => [i.id, i.bot.name])).toEqual([
        [c.conversation.id, 'Gamma'],
        [b.conversation.id, 'Beta'],
      ]);
      expect(first.body.items[0]!.bot).toEqual({ id: c.bot.id, name: 'Gamma', icon: c.bot.icon });
      const second = await get<ConversationPage>(
        `/api/conversations?limit=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`,
        me,
      );
      expect(second.body).toMatchObject({ items: [{ id: a.conversation.id }], nextCursor: null });
      expect(second.body.items[0]!.title).not.toBe('');
      expectError(await get('/api/conversations?cursor=nonsense', me), 400, CHAT_MESSAGES.cursorInvalid);
      expect((await get('/api/conversations?limit=0', me)).status).toBe(400);
    });

    it("finds words of messages and titles in the caller's conversations across bots, highlighted", async () => {
      const me = (await signUp(t)).token;
      const bread = await conversationWith(['My sourdough starter smells of acetone'], me, 'Baker');
      const pizza = await conversationWith(['Is sourdough good for pizza dough?'], me, 'Pizzaiolo');
      await conversationWith(['Tell me about sourdough'], bob);
      const search = (q: string, token = me) => searchFor(q, token);

      const found = await search('sourdough');
      expect(found.map((r) => r.conversation.id).sort()).toEqual([bread.conversation.id, pizza.conversation.id].sort());
      const breadHit = found.find((r) => r.conversation.id === bread.conversation.id)!;
      const question = (await messagesOf(t, me, bread.conversation.id))[0]!;
      expect(breadHit.messageId).toBe(question.id);
      expect(breadHit.conversation.bot.name).toBe('Baker');
      expect(breadHit.snippet.filter((s) => s.match).map((s) => s.text.toLowerCase())).toEqual(['sourdough']);
      expect(breadHit.snippet.map((s) => s.text).join('')).toContain('starter smells of acetone');

      expect((await search('sourd')).length).toBe(2);
      expect((await search('sourdough acetone')).map((r) => r.conversation.id)).toEqual([bread.conversation.id]);
      expect(await search('acetone', alice)).toEqual([]);

      await t.request('PATCH', `/api/conversations/${pizza.conversation.id}`, {
        token: me,
        body: { title: 'Neapolitan evenings' },
      });
      const byTitle = await search('neapolitan');
      expect(byTitle).toEqual([
        expect.objectContaining({
          messageId: null,
          snippet: [
            { text: 'Neapolitan', match: true },
            { text: ' evenings', match: false },
          ],
        }),
      ]);

      await t.request('DELETE', `/api/conversations/${pizza.conversation.id}`, { token: me });
      expect((await search('sourdough')).map((r) => r.conversation.id)).toEqual([bread.conversation.id]);
      await t.request('DELETE', `/api/bots/${bread.bot.id}`, { token: me });
      expect(await search('sourdough')).toEqual([]);
      expect((await search('sourdough', bob)).length).toBe(1);
      await checkIndexes();
      expectError(await get('/api/conversations/search?q=%20'), 400, CHAT_MESSAGES.searchEmpty);
    });

    it('finds the newest matches when there are more than it looks at, and never another user’s', async () => {
      const me = (await signUp(t)).token;
      fake.setReply('More about pumpernickel.');
      const older = await conversationWith(['pumpernickel 1', 'pumpernickel 2', 'pumpernickel 3'], me);
      const newer = await conversationWith(['pumpernickel 4', 'pumpernickel 5', 'pumpernickel 6'], me);
      await conversationWith(['pumpernickel for bob'], bob);
      const search = async (limit: number) =>
        (await get<{ results: ConversationSearchResult[] }>(`/api/conversations/search?q=pumper&limit=${limit}`, me))
          .body.results;
      const newest = (await messagesOf(t, me, newer.conversation.id)).at(-1)!;

      // One result looks at ten matching messages, fewer than the twelve there are: the newest ten.
      expect(await search(1)).toEqual([
        expect.objectContaining({
          conversation: expect.objectContaining({ id: newer.conversation.id }),
          messageId: newest.id,
        }),
      ]);
      expect((await search(5)).map((r) => r.conversation.id)).toEqual([newer.conversation.id, older.conversation.id]);
    });
    /** A new user's conversation with one reply ("Rye wants a longer proof."), which search finds. */
    async function replyFound() {
      const me = (await signUp(t)).token;
      fake.setReply('Rye wants a longer proof.');
      const { conversation } = await conversationWith(['How long for rye bread?'], me);
      const [, reply] = await messagesOf(t, me, conversation.id);
      const found = async (q: string) => (await searchFor(q, me)).map((r) => r.messageId);
      expect(await found('proof')).toEqual([reply!.id]);
      return { me, conversation, reply, found };
    }

    it('indexes saved messages off the reply, yet search finds them at once; changed and deleted text leaves the index', async () => {
      const { me, conversation, reply, found } = await replyFound();

      const queue = sql.table(kind === 'sqlite' ? 'messages_fts_pending' : 'messages_search_pending');
      const pending = async () =>
        Number((await sql<{ n: number }>`select count(*) as n from ${queue}`.execute(t.db.kysely)).rows[0]!.n);
      const setReply = (content: string) =>
        t.db.kysely.updateTable('messages').set({ content }).where('id', '=', reply!.id).execute();
      // Without a search, the periodic indexer takes new messages in.
      fake.setReply('Spelt is quicker.');
      await send(conversation.id, 'And for spelt?', me);
      await expect.poll(pending).toBe(0);
      // Text in the index leaves it when it changes...
      await setReply('Rye wants patience.');
      // ...and text still waiting for the indexer is replaced before it is indexed.
      await setReply('Rye wants patience and warmth.');
      expect(await found('proof')).toEqual([]);
      expect(await found('warmth')).toEqual([reply!.id]);
      expect(await found('rye')).toEqual([reply!.id]);
      await checkIndexes();

      await t.request('DELETE', `/api/conversations/${conversation.id}`, { token: me });
      expect(await found('rye')).toEqual([]);
      await checkIndexes();
    });

    it.runIf(kind === 'postgres')(
      'finds a message another indexer is writing: the search waits for it rather than skip it',
      async () => {
        const { reply, found } = await replyFound();
        // Changed: noted for the indexer again.
        await t.db.kysely
          .updateTable('messages')
          .set({ content: 'Rye wants warmth.' })
          .where('id', '=', reply!.id)
          .execute();

        // Another indexer (the periodic one, or another instance's) claims it and takes its time to commit.
        const other = anotherConnection(t.testDb);
        try {
          const search = await other.db.kysely.transaction().execute(async (tx) => {
            const claimed = await sql`select message_id from messages_search_pending where message_id = ${reply!.id}
              for update`.execute(tx);
            expect(claimed.rows).toHaveLength(1);
            const searching = found('warmth');
            await sleep(300);
            await sql`insert into message_search (message_id, tsv) values (${reply!.id}, to_tsvector('english',
              'Rye wants warmth.')) on conflict (message_id) do update set tsv = excluded.tsv`.execute(tx);
            await sql`delete from messages_search_pending where message_id = ${reply!.id}`.execute(tx);
            return { searching };
          });
          expect(await search.searching).toEqual([reply!.id]);
        } finally {
          await other.db.close();
        }
      },
    );
  });

  describe('edit and resend', () => {
    const contents = (messages: Message[]) => messages.map((m) => m.content);
    const promptOf = () => fake.lastRequest().body.messages.map(messageText).join('\n');

    it('branches at an edited message; the model sees only the active branch; versions switch; the export keeps both', async () => {
      fake.setReply((request) => `Answer to ${messageText(request.body.messages.at(-1))}`);
      const { conversation } = await conversationWith(['Q1', 'Q2']);
      const original = await messagesOf(t, alice, conversation.id);
      expect(contents(original)).toEqual(['Q1', 'Answer to Q1', 'Q2', 'Answer to Q2']);
      const q1 = original[0]!;

      const events = await edit(q1.id, 'Q1 again');
      expect(events[0]).toMatchObject({ event: 'user-message', data: { content: 'Q1 again' } });
      expect(events.at(-1)).toMatchObject({ event: 'done', data: { content: 'Answer to Q1 again' } });
      expect(promptOf()).not.toMatch(/Q2|Answer to Q1\b(?! again)/);
      const edited = await messagesOf(t, alice, conversation.id);
      expect(contents(edited)).toEqual(['Q1 again', 'Answer to Q1 again']);
      expect(edited[0]!.versions).toEqual({ index: 1, count: 2, ids: [q1.id, edited[0]!.id] });

      await send(conversation.id, 'Q3');
      expect(promptOf()).toContain('Q1 again');
      expect(promptOf()).not.toContain('Q2');

      const switched = await t.request<Message[]>('POST', `/api/messages/${q1.id}/activate`, { token: alice });
      expect(switched.status).toBe(200);
      expect(contents(switched.body)).toEqual(contents(original));
      expect(switched.body[0]!.versions).toMatchObject({ index: 0, count: 2 });
      expect(await messagesOf(t, alice, conversation.id)).toEqual(switched.body);
      await send(conversation.id, 'Q4');
      expect(promptOf()).toContain('Answer to Q2');
      expect(promptOf()).not.toContain('again');

      const back = await t.request<Message[]>('POST', `/api/messages/${edited[0]!.id}/activate`, { token: alice });
      expect(contents(back.body)).toEqual(['Q1 again', 'Answer to Q1 again', 'Q3', 'Answer to Q3']);
      // A long conversation's switcher asks for the branch's newest page only, as the list opens on.
      const newest = await t.request<Message[]>('POST', `/api/messages/${q1.id}/activate?limit=3`, { token: alice });
      expect(newest.status).toBe(200);
      expect(newest.body).toEqual((await messagesOf(t, alice, conversation.id)).slice(-3));
      expect((await t.request('POST', `/api/messages/${q1.id}/activate?limit=0`, { token: alice })).status).toBe(400);

      const exported = await get<{ messages: Message[] }>('/api/account/export');
      const saved = exported.body.messages.filter((m) => m.conversationId === conversation.id);
      expect(contents(saved)).toEqual(
        expect.arrayContaining(['Q1', 'Q2', 'Answer to Q2', 'Q1 again', 'Answer to Q1 again', 'Q3', 'Q4']),
      );
    });

    it('keeps a regenerated reply’s predecessors as versions, and switches between them', async () => {
      let n = 0;
      fake.setReply(() => `Take ${(n += 1)}`);
      const { conversation } = await conversationWith(['Name a colour']);
      const regenerate = () => streamChat(t, `/api/conversations/${conversation.id}/regenerate`, { token: alice });
      const events = await regenerate();
      const second = events.at(-1)!.data as Message;
      const first = (await messagesOf(t, alice, conversation.id)).at(-1)!;
      expect(second).toMatchObject({ content: 'Take 2', versions: { index: 1, count: 2 } });
      expect(first).toEqual(second);
      const [firstId] = second.versions!.ids;
      // The model remembers only the reply on the branch.
      await send(conversation.id, 'Why?');
      expect(promptOf()).toContain('Take 2');
      expect(promptOf()).not.toContain('Take 1');

      const switched = await t.request<Message[]>('POST', `/api/messages/${firstId}/activate`, { token: alice });
      expect(contents(switched.body)).toEqual(['Name a colour', 'Take 1']);
      expect(switched.body[1]!.versions).toMatchObject({ index: 0, count: 2 });
    });

    it('edits only the caller’s own user messages on the active branch', async () => {
      const { conversation } = await conversationWith(['Hello']);
      const [question, reply] = await messagesOf(t, alice, conversation.id);
      const refuse = (id: number, token = alice) =>
        t.request('POST', `/api/messages/${id}/edit`, { token, body: { content: 'Changed' } });
      expectError(await refuse(reply!.id), 400, CHAT_MESSAGES.onlyUserMessagesEdit);
      expectError(await refuse(question!.id, bob), 404, 'Message not found');
      expectError(
        await t.request('POST', `/api/messages/${question!.id}/activate`, { token: bob }),
        404,
        'Message not found',
      );
      await edit(question!.id, 'Hello again');
      expectError(await refuse(question!.id), 409, CHAT_MESSAGES.editInactive);
      expect((await refuse(question!.id, 'bad-token')).status).toBe(401);
    });
  });

  it('pages the active branch by cursor, every message exactly once', async () => {
    const { conversation } = await conversationWith([]);
    for (let i = 1; i <= 23; i++) {
      await t.request('POST', '/api/messages', {
        token: alice,
        body: { conversationId: conversation.id, content: `m${i}` },
      });
    }
    const whole = await messagesOf(t, alice, conversation.id);
    expect(whole).toHaveLength(23);
    const seen: Message[] = [];
    let cursor = '';
    for (;;) {
      const page = await get<Message[]>(`/api/conversations/${conversation.id}/messages?limit=5${cursor}`);
      expect(page.status).toBe(200);
      seen.unshift(...page.body);
      if (page.body.length < 5) break;
      cursor = `&cursor=${page.body[0]!.id}`;
    }
    expect(seen).toEqual(whole);
    expectError(
      await get(`/api/conversations/${conversation.id}/messages?cursor=abc`),
      400,
      CHAT_MESSAGES.cursorInvalid,
    );
  });

  it('says the bot was deleted when that ends a reply', async () => {
    fake.setReply({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 60 });
    const bot = await createBot(t, alice);
    const conversation = await createConversation(t, alice, bot.id);
    const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
      token: alice,
      body: { content: 'Count to ten' },
    });
    await stream.waitFor((e) => e.event === 'delta');
    expect((await t.request('DELETE', `/api/bots/${bot.id}`, { token: alice })).status).toBe(200);
    const events = await stream.finished;
    expect(events.at(-1)).toEqual(
      expect.objectContaining({ event: 'error', data: { message: CHAT_MESSAGES.botDeletedMidReply } }),
    );
  });
});
