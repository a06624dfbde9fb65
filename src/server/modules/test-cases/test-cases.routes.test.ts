import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CASES_MAX, TEST_CSV_MAX_BYTES, TEST_QUERY_MAX } from '@shared/constants';
import type { FeedbackLog } from '@shared/contracts/feedback';
import type { TestCase, TestImportResult } from '@shared/contracts/test-cases';
import { createConversation, messagesOf } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startTestAppWithModel,
  type SignedUp,
  type TestApp,
  withAliceAndBob,
} from '../../../../tests/support/test-app';
import { copyExampleQueries } from '../../db/migrations/0020-test-cases';
import { readTestSet } from './test-set';

/** What a refused request answers besides. */
type Refused = { message?: string };

describe.each(databaseKinds)('test cases and the feedback log on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestAppWithModel({ kind })));
  });
  afterAll(() => t.close());

  const list = (botId: number, token = alice.token) =>
    t.request<TestCase[]>('GET', `/api/bots/${botId}/tests`, { token });
  const add = (botId: number, body: unknown, token = alice.token) =>
    t.request<TestCase & Refused>('POST', `/api/bots/${botId}/tests`, { token, body });
  const importCsv = (botId: number, csv: string, token = alice.token) =>
    t.request<TestImportResult & Refused>('POST', `/api/bots/${botId}/tests/import`, {
      token,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
  const plain = (cases: TestCase[]) => cases.map(({ query, expected, tags }) => ({ query, expected, tags }));

  it('seeds a new bot from its example queries and notes, then adds, edits and deletes cases', async () => {
    const bot = await createBot(t, alice.token, {
      exampleQueries: ['Plan my week', 'Soup for two?'],
      testNotes: [{ query: 'Soup for two?', rating: 'bad', expected: 'A recipe for two' }],
    });
    expect(plain((await list(bot.id)).body)).toEqual([
      { query: 'Plan my week', expected: null, tags: [] },
      { query: 'Soup for two?', expected: 'A recipe for two', tags: [] },
    ]);

    const added = await add(bot.id, {
      query: '  Vegan lunch ideas ',
      expected: 'Names three dishes',
      tags: ['vegan', 'vegan', ' lunch'],
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      botId: bot.id,
      query: 'Vegan lunch ideas',
      tags: ['vegan', 'lunch'],
      sourceMessageId: null,
    });

    const edited = await t.request<TestCase>('PATCH', `/api/bots/${bot.id}/tests/${added.body.id}`, {
      token: alice.token,
      body: { expected: '', tags: ['quick'] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ query: 'Vegan lunch ideas', expected: null, tags: ['quick'] });

    // Later edits of the example queries (the chat starters) leave the tests alone.
    await t.request('PATCH', `/api/bots/${bot.id}`, {
      token: alice.token,
      body: { exampleQueries: ['Something else'] },
    });
    expect((await list(bot.id)).body.map((c) => c.query)).toEqual([
      'Plan my week',
      'Soup for two?',
      'Vegan lunch ideas',
    ]);
    expect((await readTestSet(t.db.kysely, bot.id)).map((c) => c.id)).toEqual(
      (await list(bot.id)).body.map((c) => c.id),
    );

    const removed = await t.request('DELETE', `/api/bots/${bot.id}/tests/${added.body.id}`, { token: alice.token });
    expect(removed.status).toBe(200);
    expect((await list(bot.id)).body).toHaveLength(2);
    expect(
      (await t.request('DELETE', `/api/bots/${bot.id}/tests/${added.body.id}`, { token: alice.token })).status,
    ).toBe(404);
  });

  it('refuses a question asked already (409 with the case), bad fields, and more cases than the limit', async () => {
    const bot = await createBot(t, alice.token, { exampleQueries: ['Plan my week'] });
    const [existing] = (await list(bot.id)).body;
    const dup = await add(bot.id, { query: ' Plan my week ' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: '"Plan my week" is already a test of this bot', testCase: existing });
    const other = await add(bot.id, { query: 'Another' });
    const renamed = await t.request('PATCH', `/api/bots/${bot.id}/tests/${other.body.id}`, {
      token: alice.token,
      body: { query: 'Plan my week' },
    });
    expect(renamed.status).toBe(409);

    for (const [body, message] of [
      [{ query: '' }, `Question must be 1 to ${TEST_QUERY_MAX} characters`],
      [{ query: 'x'.repeat(TEST_QUERY_MAX + 1) }, `Question must be 1 to ${TEST_QUERY_MAX} characters`],
      [{ query: 'ok?', tags: ['a;b'] }, 'Each tag must be 1 to 40 characters, without ";"'],
      [{ query: 'ok?', expected: 'x'.repeat(4001) }, 'Expected answer must be at most 4000 characters'],
    ] as const) {
      const res = await add(bot.id, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }

    const rows = Array.from({ length: TEST_CASES_MAX - 2 }, (_, i) => `Question ${i}`);
    const filled = await importCsv(bot.id, `query\n${rows.join('\n')}\n`);
    expect(filled.status).toBe(200);
    expect(filled.body).toMatchObject({ added: TEST_CASES_MAX - 2, updated: 0 });
    const over = await add(bot.id, { query: 'One too many' });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(`A bot can have at most ${TEST_CASES_MAX} test cases`);
  });

  it("answers 404 for another user's bot, case or message on every route", async () => {
    const bot = await createBot(t, alice.token, { exampleQueries: ['Plan my week'] });
    const [test] = (await list(bot.id)).body;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/bots/${bot.id}/tests`],
      ['POST', `/api/bots/${bot.id}/tests`, { query: 'Mine now' }],
      ['PATCH', `/api/bots/${bot.id}/tests/${test!.id}`, { query: 'Mine now' }],
      ['DELETE', `/api/bots/${bot.id}/tests/${test!.id}`],
      ['GET', `/api/bots/${bot.id}/tests.csv`],
      ['GET', `/api/bots/${bot.id}/feedback`],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.request(method, path, { token: bob.token, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await importCsv(bot.id, 'query\nMine now\n', bob.token)).status).toBe(404);
    const bobs = await createBot(t, bob.token);
    const crossed = await t.request('PATCH', `/api/bots/${bobs.id}/tests/${test!.id}`, {
      token: bob.token,
      body: { query: 'x' },
    });
    expect(crossed.status).toBe(404);
    expect(plain((await list(bot.id)).body)).toEqual([{ query: 'Plan my week', expected: null, tags: [] }]);
  });

  it('exports CSV that imports into another bot as the same test set, and updates by question', async () => {
    const from = await createBot(t, alice.token);
    const cases = [
      { query: 'Plain question', expected: null, tags: [] },
      { query: 'Commas, "quotes"\nand lines', expected: 'Says "hello", then\r\nwaves', tags: ['tricky', 'quotes'] },
      { query: 'Ünïcode ☕', expected: 'Café', tags: ['i18n'] },
    ];
    for (const c of cases) expect((await add(from.id, c)).status).toBe(201);
    const csv = await t.request<string>('GET', `/api/bots/${from.id}/tests.csv`, { token: alice.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/attachment/);
    expect(csv.body.startsWith('query,expected,tags\r\n')).toBe(true);

    const to = await createBot(t, alice.token, { exampleQueries: ['Plain question'] });
    const imported = await importCsv(to.id, csv.body);
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ added: 2, updated: 0 });
    expect(plain((await list(to.id)).body)).toEqual(cases);

    const again = await importCsv(to.id, 'Tags,Query\nnew;tag,Plain question\n');
    expect(again.body).toMatchObject({ added: 0, updated: 1 });
    expect(plain((await list(to.id)).body)[0]).toEqual({
      query: 'Plain question',
      expected: null,
      tags: ['new', 'tag'],
    });
  });

  it('refuses a CSV with a bad row, naming it, and changes nothing', async () => {
    const bot = await createBot(t, alice.token, { exampleQueries: ['Plan my week'] });
    const bad = await importCsv(bot.id, `query,expected\nFine,ok\n"",missing question\n`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: `Row 3: Question must be 1 to ${TEST_QUERY_MAX} characters`, row: 3 });
    const twice = await importCsv(bot.id, 'query\nA\nB\nA\n');
    expect(twice.body.message).toBe('Row 4: the question is listed twice in the file');
    const noHeader = await importCsv(bot.id, 'question,answer\nA,B\n');
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.message).toMatch(/header row with a "query" column/);
    const broken = await importCsv(bot.id, 'query\n"unclosed\n');
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(/^This CSV cannot be read/);
    const huge = await importCsv(bot.id, `query\n${'x'.repeat(TEST_CSV_MAX_BYTES)}\n`);
    expect(huge.status).toBe(413);
    const asJson = await t.request(`POST`, `/api/bots/${bot.id}/tests/import`, { token: alice.token, body: {} });
    expect(asJson.status).toBe(400);
    expect((await list(bot.id)).body.map((c) => c.query)).toEqual(['Plan my week']);
  });

  /** A question and its reply in a conversation of `token`'s with the bot; returns the reply's id. */
  async function reply(botId: number, question: string, token = alice.token) {
    const conversation = await createConversation(t, token, botId);
    const res = await t.request('POST', '/api/bot-message', {
      token,
      body: { conversationId: conversation.id, botId, userMessageContent: question },
    });
    expect(res.status).toBe(200);
    const messages = await messagesOf(t, token, conversation.id);
    return messages.at(-1)!.id;
  }
  const rate = (id: number, body: unknown, token = alice.token) =>
    t.request('POST', `/api/messages/${id}/feedback`, { token, body });
  const log = (botId: number, query = '') =>
    t.request<FeedbackLog>('GET', `/api/bots/${botId}/feedback${query}`, { token: alice.token });

  it('turns a thumbs-down reply into a test expecting the comment, once; the log says it is a test', async () => {
    const bot = await createBot(t, alice.token);
    const down = await reply(bot.id, 'Is kale a fruit?');
    await rate(down, { rating: 'down', comment: 'Kale is a leafy vegetable' });
    const up = await reply(bot.id, 'Best soup?');
    await rate(up, { rating: 'up', comment: 'Nice' });

    const made = await t.request<TestCase>('POST', `/api/messages/${down}/test-case`, { token: alice.token });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      botId: bot.id,
      query: 'Is kale a fruit?',
      expected: 'Kale is a leafy vegetable',
      sourceMessageId: down,
    });
    const fromUp = await t.request<TestCase>('POST', `/api/messages/${up}/test-case`, { token: alice.token });
    expect(fromUp.body).toMatchObject({ query: 'Best soup?', expected: null });

    const again = await t.request('POST', `/api/messages/${down}/test-case`, { token: alice.token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ testCase: { id: made.body.id } });
    expect((await t.request('POST', `/api/messages/${down}/test-case`, { token: bob.token })).status).toBe(404);
    expect((await t.request('POST', `/api/messages/${down - 1}/test-case`, { token: alice.token })).status).toBe(400);

    const page = await log(bot.id);
    expect(page.status).toBe(200);
    expect(page.body.nextCursor).toBeNull();
    expect(page.body.entries).toEqual([
      expect.objectContaining({ messageId: up, rating: 'up', question: 'Best soup?', testCaseId: fromUp.body.id }),
      expect.objectContaining({
        messageId: down,
        rating: 'down',
        comment: 'Kale is a leafy vegetable',
        question: 'Is kale a fruit?',
        botVersion: 1,
        surface: 'owner',
        testCaseId: made.body.id,
      }),
    ]);
    expect(page.body.entries[1]!.reply.length).toBeGreaterThan(0);
  });

  it("lists rated replies from people with the link as 'link', filters by rating, version and surface, and pages", async () => {
    const bot = await createBot(t, alice.token);
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: alice.token, body: { visibility: 'link' } });
    const link = await t.request<{ slug: string }>('POST', `/api/bots/${bot.id}/share-link`, { token: alice.token });
    expect((await t.request('GET', `/api/shared/bots/${link.body.slug}`, { token: bob.token })).status).toBe(200);
    const bobs = await reply(bot.id, 'Guest question', bob.token);
    await rate(bobs, { rating: 'down', comment: 'Too short' }, bob.token);
    await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body: { config: { tone: 'enthusiastic' } } });
    const ids: number[] = [];
    for (let i = 0; i < 26; i++) ids.push(await reply(bot.id, `Owner question ${i}`));
    for (const id of ids) await rate(id, { rating: 'up' });

    const guests = await log(bot.id, '?surface=link');
    expect(guests.body.entries).toEqual([
      expect.objectContaining({ messageId: bobs, surface: 'link', question: 'Guest question', testCaseId: null }),
    ]);
    expect((await log(bot.id, '?rating=down')).body.entries.map((e) => e.messageId)).toEqual([bobs]);
    expect((await log(bot.id, '?version=1')).body.entries.map((e) => e.messageId)).toEqual([bobs]);
    expect((await log(bot.id, '?surface=widget')).body.entries).toEqual([]);

    const first = await log(bot.id);
    expect(first.body.entries).toHaveLength(25);
    expect(first.body.entries[0]!.messageId).toBe(ids.at(-1));
    const second = await log(bot.id, `?cursor=${first.body.nextCursor}`);
    expect(second.body.entries.map((e) => e.messageId)).toEqual([ids[0], bobs]);
    expect(second.body.nextCursor).toBeNull();
    expect((await log(bot.id, '?surface=moon')).status).toBe(400);
    expect((await log(bot.id, '?rating=&version=&surface=&cursor=')).body.entries).toHaveLength(25);

    // The owner turns a guest's rated reply into a test.
    const made = await t.request<TestCase>('POST', `/api/messages/${bobs}/test-case`, { token: alice.token });
    expect(made.body).toMatchObject({ query: 'Guest question', expected: 'Too short' });
  });

  it('copies example queries and notes of a bot written before test cases (migration 0020)', async () => {
    const bot = await createBot(t, alice.token, {
      exampleQueries: ['First', 'Second'],
      testNotes: [{ query: 'Second', rating: 'good', expected: 'Two' }],
    });
    await t.db.kysely.deleteFrom('test_cases').where('bot_id', '=', bot.id).execute();
    await copyExampleQueries(t.db.kysely, [bot.id]);
    expect(plain(await readTestSet(t.db.kysely, bot.id))).toEqual([
      { query: 'First', expected: null, tags: [] },
      { query: 'Second', expected: 'Two', tags: [] },
    ]);
  });

  it('carries the test set in a bot file; a file without one seeds from its example queries', async () => {
    const bot = await createBot(t, alice.token, { exampleQueries: ['Starter'] });
    await add(bot.id, { query: 'Only a test', expected: 'Criteria', tags: ['t'] });
    const file = await t.request('GET', `/api/bots/${bot.id}/export`, { token: alice.token });
    expect(file.body.tests).toEqual([
      { query: 'Starter', expected: null, tags: [] },
      { query: 'Only a test', expected: 'Criteria', tags: ['t'] },
    ]);
    const importFile = async (document: unknown) => {
      const form = new FormData();
      form.append('file', new Blob([JSON.stringify(document)], { type: 'application/json' }), 'bot.json');
      const res = await fetch(`${t.url}/api/bots/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}` },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const copy = await importFile(file.body);
    expect(plain((await list(copy)).body)).toEqual(file.body.tests);
    const { tests: _dropped, ...old } = file.body;
    const oldCopy = await importFile(old);
    expect(plain((await list(oldCopy)).body)).toEqual([{ query: 'Starter', expected: null, tags: [] }]);
  });
});
