import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_ORIGIN_HEADER, VISITOR_KEY_HEADER } from '@shared/chat/widget-protocol';
import type { CreateBotRequest } from '@shared/contracts/bots';
import type { Source } from '@shared/contracts/chat';
import { evaluationEventSchema } from '@shared/contracts/evaluations';
import type { ShareLink } from '@shared/contracts/shared-bots';
import { previewEventSchema, type PreviewEvent } from '@shared/contracts/training';
import { createConversation, messagesOf, readWidgetEvents, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { messageText, systemPromptOf, type FakeLlm, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { uploadSettled } from '../../../../tests/support/files-api';
import { pdfWithPages } from '../../../../tests/support/files';
import { signUp, startTestAppWithModel, type SignedUp } from '../../../../tests/support/test-app';

type App = Awaited<ReturnType<typeof startTestAppWithModel>>;

const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const QUESTION = 'How often must the Zephyr widget be recalibrated?';
const SITE = 'http://127.0.0.1:4321';

const isJudge = (r: ReceivedRequest) => systemPromptOf(r).includes('You judge the answers');
const answersOf = (requests: ReceivedRequest[]) => requests.filter((r) => !isJudge(r));

/** The bot cites [1] when it was given sources, as a model told to cite would; the judge passes everything. */
function playBotAndJudge(r: ReceivedRequest) {
  if (isJudge(r)) return JSON.stringify({ verdict: 'pass', reason: 'Answers from the manual.' });
  return systemPromptOf(r).includes('[1]') ? 'Every 42 days [1].' : 'I do not know.';
}

/** What `action` returned and the model requests it caused (the fake is shared by a whole suite). */
async function recorded<T>(fake: FakeLlm, action: () => Promise<T>): Promise<[T, ReceivedRequest[]]> {
  const from = fake.requests.length;
  const result = await action();
  return [result, fake.requests.slice(from)];
}

async function ndjson<T>(res: Response, schema: { parse(value: unknown): T }): Promise<T[]> {
  expect(res.status, await res.clone().text()).toBe(200);
  const lines = (await res.text()).split('\n').filter(Boolean);
  return lines.map((line) => schema.parse(JSON.parse(line)));
}

type Settings = Pick<CreateBotRequest, 'name' | 'description' | 'purpose' | 'capabilities' | 'config'>;

const knowledgeBot: Settings = {
  name: 'Zephyr support',
  description: 'Answers questions about the Zephyr widget',
  purpose: 'answering',
  capabilities: ['document_analysis'],
  config: { tone: 'professional', writingStyle: 'concise', citationGeneration: true },
};

/** A bot of `owner`'s with the manual as its knowledge (the fact on page 2), ready to be searched. */
async function botWithManual(t: App, owner: SignedUp, extra: Partial<CreateBotRequest> = {}) {
  const bot = await createBot(t, owner.token, { ...knowledgeBot, ...extra });
  const pdf = await pdfWithPages(['Welcome to the manual.', FACT, 'Warranty terms apply.']);
  const file = await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, 'manual.pdf', pdf);
  expect(file).toMatchObject({ status: 'ready' });
  return bot;
}

const preview = (t: App, token: string, extra: { botId?: number } = {}) =>
  t.send('POST', '/api/bots/preview-answers', { token, body: { bot: knowledgeBot, queries: [QUESTION], ...extra } });

const answerEvent = (events: PreviewEvent[]) =>
  events.find((e): e is Extract<PreviewEvent, { type: 'answer' }> => e.type === 'answer');

describe.each(databaseKinds)('one reply pipeline, on %s', (kind) => {
  let t: App;
  let alice: SignedUp;
  const dir = mkdtempSync(join(tmpdir(), 'botty-one-pipeline-'));
  beforeAll(async () => {
    t = await startTestAppWithModel({
      kind,
      model: { reply: playBotAndJudge },
      env: { FILES_DIR: dir },
      fileJobs: { pollMs: 25 },
    });
    alice = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('A knowledge bot’s evaluation and training preview answer from its files', async () => {
    const bot = await botWithManual(t, alice, { exampleQueries: [QUESTION] });

    // (a) The chat, the reference: what people get.
    const conversation = await createConversation(t, alice.token, bot.id);
    const [, [chatRequest]] = await recorded(t.fake, () =>
      streamChat(t, `/api/conversations/${conversation.id}/stream`, {
        token: alice.token,
        body: { content: QUESTION },
      }),
    );
    const chatSources = (await messagesOf(t, alice.token, conversation.id)).at(-1)!.sources;
    expect(chatSources[0]).toMatchObject({ n: 1, kind: 'file', title: 'manual.pdf', page: 2 });
    expect(chatSources[0]!.snippet).toContain('42 days');
    expect(systemPromptOf(chatRequest!)).toContain(FACT);

    // (b) A preview while editing the bot reads its files and shows the sources as the chat does.
    const [previewEvents, previewRequests] = await recorded(t.fake, async () =>
      ndjson(await preview(t, alice.token, { botId: bot.id }), previewEventSchema),
    );
    expect(previewRequests).toHaveLength(1);
    expect(systemPromptOf(previewRequests[0]!)).toContain(FACT);
    const pick = ({ n, kind, title, page, snippet }: Source) => ({ n, kind, title, page, snippet });
    const previewed = answerEvent(previewEvents);
    expect(previewed).toMatchObject({ answer: 'Every 42 days [1].' });
    expect(previewed!.sources.map(pick)).toEqual(chatSources.map(pick));
    // The draft has the bot's own settings, so the preview is the chat's prompt exactly.
    expect(systemPromptOf(previewRequests[0]!)).toBe(systemPromptOf(chatRequest!));

    // (c) An evaluation answers from the files too, and its judge sees the sources the answer cites.
    const [evaluationEvents, evaluationRequests] = await recorded(t.fake, async () => {
      const queued = await t.send('POST', `/api/bots/${bot.id}/evaluations`, { token: alice.token, body: {} });
      expect(queued.status).toBe(202);
      const { id } = (await queued.json()) as { id: number };
      const events = `${t.url}/api/bots/${bot.id}/evaluations/${id}/events`;
      return ndjson(
        await fetch(events, { headers: { authorization: `Bearer ${alice.token}` } }),
        evaluationEventSchema,
      );
    });
    expect(evaluationEvents.at(-1)).toMatchObject({ type: 'done', evaluation: { total: 1, passed: 1 } });
    const [evaluationAnswer] = answersOf(evaluationRequests);
    expect(answersOf(evaluationRequests)).toHaveLength(1);
    expect(systemPromptOf(evaluationAnswer!)).toBe(systemPromptOf(chatRequest!));
    const judge = evaluationRequests.filter(isJudge);
    expect(judge).toHaveLength(1);
    const judged = judge[0]!.body.messages.map(messageText).join('\n');
    expect(judged).toContain(`[1] manual.pdf: ${chatSources[0]!.snippet}`);
    expect(judged).toContain('Every 42 days [1].');
  });

  it('reads no file for a draft being created, and no other user’s bot for a preview', async () => {
    await botWithManual(t, alice);
    // The draft asks for document analysis and its author has that manual, but a draft has no files yet.
    const [events, [draftRequest]] = await recorded(t.fake, async () =>
      ndjson(await preview(t, alice.token), previewEventSchema),
    );
    expect(systemPromptOf(draftRequest!)).not.toContain('Zephyr widget must');
    expect(answerEvent(events)).toMatchObject({ answer: 'I do not know.', sources: [] });

    const bob = await signUp(t);
    const bobs = await botWithManual(t, bob);
    const [refused, asked] = await recorded(t.fake, () => preview(t, alice.token, { botId: bobs.id }));
    expect(refused.status).toBe(404);
    expect(asked).toEqual([]);
  });

  it('The same question through chat, /v1, the widget and a shared-bot chat sends the model the same system prompt and context', async () => {
    const owner = await signUp(t);
    const bot = await botWithManual(t, owner);
    const shared = await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'link', embedOrigins: [SITE] },
    });
    expect(shared.status).toBe(200);
    const link = await t.request<ShareLink>('POST', `/api/bots/${bot.id}/share-link`, { token: owner.token });
    const key = await t.request('POST', '/api/keys', { token: owner.token, body: { name: 'site', botId: bot.id } });
    expect(key.status).toBe(201);
    const visitor = await signUp(t);
    expect((await t.request('GET', `/api/shared/bots/${link.body.slug}`, { token: visitor.token })).status).toBe(200);

    const chatIn = async (user: SignedUp) => {
      const conversation = await createConversation(t, user.token, bot.id);
      await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
        token: user.token,
        body: { content: QUESTION },
      });
    };
    const surfaces: Record<string, () => Promise<unknown>> = {
      chat: () => chatIn(owner),
      v1: async () => {
        const res = await t.send('POST', '/v1/chat/completions', {
          token: key.body.key as string,
          body: { model: `bot-${bot.id}`, messages: [{ role: 'user', content: QUESTION }] },
        });
        expect(res.status, await res.clone().text()).toBe(200);
      },
      widget: async () => {
        const res = await t.send('POST', `/api/widget/${bot.id}/replies`, {
          headers: { [EMBED_ORIGIN_HEADER]: SITE, [VISITOR_KEY_HEADER]: `visitor-key-${'0'.repeat(20)}` },
          body: { content: QUESTION },
        });
        expect(res.status).toBe(200);
        await readWidgetEvents(res);
      },
      shared: () => chatIn(visitor),
    };
    const received: Record<string, ReceivedRequest> = {};
    for (const [surface, ask] of Object.entries(surfaces)) {
      const [, requests] = await recorded(t.fake, ask);
      expect(requests, surface).toHaveLength(1);
      received[surface] = requests[0]!;
    }

    const chat = received.chat!;
    expect(systemPromptOf(chat)).toContain(FACT);
    expect(systemPromptOf(chat)).toContain('Use a professional tone');
    expect(systemPromptOf(chat)).toContain('Write concisely');
    expect(systemPromptOf(chat)).toContain('cite them inline as [1]');
    expect(chat.body.messages.map((m) => [m.role, messageText(m)]).slice(1)).toEqual([['user', QUESTION]]);
    // The whole request, not only the system prompt and the question: tools (none for this bot), sampling and
    // streaming options too. /v1 has no conversation, so no attachments, but none of the others has any here
    // either; a /v1 caller's own system message, temperature or max_tokens would differ, and it sends none.
    for (const surface of ['v1', 'widget', 'shared']) expect(received[surface]!.body, surface).toEqual(chat.body);
  });
});
