import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@shared/contracts/account';
import { createConversation, streamChat } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('account export and deletion on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind });
  });
  afterAll(() => t.close());

  async function userWithChat() {
    const account = await signUp(t);
    const bot = await createBot(t, account.token, { name: 'Exported Bot' });
    const conversation = await createConversation(t, account.token, bot.id);
    await streamChat(t, `/api/conversations/${conversation.id}/stream`, {
      token: account.token,
      body: { content: 'Hello there' },
    });
    return { ...account, bot, conversation };
  }

  it('needs a signed-in caller', async () => {
    expect((await t.request('GET', '/api/account/export')).status).toBe(401);
    expect((await t.request('DELETE', '/api/account', { body: { password: 'x' } })).status).toBe(401);
  });

  it('exports the caller’s own data as a JSON download, and nobody else’s', async () => {
    const me = await userWithChat();
    const other = await userWithChat();
    const res = await t.request('GET', '/api/account/export', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="botty-export-.+\.json"$/);
    expect(res.body.user).toMatchObject({ id: me.user.id, username: me.username });
    expect(res.body.bots.map((b: { id: number }) => b.id)).toEqual([me.bot.id]);
    expect(res.body.conversations.map((c: { id: number }) => c.id)).toEqual([me.conversation.id]);
    expect(res.body.messages.map((m: { content: string; role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(res.body.activities.length).toBeGreaterThan(0);
    const owners = [...res.body.bots, ...res.body.conversations].map((item: { userId: number }) => item.userId);
    expect(new Set(owners)).toEqual(new Set([me.user.id]));
    expect(res.body.bots.map((b: { id: number }) => b.id)).not.toContain(other.bot.id);
    expect(JSON.stringify(res.body)).not.toMatch(/password|argon2/i);
  });

  it('deletes the account and everything in it only with the right password, leaving others alone', async () => {
    const me = await userWithChat();
    const other = await userWithChat();

    const wrong = await t.request('DELETE', '/api/account', { token: me.token, body: { password: 'not-my-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(ACCOUNT_MESSAGES.wrongPassword);
    expect((await t.request('DELETE', '/api/account', { token: me.token, body: {} })).status).toBe(400);

    const done = await t.request('DELETE', '/api/account', { token: me.token, body: { password: me.password } });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe(ACCOUNT_MESSAGES.deleted);

    expect((await t.request('GET', '/api/auth/user', { token: me.token })).status).toBe(401);
    expect(
      (await t.request('POST', '/api/auth/login', { body: { username: me.username, password: me.password } })).status,
    ).toBe(401);
    const db = t.db.kysely;
    expect(await db.selectFrom('bots').select('id').where('user_id', '=', me.user.id).execute()).toEqual([]);
    expect(await db.selectFrom('conversations').select('id').where('user_id', '=', me.user.id).execute()).toEqual([]);
    expect(
      await db.selectFrom('messages').select('id').where('conversation_id', '=', me.conversation.id).execute(),
    ).toEqual([]);
    expect(await db.selectFrom('activities').select('id').where('user_id', '=', me.user.id).execute()).toEqual([]);

    const theirs = await t.request('GET', `/api/bots/${other.bot.id}`, { token: other.token });
    expect(theirs.status).toBe(200);
    expect(
      (await t.request('GET', `/api/conversations/${other.conversation.id}/messages`, { token: other.token })).body,
    ).toHaveLength(2);
  });
});
