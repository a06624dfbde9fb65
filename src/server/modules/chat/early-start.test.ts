import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversation, deltasOf, messagesOf, openChatStream } from '../../../../tests/support/chat-api';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

// On PostgreSQL the model is asked while the user message is being saved (beginReply); SQLite saves first.
describe.runIf(process.env.TEST_DATABASE_URL)('a reply asked for while its message is saved, on postgres', () => {
  let fake: FakeLlm;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({ kind: 'postgres', env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'fake-model' } });
    token = (await signUp(t)).token;
    // A real refusal from the database, after the reads: this message cannot be saved.
    await sql`create function refuse_message() returns trigger language plpgsql as $$ begin
        raise exception 'this message cannot be saved';
      end $$`.execute(t.db.kysely);
    await sql`create trigger refuse_message before insert on messages for each row
      when (new.content = 'cannot be saved') execute function refuse_message()`.execute(t.db.kysely);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the saved message first, then the reply, with what the model was asked', async () => {
    const bot = await createBot(t, token, { name: 'Quick' });
    const conversation = await createConversation(t, token, bot.id);
    fake.enqueue({ text: 'One two three', chunks: ['One ', 'two ', 'three'] });
    const stream = await openChatStream(t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'Count to three' },
    });
    const events = await stream.finished;
    expect(events.map((e) => e.event).filter((e, i, all) => e !== all[i - 1])).toEqual([
      'user-message',
      'start',
      'delta',
      'done',
    ]);
    expect(deltasOf(events).join('')).toBe('One two three');
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Count to three' });
    const saved = await messagesOf(t, token, conversation.id);
    expect(saved.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Count to three', 'complete'],
      ['assistant', 'One two three', 'complete'],
    ]);
  });

  it('refuses a message that cannot be saved, stops the model call already made, and frees the conversation', async () => {
    const bot = await createBot(t, token, { name: 'Careful' });
    const conversation = await createConversation(t, token, bot.id);
    const path = `/api/conversations/${conversation.id}/stream`;
    const asked = fake.requests.length;
    // The plan for any model call made for it, not queued: the save may also fail before the call is made (the
    // reply resolves its model first), and a queued plan would then answer the next question.
    fake.setReply({ text: 'Too late', chunks: ['Too ', 'late'], chunkDelayMs: 3_000 });

    const res = await fetch(t.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'cannot be saved' }),
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('application/json');
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await sleep(50)) {
      if (fake.requests.slice(asked).every((r) => r.aborted)) break;
    }
    expect(fake.requests.slice(asked).every((r) => r.aborted)).toBe(true);
    expect(await messagesOf(t, token, conversation.id)).toEqual([]);

    fake.setReply('Saved this time.');
    const next = await openChatStream(t, path, { token, body: { content: 'Hello' } });
    expect(deltasOf(await next.finished).join('')).toBe('Saved this time.');
  });
});
