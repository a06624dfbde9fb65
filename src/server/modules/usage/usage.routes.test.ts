import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageReport } from '@shared/contracts/admin';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { expectError } from '../../../../tests/support/auth-api';
import { createConversation, openChatStream, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, startTestAppWithModel, type SignedUp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';
import { insertConversation } from '../chat/conversations.repository';

type App = Awaited<ReturnType<typeof startTestAppWithModel>>;

describe.each(databaseKinds)('usage counting and reports, on %s', (kind) => {
  let t: App;
  let admin: SignedUp;
  beforeAll(async () => {
    t = await startTestAppWithModel({ kind });
    admin = await signUp(t);
    await t.db.kysely.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.user.id).execute();
  });
  afterAll(() => t.close());

  const usageOf = async (token: string) => (await t.request<UsageReport>('GET', '/api/usage', { token })).body;
  const waitForReplies = (token: string, replies: number) =>
    until(async () => (await usageOf(token)).today?.replies === replies, { what: `${replies} replies counted` });
  const rowsOf = (userId: number) =>
    t.db.kysely.selectFrom('usage_daily').selectAll().where('user_id', '=', userId).execute();
  async function chat(user: SignedUp, botId: number, content = 'Hello there') {
    const conversation = await createConversation(t, user.token, botId);
    return streamChat(t, `/api/conversations/${conversation.id}/stream`, { token: user.token, body: { content } });
  }

  it('counts a reply with the tokens the provider reported, per day, bot and model', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token, { name: 'Counter' });
    t.fake.enqueue('one two three four five');
    await chat(alice, bot.id);
    await waitForReplies(alice.token, 1);

    const report = await usageOf(alice.token);
    const today = new Date().toISOString().slice(0, 10);
    expect(report.totals).toEqual([
      {
        userId: alice.user.id,
        username: alice.username,
        botId: bot.id,
        botName: 'Counter',
        model: `0/${t.fake.model}`,
        replies: 1,
        inputTokens: expect.any(Number),
        outputTokens: 5,
      },
    ]);
    expect(report.totals[0]!.inputTokens).toBeGreaterThan(0);
    expect(report.days).toEqual([
      { day: today, replies: 1, inputTokens: report.totals[0]!.inputTokens, outputTokens: 5 },
    ]);
    expect(report.today).toMatchObject({ replies: 1, tokens: report.totals[0]!.inputTokens + 5 });
    expect(report.today!.resetsAt).toBe(
      `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`,
    );
    expect((await rowsOf(alice.user.id))[0]).toMatchObject({ estimated_replies: 0 });
  });

  it('estimates tokens (about four characters each) when the provider reports no usage', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    const answer = 'An answer of exactly forty characters ok';
    t.fake.enqueue({ text: answer, noUsage: true });
    await chat(alice, bot.id);
    await waitForReplies(alice.token, 1);
    const [row] = await rowsOf(alice.user.id);
    expect(row).toMatchObject({ replies: 1, estimated_replies: 1 });
    expect(Number(row!.output_tokens)).toBe(Math.ceil(answer.length / 4));
    expect(Number(row!.input_tokens)).toBeGreaterThan(0);
  });

  it('adds up replies that end together into their one row, none lost, estimated ones counted apart', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    // Written and counted at once: the row's writes overlap, so later replies wait and go out added together.
    const answers = Array.from({ length: 12 }, (_, i) => `${'word '.repeat(i + 1)}end`);
    for (const [i, text] of answers.entries()) t.fake.enqueue({ text, noUsage: i % 3 === 0 });
    // Conversations of their own (an empty one is given again on POST): one reply runs per conversation.
    const conversations = await Promise.all(
      answers.map((_, i) =>
        insertConversation(
          t.db.kysely,
          { botId: bot.id, userId: alice.user.id, title: `Together ${i}`, titleSource: 'user' },
          new Date().toISOString(),
        ),
      ),
    );
    await Promise.all(
      conversations.map(({ id }) =>
        streamChat(t, `/api/conversations/${id}/stream`, { token: alice.token, body: { content: 'Hello there' } }),
      ),
    );
    await waitForReplies(alice.token, 12);
    const [row, ...others] = await rowsOf(alice.user.id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({ replies: 12, estimated_replies: 4 });
    const reported = answers.filter((_, i) => i % 3 !== 0).reduce((sum, text) => sum + text.split(' ').length, 0);
    const estimated = answers.filter((_, i) => i % 3 === 0).reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
    expect(Number(row!.output_tokens)).toBe(reported + estimated);
  });

  it('counts a stopped reply', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token);
    const conversation = await createConversation(t, alice.token, bot.id);
    t.fake.enqueue({ text: 'never finished at all', hangAfterChunks: 2 });
    const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
      token: alice.token,
      body: { content: 'Go on' },
    });
    await stream.waitFor((e) => e.event === 'delta');
    await t.request('POST', `/api/conversations/${conversation.id}/stop`, { token: alice.token });
    await stream.finished;
    await waitForReplies(alice.token, 1);
    expect((await rowsOf(alice.user.id))[0]).toMatchObject({ replies: 1, estimated_replies: 1 });
  });

  it('counts a shared bot’s reply to a guest against the bot’s owner', async () => {
    const owner = await signUp(t);
    const guest = await signUp(t);
    const bot = await createBot(t, owner.token, { name: 'Shared' });
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: owner.token, body: { visibility: 'link' } });
    const link = await t.request('POST', `/api/bots/${bot.id}/share-link`, { token: owner.token });
    expect((await t.request('GET', `/api/shared/bots/${link.body.slug}`, { token: guest.token })).status).toBe(200);
    await chat(guest, bot.id);
    await waitForReplies(owner.token, 1);
    expect((await usageOf(guest.token)).totals).toEqual([]);
    expect((await usageOf(owner.token)).totals).toMatchObject([{ botId: bot.id, botName: 'Shared' }]);
  });

  it('reports everyone’s usage to admins, one person’s with their today, and as CSV; a deleted bot keeps its row', async () => {
    const alice = await signUp(t);
    const bot = await createBot(t, alice.token, { name: 'Soon, gone' });
    await chat(alice, bot.id);
    await waitForReplies(alice.token, 1);
    await t.db.kysely
      .insertInto('usage_daily')
      .values({ day: '2020-01-02', user_id: alice.user.id, bot_id: 0, model: '0/old', replies: 3, input_tokens: 10 })
      .execute();
    expect((await t.request('DELETE', `/api/bots/${bot.id}`, { token: alice.token })).status).toBeLessThan(300);

    const all = await t.request<UsageReport>('GET', '/api/admin/usage', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.today).toBeNull();
    expect(all.body.truncated).toBe(false);
    expect(all.body.totals.filter((r) => r.userId === alice.user.id)).toMatchObject([
      { botId: bot.id, botName: null, replies: 1 },
    ]);

    const path = `/api/admin/usage?userId=${alice.user.id}&from=2020-01-01&to=2020-01-31`;
    const one = await t.request<UsageReport>('GET', path, { token: admin.token });
    expect(one.body).toMatchObject({
      from: '2020-01-01',
      to: '2020-01-31',
      totals: [{ botId: null, botName: null, model: '0/old', replies: 3, inputTokens: 10 }],
      days: [{ day: '2020-01-02', replies: 3, inputTokens: 10, outputTokens: 0 }],
      today: { replies: 1 },
    });

    const csv = await fetch(`${t.url}${path}&format=csv`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    expect((await csv.text()).split('\r\n')).toEqual([
      'day,username,bot,model,replies,input_tokens,output_tokens',
      `2020-01-02,${alice.username},,0/old,3,10,0`,
      '',
    ]);
  });

  it('sums a range in the database: the day totals, and at most 500 person-bot-model totals, most tokens first', async () => {
    const bob = await signUp(t);
    const models = Array.from({ length: 501 }, (_, i) => i);
    await t.db.kysely
      .insertInto('usage_daily')
      .values(
        models.flatMap((i) =>
          ['2019-03-01', '2019-03-02'].map((day) => ({
            day,
            user_id: bob.user.id,
            bot_id: 0,
            model: `0/m${i}`,
            replies: 1,
            input_tokens: i,
          })),
        ),
      )
      .execute();
    const path = `/api/admin/usage?userId=${bob.user.id}&from=2019-03-01&to=2019-03-31`;
    const report = (await t.request<UsageReport>('GET', path, { token: admin.token })).body;
    expect(report.days).toEqual([
      { day: '2019-03-01', replies: 501, inputTokens: 125_250, outputTokens: 0 },
      { day: '2019-03-02', replies: 501, inputTokens: 125_250, outputTokens: 0 },
    ]);
    expect(report.truncated).toBe(true);
    expect(report.totals).toHaveLength(500);
    expect(report.totals[0]).toMatchObject({ model: '0/m500', replies: 2, inputTokens: 1000 });
    expect(report.totals.at(-1)).toMatchObject({ model: '0/m1', inputTokens: 2 });
  });

  it('answers 403 to a non-admin, 401 signed out, 404 for an unknown user and 400 for a bad range', async () => {
    const alice = await signUp(t);
    expectError(await t.request('GET', '/api/admin/usage', { token: alice.token }), 403, ADMIN_MESSAGES.adminOnly);
    expect((await t.request('GET', '/api/admin/usage')).status).toBe(401);
    expect((await t.request('GET', '/api/usage')).status).toBe(401);
    expectError(
      await t.request('GET', '/api/admin/usage?userId=999999', { token: admin.token }),
      404,
      ADMIN_MESSAGES.userNotFound,
    );
    const backwards = await t.request('GET', '/api/usage?from=2024-02-01&to=2024-01-01', { token: alice.token });
    expectError(backwards, 400, 'From must be on or before To');
    expect((await t.request('GET', '/api/usage?from=yesterday', { token: alice.token })).status).toBe(400);
  });

  it('applies a person’s own limit over their role’s default', async () => {
    const alice = await signUp(t);
    const patched = await t.request('PATCH', '/api/admin/settings', {
      token: admin.token,
      body: { defaultLimits: { user: { dailyReplies: 50, dailyTokens: 1000 } } },
    });
    expect(patched.status).toBe(200);
    expect((await usageOf(alice.token)).today!.limits).toEqual({ dailyReplies: 50, dailyTokens: 1000 });
    const own = await t.request('PATCH', `/api/admin/users/${alice.user.id}`, {
      token: admin.token,
      body: { limits: { dailyReplies: 7 } },
    });
    expect(own.status).toBe(200);
    expect((await usageOf(alice.token)).today!.limits).toEqual({ dailyReplies: 7, dailyTokens: 1000 });
    await t.request('PATCH', '/api/admin/settings', {
      token: admin.token,
      body: { defaultLimits: { user: { dailyReplies: null, dailyTokens: null } } },
    });
  });
});
