import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, deltasOf, messagesOf, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, systemPromptOf, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { settledFile, uploadFile, uploadSettled } from '../../../../tests/support/files-api';
import { pdfWithPages, png } from '../../../../tests/support/files';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

const text = (s: string) => new TextEncoder().encode(s);
const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';

/** The fake model cites [1] when it was given numbered sources, as a model told to cite would. */
const citeWhenSourced = (request: ReceivedRequest) =>
  systemPromptOf(request).includes('[1]') ? 'Recalibrate every 42 days [1].' : 'I do not know.';

const imagePartsOf = (request: ReceivedRequest) =>
  request.body.messages.flatMap((m) =>
    Array.isArray(m.content) ? (m.content as { type: string }[]).filter((p) => p.type === 'image_url') : [],
  );

describe.each(databaseKinds)('knowledge in the chat, on %s', (kind) => {
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let offline: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'botty-knowledge-'));
  beforeAll(async () => {
    fake = await startFakeLlm({ reply: citeWhenSourced });
    const env = { FILES_DIR: dir };
    t = await startTestApp({
      kind,
      env: { ...env, LLM_BASE_URL: fake.baseUrl, LLM_MODEL: fake.model },
      fileJobs: { pollMs: 50 },
    });
    offline = await startTestApp({ kind, env, fileJobs: { pollMs: 50 } });
  });
  afterAll(async () => {
    await t.close();
    await offline.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function botWithManual(app: TestApp, capabilities = ['document_analysis']) {
    const { token } = await signUp(app);
    const bot = await createBot(app, token, {
      capabilities: capabilities as never,
      config: { citationGeneration: true },
    });
    const pdf = await pdfWithPages(['Welcome to the manual.', FACT, 'Warranty terms apply.']);
    const file = await uploadSettled(app, token, `/api/bots/${bot.id}/files`, 'manual.pdf', pdf);
    expect(file).toMatchObject({ status: 'ready' });
    return { token, bot };
  }

  it('answers from the bot’s files with numbered sources, saved on the reply', async () => {
    const { token, bot } = await botWithManual(t);
    const conversation = await createConversation(t, token, bot.id);
    const events = await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'How often must the Zephyr widget be recalibrated?' },
    });
    const system = systemPromptOf(fake.lastRequest());
    expect(system).toContain(FACT);
    expect(system).toMatch(/\[1\] \(manual\.pdf, page 2/);
    expect(system).toMatch(/cite them inline as \[1\]/);

    const sourcesEvent = events.find((e) => e.event === 'sources');
    const firstDelta = events.findIndex((e) => e.event === 'delta');
    expect(events.indexOf(sourcesEvent!)).toBeLessThan(firstDelta);
    expect(deltasOf(events).join('')).toBe('Recalibrate every 42 days [1].');
    const reply = (await messagesOf(t, token, conversation.id)).at(-1)!;
    expect(reply.sources[0]).toMatchObject({ n: 1, kind: 'file', title: 'manual.pdf', page: 2 });
    expect(reply.sources[0]!.snippet).toContain('42 days');
  });

  it('never gives one user’s files to another user’s bot', async () => {
    await botWithManual(t);
    const { token } = await signUp(t);
    const stranger = await createBot(t, token, { capabilities: ['document_analysis'] });
    const conversation = await createConversation(t, token, stranger.id);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'How often must the Zephyr widget be recalibrated?' },
    });
    expect(systemPromptOf(fake.lastRequest())).not.toContain('Zephyr');
    expect((await messagesOf(t, token, conversation.id)).at(-1)!.sources).toEqual([]);
  });

  it('uses a document attached to the conversation, for that conversation only', async () => {
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const first = await createConversation(t, token, bot.id);
    const notes = await uploadFile(t, token, `/api/conversations/${first.id}/files`, 'notes.txt', text(FACT));
    expect(notes.status).toBe(201);
    await uploadSettled(t, token, `/api/conversations/${first.id}/files`, 'more.txt', text('Nothing else.'));
    // Files are stored while the next is read, so the first uploaded is not always the first ready.
    expect((await settledFile(t, token, notes.body.id)).status).toBe('ready');
    const events = await streamChat(t, `/api/conversations/${first.id}/stream`, {
      token,
      body: { content: 'Zephyr widget recalibration?', fileIds: [notes.body.id] },
    });
    expect(events[0]).toMatchObject({
      event: 'user-message',
      data: { attachments: [{ id: notes.body.id, name: 'notes.txt' }] },
    });
    expect(systemPromptOf(fake.lastRequest())).toContain(FACT);
    // Another conversation with the same bot does not see it; a file of another conversation is refused.
    await messagesOf(t, token, first.id);
    const second = await createConversation(t, token, bot.id);
    await t.request('POST', `/api/messages`, { token, body: { conversationId: second.id, content: 'hi' } });
    const other = await t.request('POST', `/api/conversations/${second.id}/stream`, {
      token,
      body: { content: 'Zephyr widget recalibration?', fileIds: [notes.body.id] },
    });
    expect(other.status).toBe(404);
  });

  it('sends an attached image to the model for a vision bot, and not for a bot without the capability', async () => {
    const { token } = await signUp(t);
    const vision = await createBot(t, token, { capabilities: ['image_understanding'] });
    const conversation = await createConversation(t, token, vision.id);
    const image = await uploadFile(t, token, `/api/conversations/${conversation.id}/files`, 'chart.png', png());
    expect(image.status).toBe(201);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'What does this chart show?', fileIds: [image.body.id] },
    });
    const parts = imagePartsOf(fake.lastRequest()) as unknown as { image_url: { url: string } }[];
    expect(parts).toHaveLength(1);
    expect(parts[0]!.image_url.url).toMatch(/^data:image\/png;base64,/);

    const plain = await createBot(t, token, { capabilities: ['memory_context'] });
    const plainConversation = await createConversation(t, token, plain.id);
    const refused = await uploadFile(t, token, `/api/conversations/${plainConversation.id}/files`, 'chart.png', png());
    expect(refused.status).toBe(403);
  });

  it('lists offline the passages it would have used', async () => {
    const { token, bot } = await botWithManual(offline);
    const conversation = await createConversation(offline, token, bot.id);
    const events = await streamChat(offline, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'How often must the Zephyr widget be recalibrated?' },
    });
    const reply = deltasOf(events).join('');
    expect(reply).toMatch(/no language model is connected/);
    expect(reply).toContain('These passages would have been used to answer');
    expect(reply).toMatch(/\[1\] \*\*manual\.pdf\*\*: .*42 days/);
  });
});
