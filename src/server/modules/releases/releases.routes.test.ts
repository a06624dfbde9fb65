import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER } from '@shared/chat/widget-protocol';
import type { Bot } from '@shared/contracts/bots';
import { RELEASE_MESSAGES, type Release, type ReleaseGate } from '@shared/contracts/releases';
import type { ShareLink } from '@shared/contracts/shared-bots';
import { createConversation, messagesOf, readWidgetEvents, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { messageText, systemPromptOf, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { signUp, startTestAppWithModel, withAliceAndBob, type SignedUp } from '../../../../tests/support/test-app';

type App = Awaited<ReturnType<typeof startTestAppWithModel>>;

const SITE = 'http://127.0.0.1:4321';
const isJudge = (r: ReceivedRequest) => systemPromptOf(r).startsWith('You judge the answers');
const userText = (r: ReceivedRequest) => messageText(r.body.messages.find((m) => m.role === 'user'));

/** Answers quote the prompt's first sentence; the judge passes answers that mention soup. */
function playBotAndJudge(r: ReceivedRequest) {
  if (!isJudge(r)) return `Answer by: ${systemPromptOf(r).split('.')[0]}`;
  const pass = /soup/i.test(userText(r).split('Answer:')[1] ?? '');
  return JSON.stringify(
    pass ? { verdict: 'pass', score: 4, reason: 'Mentions soup.' } : { verdict: 'fail', score: 1, reason: 'No soup.' },
  );
}

describe.each(databaseKinds)('releases on %s', (kind) => {
  let t: App;
  let alice: SignedUp;
  let bob: SignedUp;
  beforeAll(async () => {
    ({ t, alice, bob } = await withAliceAndBob(startTestAppWithModel({ kind, model: { reply: playBotAndJudge } })));
  });
  afterAll(() => t.close());

  const publish = (botId: number, body: unknown = {}, token = alice.token) =>
    t.request<Release>('POST', `/api/bots/${botId}/releases`, { token, body });
  const readRelease = async (botId: number, id: number) =>
    (await t.request<Release>('GET', `/api/bots/${botId}/releases/${id}`, { token: alice.token })).body;
  async function decided(botId: number, id: number) {
    await expect.poll(async () => (await readRelease(botId, id)).status).not.toBe('checking');
    return readRelease(botId, id);
  }
  const edit = (botId: number, systemPrompt: string) =>
    t.request<Bot>('PATCH', `/api/bots/${botId}`, { token: alice.token, body: { config: { systemPrompt } } });

  const souper = () =>
    createBot(t, alice.token, {
      description: 'Suggests soups',
      config: { systemPrompt: 'You are MARKER-ONE, the soup chef. Suggest soups.' },
      exampleQueries: ['Dinner tonight?', 'Something warm?'],
    });

  it('publishes version 1 after its test set ran; everyone else then gets it while the owner chats with version 2', async () => {
    const bot = await souper();
    const asked = await publish(bot.id);
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    expect(asked.body).toMatchObject({ version: 1, status: 'checking', baselineVersion: null });
    const first = await decided(bot.id, asked.body.id);
    expect(first).toMatchObject({ status: 'published', verdict: { tested: true, passRate: 1, blockedBy: [] } });
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.publishedVersion).toBe(1);

    expect((await edit(bot.id, 'You are MARKER-TWO, a chef of salads.')).status).toBe(200);
    const latest = (await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body;
    expect(latest).toMatchObject({ version: 2, publishedVersion: 1 });

    // The surfaces: the owner's chat, /v1, the widget and a shared-link chat.
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: alice.token,
      body: { visibility: 'link', embedOrigins: [SITE] },
    });
    const link = await t.request<ShareLink>('POST', `/api/bots/${bot.id}/share-link`, { token: alice.token });
    const key = await t.request<{ key: string }>('POST', '/api/keys', {
      token: alice.token,
      body: { name: 'site', botId: bot.id },
    });
    expect((await t.request('GET', `/api/shared/bots/${link.body.slug}`, { token: bob.token })).status).toBe(200);
    const chatAs = async (user: SignedUp) => {
      const conversation = await createConversation(t, user.token, bot.id);
      await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
        token: user.token,
        body: { content: 'Dinner tonight?' },
      });
      return conversation.id;
    };
    const promptOf = async (ask: () => Promise<unknown>) => {
      const from = t.fake.requests.length;
      await ask();
      const answers = t.fake.requests.slice(from).filter((r) => !isJudge(r));
      return systemPromptOf(answers[0]!);
    };
    expect(await promptOf(() => chatAs(alice))).toContain('MARKER-TWO');
    expect(
      await promptOf(async () => {
        const res = await t.send('POST', '/v1/chat/completions', {
          token: key.body.key,
          body: { model: `bot-${bot.id}`, messages: [{ role: 'user', content: 'Dinner tonight?' }] },
        });
        expect(res.status, await res.clone().text()).toBe(200);
      }),
    ).toContain('MARKER-ONE');
    expect(
      await promptOf(async () => {
        const res = await t.send('POST', `/api/widget/${bot.id}/replies`, {
          headers: { [EMBED_ORIGIN_HEADER]: SITE, [VISITOR_KEY_HEADER]: `visitor-key-${'1'.repeat(20)}` },
          body: { content: 'Dinner tonight?' },
        });
        expect(res.status).toBe(200);
        await readWidgetEvents(res);
      }),
    ).toContain('MARKER-ONE');
    let shared = 0;
    expect(await promptOf(async () => (shared = await chatAs(bob)))).toContain('MARKER-ONE');
    // The reply says which version wrote it: the published one (what the feedback log files it under).
    const reply = (await messagesOf(t, bob.token, shared)).at(-1)!;
    const rated = await t.request<{ botVersion: number }>('POST', `/api/messages/${reply.id}/feedback`, {
      token: bob.token,
      body: { rating: 'down' },
    });
    expect(rated.body.botVersion).toBe(1);
  });

  it('blocks a release that regresses, says why, publishes it with a reason, and rolls back at once', async () => {
    const bot = await souper();
    const first = await publish(bot.id);
    expect((await decided(bot.id, first.body.id)).status).toBe('published');
    await edit(bot.id, 'You are MARKER-TWO, a chef of salads.');

    const second = await publish(bot.id);
    expect(second.status).toBe(202);
    const blocked = await decided(bot.id, second.body.id);
    expect(blocked).toMatchObject({
      status: 'blocked',
      version: 2,
      baselineVersion: 1,
      verdict: {
        passRate: 0,
        baselinePassRate: 1,
        regressions: 2,
        summary: 'Version 2 vs version 1: 2 regressions',
      },
    });
    expect(blocked.verdict!.blockedBy).toEqual([
      'Pass rate 0% is lower than version 1’s 100%.',
      '2 regressions (none allowed).',
    ]);
    expect(blocked.verdict!.questions.map((q) => [q.query, q.change, q.before, q.after])).toEqual([
      ['Dinner tonight?', 'regression', 'pass', 'fail'],
      ['Something warm?', 'regression', 'pass', 'fail'],
    ]);
    // The published version's run was reused: only version 2 ran again.
    expect(blocked.baselineEvaluationId).toBe(
      first.body.evaluationId ?? (await readRelease(bot.id, first.body.id)).evaluationId,
    );
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.publishedVersion).toBe(1);

    const empty = await publish(bot.id, { override: { reason: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: RELEASE_MESSAGES.reason });
    const forced = await publish(bot.id, { override: { reason: 'Salads are the new menu.' } });
    expect(forced.status).toBe(202);
    expect(forced.body).toMatchObject({
      status: 'published',
      version: 2,
      overrideReason: 'Salads are the new menu.',
      verdict: { regressions: 2 },
    });
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.publishedVersion).toBe(2);

    const back = await publish(bot.id, { version: 1, skipGate: true });
    expect(back.body).toMatchObject({
      status: 'published',
      version: 1,
      skipGate: true,
      message: 'Rolled back to version 1.',
    });
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: alice.token })).body.publishedVersion).toBe(1);

    const history = await t.request<Release[]>('GET', `/api/bots/${bot.id}/releases`, { token: alice.token });
    expect(history.body.map((r) => [r.version, r.status, r.overrideReason])).toEqual([
      [1, 'published', null],
      [2, 'published', 'Salads are the new menu.'],
      [2, 'blocked', null],
      [1, 'published', null],
    ]);
  });

  it('publishes a bot without a test set at once, saying nothing was tested; refuses a rollback to a version never published', async () => {
    const bot = await createBot(t, alice.token, { config: { systemPrompt: 'You are terse.' } });
    const res = await publish(bot.id);
    expect(res.body).toMatchObject({ status: 'published', verdict: { tested: false } });
    await edit(bot.id, 'You are verbose.');
    const refused = await publish(bot.id, { version: 2, skipGate: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: RELEASE_MESSAGES.neverPublished });
    expect((await publish(bot.id, { version: 9 })).status).toBe(404);
  });

  it('keeps the gate per bot and lets nobody else see or change releases', async () => {
    const bot = await souper();
    const gate = await t.request<ReleaseGate>('GET', `/api/bots/${bot.id}/release-gate`, { token: alice.token });
    expect(gate.body).toEqual({ minPassRate: null, maxRegressions: 0 });
    const bad = await t.request('PUT', `/api/bots/${bot.id}/release-gate`, {
      token: alice.token,
      body: { minPassRate: 2, maxRegressions: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: RELEASE_MESSAGES.minPassRate });
    const set = await t.request('PUT', `/api/bots/${bot.id}/release-gate`, {
      token: alice.token,
      body: { minPassRate: 0.8, maxRegressions: 1 },
    });
    expect(set.body).toEqual({ minPassRate: 0.8, maxRegressions: 1 });

    for (const [method, path, body] of [
      ['GET', `/api/bots/${bot.id}/releases`, undefined],
      ['POST', `/api/bots/${bot.id}/releases`, {}],
      ['GET', `/api/bots/${bot.id}/release-gate`, undefined],
      ['PUT', `/api/bots/${bot.id}/release-gate`, { minPassRate: null, maxRegressions: 3 }],
    ] as const) {
      expect((await t.request(method, path, { token: bob.token, body })).status, `${method} ${path}`).toBe(404);
    }
    const outsider = await signUp(t);
    expect((await t.request('GET', `/api/bots/${bot.id}/releases/1`, { token: outsider.token })).status).toBe(404);
  });
});
