import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_MESSAGES } from '@shared/contracts/shares';
import { expectError, manualClock, startCheckedApp } from '../../../../tests/support/auth-api';
import { createConversation, messagesOf, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { uploadSettled } from '../../../../tests/support/files-api';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { hashToken } from '../../lib/tokens';

const HOUR = 60 * 60 * 1000;
const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';

describe.each(databaseKinds)('conversation share links, on %s', (kind) => {
  let t: TestApp;
  const clock = manualClock();
  const dir = mkdtempSync(join(tmpdir(), 'botty-shares-'));
  beforeAll(async () => {
    // Offline: replies are the honest offline notice, with the passages they would have used as sources.
    t = await startCheckedApp({ kind, clock, env: { FILES_DIR: dir }, fileJobs: { pollMs: 50 }, sweepIntervalMs: 50 });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A conversation with one exchange whose reply cites a knowledge file. */
  async function chatted() {
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, {
      name: 'Widget helper',
      icon: 'book',
      capabilities: ['document_analysis'],
    });
    await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, 'manual.txt', new TextEncoder().encode(FACT));
    const conversation = await createConversation(t, owner.token, bot.id);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: owner.token,
      body: { content: 'How often is the Zephyr widget recalibrated?' },
    });
    return { owner, bot, conversation };
  }

  const share = (token: string, conversationId: number, body: object = {}) =>
    t.request('POST', `/api/conversations/${conversationId}/share`, { token, body });
  const open = (token: string) => t.request('GET', `/api/shares/${token}`);

  it('answers anyone with the exact snapshot, and nothing that identifies anyone', async () => {
    const { owner, conversation } = await chatted();
    const messages = await messagesOf(t, owner.token, conversation.id);
    // The conversation is renamed after its first reply, off the reply's path: the snapshot is taken once it is.
    const titleNow = async () =>
      (await t.request<{ title: string }>('GET', `/api/conversations/${conversation.id}`, { token: owner.token })).body
        .title;
    await expect.poll(titleNow).not.toBe('Conversation with Widget helper');
    const title = await titleNow();
    const link = await share(owner.token, conversation.id);
    expect(link.status).toBe(201);
    expect(link.body).toEqual({
      token: expect.stringMatching(/^[\w-]{43}$/),
      url: `/s/${link.body.token}`,
      sharedAt: clock.now().toISOString(),
      expiresAt: null,
    });

    const snapshot = await open(link.body.token);
    expect(snapshot.status).toBe(200);
    expect(snapshot.headers.get('x-robots-tag')).toBe('noindex');
    expect(snapshot.body).toEqual({
      botName: 'Widget helper',
      botIcon: 'book',
      title,
      sharedAt: link.body.sharedAt,
      expiresAt: null,
      messages: messages.map((m) => ({
        role: m.role,
        content: m.content,
        createdAt: m.createdAt,
        sources: m.sources.map(({ fileId: _, ...s }) => s),
      })),
    });
    expect(snapshot.body.messages[1].sources[0]).toMatchObject({ n: 1, kind: 'file', title: 'manual.txt' });
    const text = JSON.stringify(snapshot.body);
    expect(text).not.toMatch(/"\w*[iI]d"\s*:/);
    expect(text).not.toContain(owner.email);
    expect(text).not.toContain(owner.username);

    // Later messages do not reach the link; the token itself is stored only as a hash.
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: owner.token,
      body: { content: 'And afterwards?' },
    });
    expect((await open(link.body.token)).body).toEqual(snapshot.body);
    const row = await t.db.kysely.selectFrom('conversation_shares').selectAll().executeTakeFirstOrThrow();
    const rows = await t.db.kysely.selectFrom('conversation_shares').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(link.body.token));
    expect(JSON.stringify(row)).not.toContain(link.body.token);
  });

  it('is revocable at once, replaced by a new link, and only by its owner', async () => {
    const { owner, conversation } = await chatted();
    const stranger = await signUp(t);
    const first = await share(owner.token, conversation.id);
    expect((await share(stranger.token, conversation.id)).status).toBe(404);
    expect(
      (await t.request('DELETE', `/api/conversations/${conversation.id}/share`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await open(first.body.token)).status).toBe(200);

    const second = await share(owner.token, conversation.id);
    expectError(await open(first.body.token), 404, SHARE_MESSAGES.notFound);
    expect((await open(second.body.token)).status).toBe(200);
    const status = await t.request('GET', `/api/conversations/${conversation.id}/share`, { token: owner.token });
    expect(status.body).toEqual({ share: { sharedAt: second.body.sharedAt, expiresAt: null } });

    const revoked = await t.request('DELETE', `/api/conversations/${conversation.id}/share`, { token: owner.token });
    expect(revoked.body).toEqual({ message: SHARE_MESSAGES.revoked });
    expectError(await open(second.body.token), 404, SHARE_MESSAGES.notFound);
    expect(
      (await t.request('GET', `/api/conversations/${conversation.id}/share`, { token: owner.token })).body,
    ).toEqual({
      share: null,
    });
    expect(
      (await t.request('DELETE', `/api/conversations/${conversation.id}/share`, { token: owner.token })).status,
    ).toBe(404);
  });

  it('expires: the link answers 404 from its expiry on', async () => {
    const { owner, conversation } = await chatted();
    const expiresAt = new Date(clock.now().getTime() + HOUR).toISOString();
    const link = await share(owner.token, conversation.id, { expiresAt });
    expect(link.body.expiresAt).toBe(expiresAt);
    expect((await open(link.body.token)).body.expiresAt).toBe(expiresAt);
    clock.advance(HOUR);
    expectError(await open(link.body.token), 404, SHARE_MESSAGES.notFound);
    // The expired snapshot is then dropped, not kept as a copy of the conversation.
    const stored = () =>
      t.db.kysely
        .selectFrom('conversation_shares')
        .select('id')
        .where('conversation_id', '=', conversation.id)
        .execute();
    await expect.poll(async () => (await stored()).length).toBe(0);
    const past = await share(owner.token, conversation.id, { expiresAt });
    expectError(past, 400, SHARE_MESSAGES.expiresAtPast);
  });

  it('refuses to share a conversation with nothing in it, and goes when the conversation does', async () => {
    const { owner, conversation } = await chatted();
    const bot = await createBot(t, owner.token);
    const empty = await createConversation(t, owner.token, bot.id);
    expectError(await share(owner.token, empty.id), 409, SHARE_MESSAGES.nothingToShare);
    const link = await share(owner.token, conversation.id);
    expect((await t.request('DELETE', `/api/conversations/${conversation.id}`, { token: owner.token })).status).toBe(
      200,
    );
    expect((await open(link.body.token)).status).toBe(404);
    expect((await open('not-a-token')).status).toBe(404);
  });
});

describe('conversation share links under load', () => {
  it('are rate limited per address', async () => {
    const t = await startCheckedApp({ env: { RATE_LIMIT_SHARES_PER_MINUTE: '2' } });
    try {
      for (let i = 0; i < 2; i++) expect((await t.request('GET', '/api/shares/unknown')).status).toBe(404);
      const limited = await t.request('GET', '/api/shares/unknown');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
