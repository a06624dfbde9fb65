import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import { person, type Person } from '../../../../tests/support/admin-api';
import { expectError } from '../../../../tests/support/auth-api';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, systemPromptOf, type FakeLlm, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { logSink } from '../../../../tests/support/log-sink';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

const isJudge = (r: ReceivedRequest) => systemPromptOf(r).startsWith('You judge the answers');
const judgeOrAnswer = (r: ReceivedRequest) =>
  isJudge(r) ? JSON.stringify({ verdict: 'pass', reason: 'Fine.' }) : `Answer from ${r.body.model}`;

describe.each(databaseKinds)('each bot and task on its model, %s', (kind) => {
  let envLlm: FakeLlm;
  let second: FakeLlm;
  let t: TestApp;
  let admin: Person;
  let owner: Person;
  let connectionId: number;
  const sink = logSink();
  const model = (name: string) => `${connectionId}/${name}`;

  async function ask(botId: number) {
    const conversation = await createConversation(t, owner.token, botId);
    const res = await t.request('POST', '/api/bot-message', {
      token: owner.token,
      body: { conversationId: conversation.id, botId, userMessageContent: 'What should I cook?' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.app.backgroundSettled();
    return res.body;
  }

  const setBotModel = (botId: number, id: string | null) =>
    t.request('PATCH', `/api/bots/${botId}`, { token: owner.token, body: { config: { model: id } } });
  const enable = (models: string[]) =>
    t.request('PATCH', `/api/admin/connections/${connectionId}`, {
      token: admin.token,
      body: { enabledModels: models },
    });
  const setDefaults = (defaultModels: Record<string, string | null>) =>
    t.request('PATCH', '/api/admin/settings', { token: admin.token, body: { defaultModels } });

  beforeAll(async () => {
    envLlm = await startFakeLlm({ model: 'env-model', reply: judgeOrAnswer });
    second = await startFakeLlm({ model: 'big', models: ['small', 'big'], reply: judgeOrAnswer });
    t = await startTestApp({
      kind,
      env: { LLM_BASE_URL: envLlm.baseUrl, LLM_MODEL: 'env-model', LOG_LEVEL: 'info' },
      logStream: sink.stream,
    });
    admin = await person(t);
    owner = await person(t);
    const created = await t.request('POST', '/api/admin/connections', {
      token: admin.token,
      body: {
        name: 'Second box',
        kind: 'openai-compatible',
        baseUrl: second.baseUrl,
        apiKey: 'sk-second-key-1234',
        allowPrivateAddress: true,
      },
    });
    connectionId = created.body.id;
    expect((await enable(['small', 'big'])).status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await envLlm?.close();
    await second?.close();
  });

  it("answers with the bot's model on its connection, and a new choice from the next reply on", async () => {
    const bot = await createBot(t, owner.token, { config: { model: model('big') } });
    const first = await ask(bot.id);
    expect(second.lastRequest().body.model).toBe('big');
    expect(second.lastRequest().headers.authorization).toBe('Bearer sk-second-key-1234');
    expect(first.botResponse).toBe('Answer from big');
    expect(first.message.model).toBe('big');
    const row = await t.db.kysely
      .selectFrom('messages')
      .select('model')
      .where('id', '=', first.message.id)
      .executeTakeFirstOrThrow();
    expect(row.model).toBe(model('big'));

    expect((await setBotModel(bot.id, model('small'))).status).toBe(200);
    const next = await ask(bot.id);
    expect(second.lastRequest().body.model).toBe('small');
    expect(next.message.model).toBe('small');

    expect((await setBotModel(bot.id, null)).status).toBe(200);
    const envRequests = envLlm.requests.length;
    expect((await ask(bot.id)).message.model).toBe('env-model');
    expect(envLlm.requests.length).toBe(envRequests + 1);
  });

  it("answers /v1 with the bot's model, and writes prompts with the prompt-generation default", async () => {
    const bot = await createBot(t, owner.token, { config: { model: model('small') } });
    const key = await t.request('POST', '/api/keys', { token: owner.token, body: { name: 'v1', botId: bot.id } });
    const completion = await t.request('POST', '/v1/chat/completions', {
      headers: { authorization: `Bearer ${key.body.key}` },
      body: { model: `bot-${bot.id}`, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(completion.status, JSON.stringify(completion.body)).toBe(200);
    expect(second.lastRequest().body.model).toBe('small');

    expect((await setDefaults({ promptGeneration: model('big') })).status).toBe(200);
    try {
      second.enqueue('You are a helpful meal planner.');
      const generated = await t.request('POST', '/api/generate-prompt', {
        token: owner.token,
        body: { name: 'Planner', description: 'Plans meals', purpose: 'planning' },
      });
      expect(generated.status, JSON.stringify(generated.body)).toBe(200);
      expect(second.lastRequest().body.model).toBe('big');
    } finally {
      await setDefaults({ promptGeneration: null });
    }
  });

  it("keeps an imported bot's model when it is enabled here, and makes it Default when it is not", async () => {
    const bot = await createBot(t, owner.token, { config: { model: model('small') } });
    const exported = await fetch(`${t.url}/api/bots/${bot.id}/export`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const file = (await exported.json()) as { bot: { config: Record<string, unknown> } };
    const importFile = async (document: unknown) => {
      const form = new FormData();
      form.append('file', new Blob([JSON.stringify(document)]), 'bot.botty.json');
      const res = await fetch(`${t.url}/api/bots/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { config: { model?: string | null } }).config.model;
    };
    expect(await importFile(file)).toBe(model('small'));
    const foreign = { ...file, bot: { ...file.bot, config: { ...file.bot.config, model: '42/elsewhere' } } };
    expect(await importFile(foreign)).toBeNull();
  });

  it('refuses a model that is not enabled when a bot is created or changed; Default is always fine', async () => {
    const refused = await t.request('POST', '/api/bots', {
      token: owner.token,
      body: {
        name: 'Unknown model',
        description: 'x',
        purpose: 'planning',
        icon: 'utensils',
        capabilities: [],
        config: { model: model('missing') },
      },
    });
    expectError(refused, 400, ADMIN_MESSAGES.modelUnknown);
    const bot = await createBot(t, owner.token);
    expectError(await setBotModel(bot.id, '0/not-this-one'), 400, ADMIN_MESSAGES.modelUnknown);
    expect((await setBotModel(bot.id, model('small'))).status).toBe(200);
    expect((await setBotModel(bot.id, null)).status).toBe(200);
  });

  it('falls back to the default when the bot’s model is disabled, logs it, and GET /api/models no longer lists it', async () => {
    const bot = await createBot(t, owner.token, { config: { model: model('small') } });
    expect((await enable(['big'])).status).toBe(200);
    try {
      const answered = await ask(bot.id);
      expect(answered.message.model).toBe('env-model');
      expect(envLlm.lastRequest().body.model).toBe('env-model');
      expect(sink.entries()).toContainEqual(
        expect.objectContaining({ requested: model('small'), model: '0/env-model', level: 40 }),
      );
      const models = await t.request('GET', '/api/models', { token: owner.token });
      expect(models.body.models.map((m: { id: string }) => m.id)).not.toContain(model('small'));
      // The bot keeps its choice, so the owner sees which model is gone, and a later re-enable restores it.
      const kept = await t.request('GET', `/api/bots/${bot.id}`, { token: owner.token });
      expect(kept.body.config.model).toBe(model('small'));
    } finally {
      await enable(['small', 'big']);
    }
    await ask(bot.id);
    expect(second.lastRequest().body.model).toBe('small');
  });

  it('names conversations and judges answers with their task defaults; the chat default answers Default bots', async () => {
    expectError(await setDefaults({ judge: model('gone') }), 400, ADMIN_MESSAGES.modelUnknown);
    expect((await setDefaults({ titles: model('small'), judge: model('big') })).status).toBe(200);
    try {
      const bot = await createBot(t, owner.token, { exampleQueries: ['Is soup dinner?'] });
      const titles = second.titleRequests.length;
      await ask(bot.id);
      expect(envLlm.lastRequest().body.model).toBe('env-model');
      expect(second.titleRequests.length).toBe(titles + 1);
      expect(second.titleRequests.at(-1)!.body.model).toBe('small');

      const run = await fetch(`${t.url}/api/bots/${bot.id}/evaluations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(run.status).toBe(202);
      const { id } = (await run.json()) as { id: number };
      // Followed to its end, so the judge asked is the one set now.
      const events = await fetch(`${t.url}/api/bots/${bot.id}/evaluations/${id}/events`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(await events.text()).toContain('"verdict":"pass"');
      const judged = second.requests.filter(isJudge);
      expect(judged.at(-1)?.body.model).toBe('big');
      expect(envLlm.requests.filter(isJudge)).toHaveLength(0);

      expect((await setDefaults({ chat: model('big') })).status).toBe(200);
      const models = await t.request('GET', '/api/models', { token: owner.token });
      expect(models.body.defaultModel).toMatchObject({ id: model('big'), label: 'big · Second box' });
      expect((await ask(bot.id)).message.model).toBe('big');
      const status = await t.request('GET', '/api/chat/status', { token: owner.token });
      expect(status.body).toMatchObject({ offline: false, model: 'big' });
    } finally {
      await setDefaults({ chat: null, titles: null, judge: null });
    }
  });
});
