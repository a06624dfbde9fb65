import { describe, expect, it } from 'vitest';
import { FILE_MESSAGES } from '@shared/contracts/files';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { appsWithFiles, uploadFile } from '../../../../tests/support/files-api';
import { createBot } from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';
import { signUp } from '../../../../tests/support/test-app';

const KB = 1024;
const document = (n: number, bytes: number) => new TextEncoder().encode(`${n} `.padEnd(bytes, 'x'));

/** What the database holds for the user: how many files, and their bytes. */
async function stored(t: TestApp, where: { botId?: number; conversationId?: number } = {}) {
  let query = t.db.kysely.selectFrom('files').select(['id', 'size']);
  if (where.botId !== undefined) query = query.where('bot_id', '=', where.botId);
  if (where.conversationId !== undefined) query = query.where('conversation_id', '=', where.conversationId);
  const rows = await query.orderBy('id').execute();
  return { ids: rows.map((r) => r.id), bytes: rows.reduce((sum, r) => sum + Number(r.size), 0) };
}

/** Sends the uploads all at once; each answer is 201 or 413 with `refusal`, and the 201s are what is stored. */
async function uploadAtOnce(
  t: TestApp,
  token: string,
  pathOf: (i: number) => string,
  bodies: Uint8Array[],
  refusal: string,
) {
  const answers = await Promise.all(bodies.map((bytes, i) => uploadFile(t, token, pathOf(i), `doc-${i}.txt`, bytes)));
  for (const answer of answers) {
    expect([201, 413]).toContain(answer.status);
    if (answer.status === 413) expect(answer.body.message).toBe(refusal);
  }
  return answers.filter((a) => a.status === 201).map((a) => a.body.id);
}

describe.each(databaseKinds)('simultaneous uploads (%s)', (kind) => {
  const { start } = appsWithFiles(kind);

  it('never take a user past the byte quota, across bots', async () => {
    const t = await start({ env: { FILES_MAX_BYTES_PER_USER: String(300 * KB), FILES_MAX_PER_BOT: '100' } });
    const { token } = await signUp(t);
    const bots = [await createBot(t, token), await createBot(t, token)];
    const bodies = Array.from({ length: 10 }, (_, i) => document(i, 100 * KB));
    const pathOf = (i: number) => `/api/bots/${bots[i % 2]!.id}/files`;
    const accepted = await uploadAtOnce(t, token, pathOf, bodies, FILE_MESSAGES.quotaExceeded(300 * KB));
    expect(accepted).toHaveLength(3);
    expect(await stored(t)).toEqual({ ids: accepted.sort((a, b) => a - b), bytes: 300 * KB });
  });

  it("never take a bot past its file limit, and each one's first file writes one version", async () => {
    const t = await start({ env: { FILES_MAX_PER_BOT: '3' } });
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: [] });
    const bodies = Array.from({ length: 10 }, (_, i) => document(i, 100));
    const accepted = await uploadAtOnce(
      t,
      token,
      () => `/api/bots/${bot.id}/files`,
      bodies,
      FILE_MESSAGES.tooManyFiles(3),
    );
    expect(accepted).toHaveLength(3);
    expect((await stored(t, { botId: bot.id })).ids).toEqual(accepted.sort((a, b) => a - b));

    const versions = await t.request<{ number: number; changed: string[] }[]>('GET', `/api/bots/${bot.id}/versions`, {
      token,
    });
    expect(versions.body.map((v) => v.number)).toEqual([2, 1]);
    expect(versions.body[0]!.changed).toEqual(['capabilities']);
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token })).body).toMatchObject({
      version: 2,
      capabilities: ['document_analysis'],
    });
  });

  it('never take a conversation past its attachment limit', async () => {
    const t = await start({ env: { FILES_MAX_PER_BOT: '2' } });
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const conversation = await createConversation(t, token, bot.id);
    const bodies = Array.from({ length: 10 }, (_, i) => document(i, 100));
    const path = () => `/api/conversations/${conversation.id}/files`;
    const accepted = await uploadAtOnce(t, token, path, bodies, FILE_MESSAGES.tooManyAttachments(2));
    expect(accepted).toHaveLength(2);
    expect((await stored(t, { conversationId: conversation.id })).ids).toEqual(accepted.sort((a, b) => a - b));
  });

  it('simultaneous changes to one bot each write a version of its own number', async () => {
    const t = await start();
    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request('PATCH', `/api/bots/${bot.id}`, { token, body: { description: `Change ${i}` } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const versions = await t.request<{ number: number }[]>('GET', `/api/bots/${bot.id}/versions`, { token });
    expect(versions.body.map((v) => v.number)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token })).body).toMatchObject({ version: 11 });
  });
});
