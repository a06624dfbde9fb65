import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotVersion, BotVersionSummary } from '@shared/contracts/bot-versions';
import type { Bot } from '@shared/contracts/bots';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import {
  startTestAppWithModel,
  type SignedUp,
  type TestApp,
  withAliceAndBob,
} from '../../../../tests/support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databaseKinds)('bot example queries and versions on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestAppWithModel({ kind })));
  });
  afterAll(() => t.close());

  const patch = (id: number, body: unknown, token = alice.token) =>
    t.request<Bot>('PATCH', `/api/bots/${id}`, { token, body });
  const versionsOf = async (id: number) =>
    (await t.request<BotVersionSummary[]>('GET', `/api/bots/${id}/versions`, { token: alice.token })).body;
  const versionOf = async (id: number, n: number) =>
    (await t.request<BotVersion>('GET', `/api/bots/${id}/versions/${n}`, { token: alice.token })).body;

  it('stores example queries and test notes with the bot, trimmed, and changes them on update', async () => {
    const bot = await createBot(t, alice.token, {
      exampleQueries: [' What can I cook with lentils? ', 'Plan a week of dinners'],
      testNotes: [{ query: 'Plan a week of dinners', rating: 'bad', expected: ' Seven dinners, one per day ' }],
    });
    expect(bot.exampleQueries).toEqual(['What can I cook with lentils?', 'Plan a week of dinners']);
    expect(bot.testNotes).toEqual([
      { query: 'Plan a week of dinners', rating: 'bad', expected: 'Seven dinners, one per day' },
    ]);
    const fetched = await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token });
    expect(fetched.body.exampleQueries).toEqual(bot.exampleQueries);

    const updated = await patch(bot.id, { exampleQueries: ['Vegan lunch ideas?'] });
    expect(updated.status).toBe(200);
    expect(updated.body.exampleQueries).toEqual(['Vegan lunch ideas?']);
    expect(updated.body.testNotes).toEqual(bot.testNotes);
  });

  it('refuses example queries and notes that break the rules', async () => {
    const cases: [unknown, string][] = [
      [{ exampleQueries: ['ok', ''] }, 'Each example query must be 1 to 500 characters'],
      [{ exampleQueries: ['x'.repeat(501)] }, 'Each example query must be 1 to 500 characters'],
      [{ exampleQueries: ['Same', 'Same'] }, 'Each example query can be listed only once'],
      [{ exampleQueries: Array.from({ length: 21 }, (_, i) => `Q${i}`) }, 'At most 20 example queries'],
      [{ testNotes: [{ query: 'Q', rating: 'meh' }] }, 'Rating must be good or bad'],
      [
        { testNotes: [{ query: 'Q', rating: 'bad', expected: 'x'.repeat(1001) }] },
        'Expected answer must be at most 1000 characters',
      ],
    ];
    const bot = await createBot(t, alice.token);
    for (const [body, message] of cases) {
      const res = await patch(bot.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ message });
    }
    expect((await versionsOf(bot.id)).map((v) => v.number)).toEqual([1]);
  });

  it('writes version 1 on creation and a new version on each change, none on a no-op save', async () => {
    const bot = await createBot(t, alice.token, { config: { tone: 'friendly', systemPrompt: 'You plan meals.' } });
    expect(bot.version).toBe(1);
    const [first] = await versionsOf(bot.id);
    expect(first).toEqual({ number: 1, changed: [], restoredFrom: null, createdAt: expect.stringMatching(ISO) });

    const changed = await patch(bot.id, { config: { systemPrompt: 'You plan vegetarian meals.', tone: 'friendly' } });
    expect(changed.body.version).toBe(2);
    // The same values again, and a change of `active` only: no version.
    expect((await patch(bot.id, { config: { systemPrompt: 'You plan vegetarian meals.' } })).body.version).toBe(2);
    expect((await patch(bot.id, { active: false })).body.version).toBe(2);
    expect((await patch(bot.id, { capabilities: [...bot.capabilities].reverse() })).body.version).toBe(2);

    await patch(bot.id, { config: { customPrompt: 'Answer in French.' } });
    await patch(bot.id, { name: 'Chef', capabilities: ['web_search'], config: { tone: 'enthusiastic' } });
    await patch(bot.id, { exampleQueries: ['Soup for tonight?'] });

    const list = await versionsOf(bot.id);
    expect(list.map(({ number, changed }) => ({ number, changed }))).toEqual([
      { number: 5, changed: ['exampleQueries'] },
      { number: 4, changed: ['name', 'capabilities', 'tone'] },
      { number: 3, changed: ['customPrompt'] },
      { number: 2, changed: ['systemPrompt'] },
      { number: 1, changed: [] },
    ]);
    expect(await versionOf(bot.id, 2)).toMatchObject({
      number: 2,
      snapshot: {
        name: bot.name,
        description: bot.description,
        purpose: bot.purpose,
        icon: bot.icon,
        capabilities: bot.capabilities,
        config: { tone: 'friendly', systemPrompt: 'You plan vegetarian meals.' },
        exampleQueries: [],
      },
    });
    expect((await versionOf(bot.id, 4)).snapshot).toMatchObject({
      name: 'Chef',
      capabilities: ['web_search'],
      config: { tone: 'enthusiastic', customPrompt: 'Answer in French.' },
    });
  });

  it('restores an earlier version by writing a new one equal to it', async () => {
    const bot = await createBot(t, alice.token, { config: { tone: 'friendly' } });
    await patch(bot.id, { name: 'Renamed', config: { customPrompt: 'Be brief.', tone: 'professional' } });
    const restored = await t.request<Bot>('POST', `/api/bots/${bot.id}/versions/1/restore`, { token: alice.token });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ name: bot.name, config: bot.config, version: 3 });
    const [latest] = await versionsOf(bot.id);
    expect(latest).toMatchObject({ number: 3, restoredFrom: 1, changed: ['name', 'customPrompt', 'tone'] });
    expect((await versionOf(bot.id, 3)).snapshot).toEqual((await versionOf(bot.id, 1)).snapshot);

    // Restoring what is already current writes nothing.
    await t.request('POST', `/api/bots/${bot.id}/versions/3/restore`, { token: alice.token });
    expect((await versionsOf(bot.id)).length).toBe(3);
  });

  it("answers 404 for another user's bot or a missing version, and 400 for a bad number", async () => {
    const bot = await createBot(t, alice.token);
    for (const [method, path] of [
      ['GET', `/api/bots/${bot.id}/versions`],
      ['GET', `/api/bots/${bot.id}/versions/1`],
      ['POST', `/api/bots/${bot.id}/versions/1/restore`],
    ] as const) {
      const res = await t.request(method, path, { token: bob.token });
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe('Bot not found');
    }
    const missing = await t.request('GET', `/api/bots/${bot.id}/versions/9`, { token: alice.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Version not found');
    expect((await t.request('POST', `/api/bots/${bot.id}/versions/9/restore`, { token: alice.token })).status).toBe(
      404,
    );
    expect((await t.request('GET', `/api/bots/${bot.id}/versions/0`, { token: alice.token })).status).toBe(400);
    expect((await t.request('GET', `/api/bots/${bot.id}/versions/x`, { token: alice.token })).status).toBe(400);
  });

  it('records on each reply the version in force when it was written', async () => {
    const bot = await createBot(t, alice.token);
    const conversation = await createConversation(t, alice.token, bot.id);
    const ask = async (userMessageContent: string) => {
      const res = await t.request('POST', '/api/bot-message', {
        token: alice.token,
        body: { conversationId: conversation.id, botId: bot.id, userMessageContent },
      });
      expect(res.status).toBe(200);
    };
    await ask('First question');
    await patch(bot.id, { config: { tone: 'enthusiastic' } });
    await ask('Second question');
    const rows = await t.db.kysely
      .selectFrom('messages')
      .select(['role', 'bot_version'])
      .where('conversation_id', '=', conversation.id)
      .orderBy('id')
      .execute();
    expect(rows.filter((r) => r.role === 'assistant').map((r) => r.bot_version)).toEqual([1, 2]);
  });
});
