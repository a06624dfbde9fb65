import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import type { Conversation, ConversationPage, ConversationSummary } from '@shared/contracts/chat';
import type { ShareLink } from '@shared/contracts/shared-bots';
import { createConversation, deltasOf, messagesOf, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { systemPromptOf, type ReceivedRequest } from '../../../../tests/support/fake-llm';
import { uploadFile, uploadSettled } from '../../../../tests/support/files-api';
import { signUp, startTestAppWithModel } from '../../../../tests/support/test-app';

const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const text = (s: string) => new TextEncoder().encode(s);
const answer = (request: ReceivedRequest) =>
  systemPromptOf(request).includes('[1]') ? 'Every 42 days [1].' : 'Hello from the shared bot.';

describe.each(databaseKinds)('chatting with a shared bot, on %s', (kind) => {
  let t: Awaited<ReturnType<typeof startTestAppWithModel>>;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let visitor: Awaited<ReturnType<typeof signUp>>;
  const dir = mkdtempSync(join(tmpdir(), 'botty-shared-chat-'));

  beforeAll(async () => {
    t = await startTestAppWithModel({
      kind,
      model: { reply: answer },
      env: { FILES_DIR: dir },
      fileJobs: { pollMs: 50 },
    });
    owner = await signUp(t);
    visitor = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const setVisibility = (botId: number, visibility: string) =>
    t.request<Bot>('PATCH', `/api/bots/${botId}/sharing`, { token: owner.token, body: { visibility } });

  async function sharedBot() {
    const bot = await createBot(t, owner.token, {
      capabilities: ['document_analysis'],
      config: { systemPrompt: 'You are the Zephyr support bot.', citationGeneration: true },
    });
    const file = await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, 'manual.txt', text(FACT));
    expect(file).toMatchObject({ status: 'ready' });
    await setVisibility(bot.id, 'link');
    const link = await t.request<ShareLink>('POST', `/api/bots/${bot.id}/share-link`, { token: owner.token });
    return { bot, slug: link.body.slug, fileId: file.id };
  }

  it('lets a visitor chat once they opened the link, with the owner’s prompt and knowledge, in conversations of their own', async () => {
    const { bot, slug, fileId } = await sharedBot();
    // Not before opening the link.
    const refused = await t.request('POST', '/api/conversations', { token: visitor.token, body: { botId: bot.id } });
    expect(refused.status).toBe(404);

    expect((await t.request('GET', `/api/shared/bots/${slug}`, { token: visitor.token })).status).toBe(200);
    const conversation = await createConversation(t, visitor.token, bot.id);
    expect(conversation.userId).toBe(visitor.user.id);
    const events = await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: visitor.token,
      body: { content: 'How often must the Zephyr widget be recalibrated?' },
    });
    expect(deltasOf(events).join('')).toBe('Every 42 days [1].');
    const system = systemPromptOf(t.fake.lastRequest());
    expect(system).toContain('You are the Zephyr support bot.');
    expect(system).toContain(FACT);
    const reply = (await messagesOf(t, visitor.token, conversation.id)).at(-1)!;
    expect(reply.sources[0]).toMatchObject({ kind: 'file', fileId, title: 'manual.txt' });

    // Passages, never the file itself.
    expect((await t.request('GET', `/api/files/${fileId}`, { token: visitor.token })).status).toBe(404);
    expect((await t.request('GET', `/api/files/${fileId}/content`, { token: visitor.token })).status).toBe(404);
    expect((await t.request('GET', `/api/bots/${bot.id}/files`, { token: visitor.token })).status).toBe(404);

    // The visitor's use counts (off the reply's path); the owner never sees the conversation.
    await t.app.backgroundSettled();
    const owned = await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: owner.token });
    expect(owned.body.usageCount).toBe(1);
    expect((await t.request('GET', `/api/conversations/${conversation.id}`, { token: owner.token })).status).toBe(404);
    expect(
      (await t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, { token: owner.token })).body,
    ).toEqual([]);
    const ownerHistory = await t.request<ConversationPage>('GET', '/api/conversations', { token: owner.token });
    expect(ownerHistory.body.items.map((c) => c.id)).not.toContain(conversation.id);
    const ownerActivities = await t.request<{ type: string; botId: number }[]>(
      'GET',
      `/api/users/${owner.user.id}/activities?limit=50`,
      { token: owner.token },
    );
    expect(ownerActivities.body.filter((a) => a.type === 'chat_started' && a.botId === bot.id)).toEqual([]);
    const visitorList = await t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, {
      token: visitor.token,
    });
    expect(visitorList.body.map((c) => c.id)).toEqual([conversation.id]);
    // Only the visitor can show the owner their conversation: by sharing it.
    const snapshot = await t.request('POST', `/api/conversations/${conversation.id}/share`, {
      token: visitor.token,
      body: {},
    });
    expect(snapshot.status).toBe(201);
  });

  it('searches the visitor’s own attachments but not another visitor’s', async () => {
    const { bot, slug } = await sharedBot();
    await t.request('GET', `/api/shared/bots/${slug}`, { token: visitor.token });
    const mine = await createConversation(t, visitor.token, bot.id);
    const attached = await uploadFile(
      t,
      visitor.token,
      `/api/conversations/${mine.id}/files`,
      'mine.txt',
      text('Quokka facts'),
    );
    expect(attached.status).toBe(201);
    const other = await signUp(t);
    await t.request('GET', `/api/shared/bots/${slug}`, { token: other.token });
    const theirs = await createConversation(t, other.token, bot.id);
    expect((await uploadFile(t, other.token, `/api/conversations/${mine.id}/files`, 'x.txt', text('x'))).status).toBe(
      404,
    );
    await streamChat(t, `/api/conversations/${theirs.id}/stream`, {
      token: other.token,
      body: { content: 'Tell me quokka facts' },
    });
    expect(systemPromptOf(t.fake.lastRequest())).not.toContain('Quokka facts');
  });

  it('refuses new conversations and replies at once when the bot goes private', async () => {
    const { bot, slug } = await sharedBot();
    await t.request('GET', `/api/shared/bots/${slug}`, { token: visitor.token });
    const conversation = await createConversation(t, visitor.token, bot.id);
    await setVisibility(bot.id, 'private');
    expect(
      (await t.request('POST', '/api/conversations', { token: visitor.token, body: { botId: bot.id } })).status,
    ).toBe(404);
    const res = await fetch(`${t.url}/api/conversations/${conversation.id}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${visitor.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Still there?' }),
    });
    expect(res.status).toBe(404);
    expect((await t.request('GET', `/api/bots/${bot.id}/conversations`, { token: visitor.token })).status).toBe(404);
    // Still theirs to read (decision 0017), with the name of the botty it was with.
    const readOnly = await t.request<ConversationSummary>('GET', `/api/conversations/${conversation.id}`, {
      token: visitor.token,
    });
    expect(readOnly.status).toBe(200);
    expect(readOnly.body).toMatchObject({ id: conversation.id, bot: { id: bot.id, name: bot.name, icon: bot.icon } });
    // The owner still chats with their own bot.
    const own = await createConversation(t, owner.token, bot.id);
    expect(own.userId).toBe(owner.user.id);
  });

  it('lets anyone chat with a public bot without its link, and counts distinct users', async () => {
    const bot = await createBot(t, owner.token);
    await setVisibility(bot.id, 'public');
    const walkIn = await signUp(t);
    const conversation = await createConversation(t, walkIn.token, bot.id);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: walkIn.token,
      body: { content: 'Hi' },
    });
    await createConversation(t, owner.token, bot.id);
    const view = await t.request<{ usersCount: number }>('GET', `/api/explore/bots/${bot.id}`, { token: owner.token });
    expect(view.body.usersCount).toBe(1);
    // Public to link: those who came from Explore have no link, so no right to chat any more.
    await setVisibility(bot.id, 'link');
    const res = await fetch(`${t.url}/api/conversations/${conversation.id}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${walkIn.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Again' }),
    });
    expect(res.status).toBe(404);
  });

  it('adds a copy to the visitor’s botties: settings, the prompt only when shown, no files or sharing', async () => {
    const { bot, slug } = await sharedBot();
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { embedOrigins: ['https://example.com'] },
    });
    const copy = await t.request<Bot>('POST', `/api/shared/bots/${slug}/copy`, { token: visitor.token });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      name: bot.name,
      description: bot.description,
      userId: visitor.user.id,
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
      usageCount: 0,
      version: 1,
      sharing: { visibility: 'private', hasLink: false, embedOrigins: [] },
    });
    expect(copy.body.id).not.toBe(bot.id);
    expect(copy.body.config.systemPrompt).toBeUndefined();
    expect(
      (await t.request<unknown[]>('GET', `/api/bots/${copy.body.id}/files`, { token: visitor.token })).body,
    ).toEqual([]);

    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: owner.token, body: { showPrompt: true } });
    // By id once the link was opened (as the shared chat page does).
    await t.request('GET', `/api/shared/bots/${slug}`, { token: visitor.token });
    const shown = await t.request<Bot>('POST', `/api/explore/bots/${bot.id}/copy`, { token: visitor.token });
    expect(shown.status).toBe(201);
    expect(shown.body.config.systemPrompt).toBe('You are the Zephyr support bot.');

    const stranger = await signUp(t);
    expect((await t.request('POST', `/api/explore/bots/${bot.id}/copy`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('POST', `/api/shared/bots/${'z'.repeat(43)}/copy`, { token: stranger.token })).status).toBe(
      404,
    );
  });
});
