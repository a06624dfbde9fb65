import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, startTestApp, type SignedUp, type TestApp, withAliceAndBob } from '../../../../tests/support/test-app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databaseKinds)('bots API on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestApp({ kind })));
  });
  afterAll(() => t.close());

  it('requires a signed-in caller on every route', async () => {
    const bot = await createBot(t, alice.token);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/bots'],
      ['GET', `/api/bots/${bot.id}`],
      ['POST', '/api/bots', { name: 'x', description: 'y', purpose: 'planning' }],
      ['PATCH', `/api/bots/${bot.id}`, { active: false }],
      ['DELETE', `/api/bots/${bot.id}`],
      ['POST', '/api/generate-prompt', { name: 'x', description: 'y', purpose: 'planning' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { body, token: 'not-a-real-token' });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.message).toBe('Authentication required');
    }
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token })).status).toBe(200);
  });

  it('creates a bot owned by the caller, active and unused, ignoring a userId in the body', async () => {
    const res = await t.request('POST', '/api/bots', {
      token: alice.token,
      body: {
        name: '  Meal Planner ',
        description: 'You are a bot that plans weekly meals',
        purpose: 'planning',
        icon: 'utensils',
        userId: bob.user.id,
        active: true,
        capabilities: ['web_search', 'memory_context'],
        config: { tone: 'friendly', webBrowsing: true, maxContextMessages: 5, trustedSources: 'nature.com, arxiv.org' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Meal Planner',
      description: 'You are a bot that plans weekly meals',
      purpose: 'planning',
      icon: 'utensils',
      userId: alice.user.id,
      active: true,
      capabilities: ['web_search', 'memory_context'],
      config: { tone: 'friendly', webBrowsing: true, maxContextMessages: 5, trustedSources: 'nature.com, arxiv.org' },
      exampleQueries: [],
      testNotes: [],
      version: 1,
      publishedVersion: null,
      usageCount: 0,
      lastUsed: null,
      createdAt: expect.stringMatching(ISO),
      sharing: { visibility: 'private', hasLink: false, showPrompt: false, embedOrigins: [], embedDailyCap: 200 },
    });
    const fetched = await t.request('GET', `/api/bots/${res.body.id}`, { token: alice.token });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('applies the wizard defaults to a minimal bot', async () => {
    const res = await t.request('POST', '/api/bots', {
      token: alice.token,
      body: { name: 'Bare', description: 'Minimal', purpose: 'answering' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ icon: 'robot', capabilities: [], config: {}, active: true, usageCount: 0 });
  });

  it("lists only the caller's bots, newest first", async () => {
    const carol = await signUp(t);
    const first = await createBot(t, carol.token, { name: 'First' });
    const second = await createBot(t, carol.token, { name: 'Second' });
    await createBot(t, bob.token, { name: 'Not Carol' });
    const res = await t.request('GET', '/api/bots', { token: carol.token });
    expect(res.status).toBe(200);
    expect(res.body.map((b: { id: number }) => b.id)).toEqual([second.id, first.id]);
    expect(res.body.every((b: { userId: number }) => b.userId === carol.user.id)).toBe(true);
  });

  it('answers an empty list for a user without bots', async () => {
    const dave = await signUp(t);
    expect(await t.request('GET', '/api/bots', { token: dave.token })).toMatchObject({ status: 200, body: [] });
  });

  it('merges a config change into the stored config and trims the custom prompt', async () => {
    const bot = await createBot(t, alice.token, {
      config: { tone: 'friendly', maxContextMessages: 10, trustedSources: 'nature.com' },
    });
    const res = await t.request('PATCH', `/api/bots/${bot.id}`, {
      token: alice.token,
      body: { config: { customPrompt: '   Always answer in French.  \n', maxContextMessages: 3 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.config).toEqual({
      tone: 'friendly',
      maxContextMessages: 3,
      trustedSources: 'nature.com',
      customPrompt: 'Always answer in French.',
    });
    expect(res.body).toMatchObject({ name: bot.name, description: bot.description, createdAt: bot.createdAt });
    const again = await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token });
    expect(again.body.config).toEqual(res.body.config);
  });

  it('updates name, description, purpose, icon, capabilities and active', async () => {
    const bot = await createBot(t, alice.token);
    const change = {
      name: 'Trip Buddy',
      description: 'Plans trips',
      purpose: 'creating',
      icon: 'plane-departure',
      capabilities: ['web_search'],
      active: false,
    };
    const res = await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body: change });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...change, id: bot.id, userId: alice.user.id, config: bot.config });
    const reactivated = await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body: { active: true } });
    expect(reactivated.body).toMatchObject({ ...change, active: true });
  });

  it("answers 404 'Bot not found' to another user on GET, PATCH and DELETE, and changes nothing", async () => {
    const bot = await createBot(t, alice.token);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Stolen', active: false }], ['DELETE']] as const) {
      const res = await t.request(method, `/api/bots/${bot.id}`, { token: bob.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body).toMatchObject({ message: 'Bot not found', code: 'NOT_FOUND' });
    }
    const mine = await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token });
    expect(mine.body).toEqual(bot);
  });

  it('answers 404 for a bot that does not exist and 400 for an id that is not a positive whole number', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const missing = await t.request(method, '/api/bots/999999', {
        token: alice.token,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(missing.status, method).toBe(404);
      expect(missing.body.message).toBe('Bot not found');
      for (const id of ['abc', '0', '1.5', '99999999999']) {
        const bad = await t.request(method, `/api/bots/${id}`, {
          token: alice.token,
          body: method === 'PATCH' ? {} : undefined,
        });
        expect(bad.status, `${method} ${id}`).toBe(400);
        expect(bad.body.message).toBe('Id must be a positive whole number');
      }
    }
  });

  describe('validation', () => {
    const base = { name: 'Valid', description: 'A valid bot', purpose: 'answering', icon: 'book' };

    it.each([
      ['a missing name', { name: undefined }, 'name', 'Name is required'],
      ['a blank name', { name: '   ' }, 'name', 'Name is required'],
      ['a blank description', { description: '' }, 'description', 'Description is required'],
      [
        'an unknown purpose',
        { purpose: 'gossip' },
        'purpose',
        'Purpose must be one of: answering, creating, analyzing, planning',
      ],
      ['an unknown icon', { icon: 'rocket' }, 'icon', 'Choose one of the available icons'],
      [
        'an unknown capability',
        { capabilities: ['web_search', 'mind_reading'] },
        'capabilities.1',
        'Capabilities must be among: web_search, document_analysis, image_understanding, memory_context, tools',
      ],
      [
        'a context window of 0',
        { config: { maxContextMessages: 0 } },
        'config.maxContextMessages',
        'Number of previous messages to consider for context (1-20)',
      ],
      [
        'a context window of 21',
        { config: { maxContextMessages: 21 } },
        'config.maxContextMessages',
        'Number of previous messages to consider for context (1-20)',
      ],
      [
        'bad trusted sources',
        { config: { trustedSources: 'nature.com, not a domain' } },
        'config.trustedSources',
        'Trusted sources must be a comma-separated list of domains (e.g. nature.com, arxiv.org)',
      ],
      [
        'an unknown tone',
        { config: { tone: 'grumpy' } },
        'config.tone',
        'Tone must be one of: professional, friendly, enthusiastic',
      ],
    ])('refuses to create a bot with %s', async (_, change, path, message) => {
      const res = await t.request('POST', '/api/bots', { token: alice.token, body: { ...base, ...change } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message, code: 'VALIDATION', errors: [{ path, message }] });
    });

    it('refuses the same mistakes on update and leaves the bot as it was', async () => {
      const bot = await createBot(t, alice.token);
      for (const body of [
        { name: '' },
        { purpose: 'gossip' },
        { icon: 'rocket' },
        { capabilities: ['telepathy'] },
        { config: { maxContextMessages: 21 } },
        { config: { trustedSources: 'https://nature.com' } },
      ]) {
        const res = await t.request('PATCH', `/api/bots/${bot.id}`, { token: alice.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await t.request('GET', `/api/bots/${bot.id}`, { token: alice.token })).body).toEqual(bot);
    });
  });

  it('deletes a bot with its conversations and messages, and nothing else', async () => {
    const doomed = await createBot(t, alice.token);
    const kept = await createBot(t, alice.token);
    const db = t.db.kysely;
    const now = new Date().toISOString();
    const conversationOf = (botId: number) =>
      db
        .insertInto('conversations')
        .values({
          bot_id: botId,
          user_id: alice.user.id,
          title: 'Conversation with it',
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const addMessages = (conversationId: number) =>
      db
        .insertInto('messages')
        .values([
          { conversation_id: conversationId, role: 'user', content: 'Hi', created_at: now },
          { conversation_id: conversationId, role: 'assistant', content: 'Hello', created_at: now },
        ])
        .execute();
    const doomedConversation = await conversationOf(doomed.id);
    const keptConversation = await conversationOf(kept.id);
    await addMessages(doomedConversation.id);
    await addMessages(keptConversation.id);

    const res = await t.request('DELETE', `/api/bots/${doomed.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Bot deleted' });

    expect(await db.selectFrom('conversations').select('id').where('bot_id', '=', doomed.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('messages').select('id').where('conversation_id', '=', doomedConversation.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('messages').select('id').where('conversation_id', '=', keptConversation.id).execute(),
    ).toHaveLength(2);
    expect((await t.request('GET', `/api/bots/${doomed.id}`, { token: alice.token })).status).toBe(404);
    expect((await t.request('GET', `/api/bots/${kept.id}`, { token: alice.token })).status).toBe(200);
    expect((await t.request('DELETE', `/api/bots/${doomed.id}`, { token: alice.token })).status).toBe(404);
  });

  it('lists the bot routes in the OpenAPI document', async () => {
    const doc = await t.request('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/bots', '/api/bots/{id}', '/api/generate-prompt', '/api/users/{id}/activities']),
    );
  });
});
