import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import type { ExplorePage, SharedBot, ShareLink } from '@shared/contracts/shared-bots';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, startTestApp, type SignedUp, type TestApp, withAliceAndBob } from '../../../../tests/support/test-app';
import { hashToken } from '../../lib/tokens';

describe.each(databaseKinds)('bot sharing API on %s', (kind) => {
  let t: TestApp;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestApp({ kind })));
  });
  afterAll(() => t.close());

  const share = (token: string, botId: number, body: unknown) =>
    t.request<Bot>('PATCH', `/api/bots/${botId}/sharing`, { token, body });
  const newLink = (token: string, botId: number) =>
    t.request<ShareLink>('POST', `/api/bots/${botId}/share-link`, { token });
  const open = (token: string, slug: string) => t.request<SharedBot>('GET', `/api/shared/bots/${slug}`, { token });

  async function linkedBot(overrides: Parameters<typeof createBot>[2] = {}) {
    const bot = await createBot(t, alice.token, {
      config: { systemPrompt: 'Secret recipe prompt', greeting: 'Hi there', tone: 'friendly' },
      exampleQueries: ['Plan my week'],
      ...overrides,
    });
    expect((await share(alice.token, bot.id, { visibility: 'link' })).status).toBe(200);
    const link = await newLink(alice.token, bot.id);
    expect(link.status).toBe(201);
    return { bot, slug: link.body.slug };
  }

  it('requires a signed-in caller on every route', async () => {
    const bot = await createBot(t, alice.token);
    const slug = 'a'.repeat(43);
    const calls: [string, string][] = [
      ['PATCH', `/api/bots/${bot.id}/sharing`],
      ['POST', `/api/bots/${bot.id}/share-link`],
      ['GET', `/api/shared/bots/${slug}`],
      ['POST', `/api/shared/bots/${slug}/copy`],
      ['GET', '/api/explore/bots'],
      ['GET', `/api/explore/bots/${bot.id}`],
      ['POST', `/api/explore/bots/${bot.id}/copy`],
    ];
    for (const [method, path] of calls) {
      const body = method === 'GET' ? undefined : {};
      expect((await t.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
  });

  it('changes only the fields sent, without a new version, and records the visibility change', async () => {
    const bot = await createBot(t, alice.token);
    const res = await share(alice.token, bot.id, {
      visibility: 'public',
      embedOrigins: ['https://example.com/', 'https://example.com'],
    });
    expect(res.status).toBe(200);
    expect(res.body.sharing).toEqual({
      visibility: 'public',
      hasLink: false,
      showPrompt: false,
      embedOrigins: ['https://example.com'],
      embedDailyCap: 200,
    });
    expect(res.body.version).toBe(bot.version);
    const again = await share(alice.token, bot.id, { showPrompt: true, embedDailyCap: 50 });
    expect(again.body.sharing).toMatchObject({ visibility: 'public', showPrompt: true, embedDailyCap: 50 });
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.sharing).toEqual(
      again.body.sharing,
    );
    const versions = await t.request<unknown[]>('GET', `/api/bots/${bot.id}/versions`, { token: alice.token });
    expect(versions.body).toHaveLength(1);
    const activities = await t.request<{ type: string; botId: number; description: string }[]>(
      'GET',
      `/api/users/${alice.user.id}/activities?limit=50`,
      { token: alice.token },
    );
    expect(activities.body.filter((a) => a.botId === bot.id && a.type === 'bot_sharing_changed')).toEqual([
      expect.objectContaining({ description: `Changed who can use ${bot.name}` }),
    ]);
  });

  it('refuses bad sharing input with the field message', async () => {
    const bot = await createBot(t, alice.token);
    const cases: [unknown, string][] = [
      [{ visibility: 'everyone' }, 'Visibility must be one of: private, link, public'],
      [{ embedOrigins: ['https://example.com/path'] }, 'Each site must be an origin'],
      [{ embedDailyCap: -1 }, 'Daily cap must be a whole number'],
      [{ showPrompt: 'yes' }, 'Show prompt must be true or false'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request<{ message: string }>('PATCH', `/api/bots/${bot.id}/sharing`, {
        token: alice.token,
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it("answers 404 for another user's bot: nobody else changes sharing or makes links", async () => {
    const { bot } = await linkedBot();
    expect((await share(bob.token, bot.id, { visibility: 'public' })).status).toBe(404);
    expect((await newLink(bob.token, bot.id)).status).toBe(404);
    expect((await share(alice.token, 999_999, { visibility: 'public' })).status).toBe(404);
    expect((await t.request('PATCH', `/api/bots/${bot.id}`, { token: bob.token, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect((await t.request('DELETE', `/api/bots/${bot.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `/api/bots/${bot.id}/versions`, { token: bob.token })).status).toBe(404);
  });

  it('makes a link only for a shared bot, stores its hash, and a new link stops the old at once', async () => {
    const bot = await createBot(t, alice.token);
    const refused = await t.request<{ message: string }>('POST', `/api/bots/${bot.id}/share-link`, {
      token: alice.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Set the bot to Link or Public before making its link');

    await share(alice.token, bot.id, { visibility: 'link' });
    const first = await newLink(alice.token, bot.id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ slug: expect.stringMatching(/^[\w-]{43}$/), url: `/b/${first.body.slug}` });
    const row = await t.db.kysely.selectFrom('bots').select('share_hash').where('id', '=', bot.id).executeTakeFirst();
    expect(row?.share_hash).toBe(hashToken(first.body.slug));
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.sharing.hasLink).toBe(
      true,
    );
    expect((await open(bob.token, first.body.slug)).status).toBe(200);

    const second = await newLink(alice.token, bot.id);
    expect(second.body.slug).not.toBe(first.body.slug);
    expect((await open(bob.token, first.body.slug)).status).toBe(404);
    // Bob's right came with the old link: it went with it.
    expect((await t.request('GET', `/api/explore/bots/${bot.id}`, { token: bob.token })).status).toBe(404);
    expect((await open(bob.token, second.body.slug)).status).toBe(200);
  });

  it("shows visitors the bot without its owner's data, and the prompt only when shown", async () => {
    const { bot, slug } = await linkedBot();
    const res = await open(bob.token, slug);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: bot.id,
      name: bot.name,
      description: bot.description,
      purpose: bot.purpose,
      icon: bot.icon,
      capabilities: bot.capabilities,
      greeting: 'Hi there',
      exampleQueries: ['Plan my week'],
      active: true,
      visibility: 'link',
      ownerName: alice.user.username,
      isOwner: false,
      // Opening the link is not using the bot: only chatting with it counts.
      usersCount: 0,
      settings: null,
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('Secret recipe prompt');
    expect(text).not.toContain(alice.email);

    await share(alice.token, bot.id, { showPrompt: true });
    expect((await open(bob.token, slug)).body.settings).toMatchObject({ systemPrompt: 'Secret recipe prompt' });
    // The owner sees their own bot's settings through its link, and is not counted as a user.
    const own = await open(alice.token, slug);
    expect(own.body).toMatchObject({ isOwner: true, usersCount: 0, settings: { tone: 'friendly' } });
  });

  it('answers 404 for unknown slugs and, at once, for a bot set back to private', async () => {
    const { bot, slug } = await linkedBot();
    expect((await open(bob.token, 'b'.repeat(43))).status).toBe(404);
    expect((await open(bob.token, 'short')).status).toBe(404);
    expect((await open(bob.token, slug)).status).toBe(200);

    const res = await share(alice.token, bot.id, { visibility: 'private' });
    expect(res.body.sharing.hasLink).toBe(false);
    expect((await open(bob.token, slug)).status).toBe(404);
    expect((await t.request('GET', `/api/explore/bots/${bot.id}`, { token: bob.token })).status).toBe(404);
    // Sharing again needs a new link: the old one stays dead.
    await share(alice.token, bot.id, { visibility: 'link' });
    expect((await open(bob.token, slug)).status).toBe(404);
  });

  it('lists active public bots on Explore, searched and filtered by purpose, page by page', async () => {
    const carol = await signUp(t);
    const word = `zephyr${Date.now()}`;
    const made: Bot[] = [];
    for (let i = 0; i < 27; i += 1) {
      const bot = await createBot(t, carol.token, {
        name: `${word} helper ${i}`,
        purpose: i % 3 === 0 ? 'answering' : 'planning',
        description: i === 5 ? 'Writes 100%_real poems' : 'Helps plan',
      });
      await share(carol.token, bot.id, { visibility: 'public' });
      made.push(bot);
    }
    const hidden = await createBot(t, carol.token, { name: `${word} private` });
    const linkOnly = await createBot(t, carol.token, { name: `${word} link` });
    await share(carol.token, linkOnly.id, { visibility: 'link' });
    const inactive = await createBot(t, carol.token, { name: `${word} inactive` });
    await share(carol.token, inactive.id, { visibility: 'public' });
    await t.request('PATCH', `/api/bots/${inactive.id}`, { token: carol.token, body: { active: false } });

    const first = await t.request<ExplorePage>('GET', `/api/explore/bots?q=${word.toUpperCase()}`, {
      token: bob.token,
    });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(24);
    expect(first.body.items[0]).toMatchObject({ id: made[26]!.id, ownerName: carol.user.username, settings: null });
    const second = await t.request<ExplorePage>('GET', `/api/explore/bots?q=${word}&cursor=${first.body.nextCursor}`, {
      token: bob.token,
    });
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((b) => b.id);
    expect(ids).toEqual(made.map((b) => b.id).reverse());
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(linkOnly.id);
    expect(ids).not.toContain(inactive.id);

    const answering = await t.request<ExplorePage>('GET', `/api/explore/bots?q=${word}&purpose=answering`, {
      token: bob.token,
    });
    expect(answering.body.items.map((b) => b.id)).toEqual(
      made
        .filter((_, i) => i % 3 === 0)
        .map((b) => b.id)
        .reverse(),
    );
    const literal = await t.request<ExplorePage>('GET', `/api/explore/bots?q=${encodeURIComponent('100%_real')}`, {
      token: bob.token,
    });
    expect(literal.body.items.map((b) => b.id)).toEqual([made[5]!.id]);
    const words = await t.request<ExplorePage>('GET', `/api/explore/bots?q=${word}+poems`, { token: bob.token });
    expect(words.body.items.map((b) => b.id)).toEqual([made[5]!.id]);

    expect((await t.request('GET', '/api/explore/bots?purpose=fun', { token: bob.token })).status).toBe(400);
    const badCursor = await t.request('GET', '/api/explore/bots?cursor=nope', { token: bob.token });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.message).toBe('Cursor is not one this list gave out');

    // A public bot reads by id without its link; a private or link one does not.
    expect((await t.request('GET', `/api/explore/bots/${made[0]!.id}`, { token: bob.token })).status).toBe(200);
    expect((await t.request('GET', `/api/explore/bots/${hidden.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `/api/explore/bots/${linkOnly.id}`, { token: bob.token })).status).toBe(404);
  });
});
