import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot, steppingClock } from '../../../../tests/support/factories';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { recordActivity } from './activities.service';

describe.each(databaseKinds)('activities on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ kind, clock: steppingClock() });
  });
  afterAll(() => t.close());

  const activities = async (token: string, userId: number, query = '') => {
    const res = await t.request('GET', `/api/users/${userId}/activities${query}`, { token });
    expect(res.status).toBe(200);
    return res.body as {
      type: string;
      description: string;
      botId: number | null;
      botName: string | null;
      createdAt: string;
    }[];
  };

  it('records each meaningful change, newest first, with readable descriptions', async () => {
    const me = await signUp(t);
    const bot = await createBot(t, me.token, { name: 'Meal Planner' });
    const patch = (body: unknown) => t.request('PATCH', `/api/bots/${bot.id}`, { token: me.token, body });
    await patch({ description: 'Plans meals for the week' });
    await patch({ config: { customPrompt: '  Suggest vegetarian options.  ' } });
    await patch({ active: false });
    await patch({ active: true });
    await patch({ name: 'Meal Planner', config: { customPrompt: 'Suggest vegetarian options.' } });
    await t.request('DELETE', `/api/bots/${bot.id}`, { token: me.token });

    const list = await activities(me.token, me.user.id);
    expect(list.map((a) => [a.type, a.description])).toEqual([
      ['bot_deleted', 'Deleted Meal Planner'],
      ['bot_activated', 'Activated Meal Planner'],
      ['bot_deactivated', 'Deactivated Meal Planner'],
      ['custom_prompt_saved', 'Saved a custom prompt for Meal Planner'],
      ['bot_updated', 'Updated Meal Planner'],
      ['bot_created', 'Created Meal Planner'],
    ]);
    // The history outlives the bot.
    expect(list.every((a) => a.botId === bot.id && a.botName === 'Meal Planner')).toBe(true);
    const times = list.map((a) => a.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(list[0]).toEqual({
      id: expect.any(Number),
      type: 'bot_deleted',
      description: 'Deleted Meal Planner',
      botId: bot.id,
      botName: 'Meal Planner',
      createdAt: expect.any(String),
    });
  });

  it('records every meaning of a change that does several things at once, under the new name', async () => {
    const me = await signUp(t);
    const bot = await createBot(t, me.token, { name: 'Old' });
    await t.request('PATCH', `/api/bots/${bot.id}`, {
      token: me.token,
      body: { name: 'New', active: false, config: { customPrompt: 'Be brief.' } },
    });
    const list = await activities(me.token, me.user.id);
    expect(list.map((a) => a.description)).toEqual([
      'Deactivated New',
      'Saved a custom prompt for New',
      'Updated New',
      'Created Old',
    ]);
  });

  it('records nothing for a change that changes nothing', async () => {
    const me = await signUp(t);
    const bot = await createBot(t, me.token, { config: { tone: 'friendly' } });
    await t.request('PATCH', `/api/bots/${bot.id}`, {
      token: me.token,
      body: { name: bot.name, config: { tone: 'friendly' } },
    });
    expect((await activities(me.token, me.user.id)).map((a) => a.type)).toEqual(['bot_created']);
  });

  it('lets the chat record that a chat started', async () => {
    const me = await signUp(t);
    const bot = await createBot(t, me.token, { name: 'Scout' });
    await recordActivity(t.db.kysely, {
      userId: me.user.id,
      type: 'chat_started',
      bot,
      at: new Date(Date.parse('2030-01-01')).toISOString(),
    });
    expect((await activities(me.token, me.user.id))[0]).toMatchObject({
      type: 'chat_started',
      description: 'Started a chat with Scout',
      botId: bot.id,
    });
  });

  it('answers 10 by default and honours a limit up to 50', async () => {
    const me = await signUp(t);
    for (let i = 0; i < 12; i += 1) await createBot(t, me.token, { name: `Bot ${i}` });
    expect(await activities(me.token, me.user.id)).toHaveLength(10);
    const three = await activities(me.token, me.user.id, '?limit=3');
    expect(three.map((a) => a.description)).toEqual(['Created Bot 11', 'Created Bot 10', 'Created Bot 9']);
    expect(await activities(me.token, me.user.id, '?limit=50')).toHaveLength(12);
    for (const limit of ['0', '51', 'many']) {
      const res = await t.request('GET', `/api/users/${me.user.id}/activities?limit=${limit}`, { token: me.token });
      expect(res.status, limit).toBe(400);
      expect(res.body.message).toBe('Limit must be a whole number from 1 to 50');
    }
  });

  it("answers 404 for anyone else's activities and 401 without a session", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    await createBot(t, owner.token);
    const res = await t.request('GET', `/api/users/${owner.user.id}/activities`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: 'User not found', code: 'NOT_FOUND' });
    expect(await activities(other.token, other.user.id)).toEqual([]);
    expect((await t.request('GET', `/api/users/${owner.user.id}/activities`)).status).toBe(401);
    expect((await t.request('GET', '/api/users/abc/activities', { token: owner.token })).status).toBe(400);
  });
});
