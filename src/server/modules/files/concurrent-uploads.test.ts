import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotVersion } from '@shared/contracts/bot-versions';
import type { Bot } from '@shared/contracts/bots';
import { FILE_MESSAGES } from '@shared/contracts/files';
import { systemClock } from '../../lib/clock';
import { claimNextFile } from './files.repository';
import { addKnowledgeFile, type FilesDeps } from './files.service';
import { localStorage, type FileStorage } from './storage';
import { createConversation } from '../../../../tests/support/chat-api';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { appsWithFiles, uploadFile } from '../../../../tests/support/files-api';
import { createBot } from '../../../../tests/support/factories';
import type { TestApp } from '../../../../tests/support/test-app';
import { signUp } from '../../../../tests/support/test-app';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { until } from '../../../../tests/support/wait';

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

/** The bytes in a storage directory: a refused upload must not have left any. */
const bytesOnDisk = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);

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
    expect(bytesOnDisk(t.config.files.dir)).toBe(300 * KB);
  });

  it('never take a bot past its file limit, and its versions record the knowledge set, the first file turning on documents', async () => {
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

    // Uploads that finish together may share a version: one per change of the knowledge set as each one saw it.
    const versions = await t.request<{ number: number; changed: string[] }[]>('GET', `/api/bots/${bot.id}/versions`, {
      token,
    });
    const current = (await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body;
    expect(current.capabilities).toEqual(['document_analysis']);
    expect(versions.body.map((v) => v.number)).toEqual(
      Array.from({ length: current.version }, (_, i) => current.version - i),
    );
    expect(versions.body.filter((v) => v.changed.includes('capabilities'))).toHaveLength(1);
    expect(versions.body.slice(0, -1).every((v) => v.changed.includes('knowledge'))).toBe(true);
    const latest = await t.request<BotVersion>('GET', `/api/bots/${bot.id}/versions/${current.version}`, { token });
    expect(latest.body.snapshot.knowledge!.map((f) => f.fileId)).toEqual(accepted);
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

describe.each(databaseKinds)('an upload while its bytes are stored (%s)', (kind) => {
  let testDb: TestDb;
  let dir: string;
  beforeEach(async () => {
    testDb = await createTestDb(kind);
    dir = mkdtempSync(join(tmpdir(), 'botty-storing-'));
  });
  afterEach(async () => {
    await testDb.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const depsWith = (storage: FileStorage): FilesDeps => ({
    db: testDb.db,
    clock: systemClock,
    storage,
    limits: { documentBytes: 1000, imageBytes: 1000, filesPerBot: 3, bytesPerUser: 1000 },
    jobs: { wake: () => {} },
  });
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it('is not read by the job runner before its bytes are there', async () => {
    const { userId, botId } = await insertUserWithBot(testDb.db.kysely);
    let storeBytes = () => {};
    const bytesArrive = new Promise<void>((resolve) => (storeBytes = resolve));
    const disk = localStorage(dir);
    const slowDisk: FileStorage = { ...disk, put: async (...args) => (await bytesArrive, disk.put(...args)) };
    const upload = addKnowledgeFile(depsWith(slowDisk), userId, botId, { name: 'a.txt', bytes: document(1, 10) });

    await until(async () => (await testDb.db.kysely.selectFrom('files').select('id').execute()).length === 1, {
      what: 'the reserved row',
    });
    expect(await claimNextFile(testDb.db, new Date().toISOString(), inAnHour())).toBeUndefined();
    storeBytes();
    const file = await upload;
    expect(await claimNextFile(testDb.db, new Date().toISOString(), inAnHour())).toMatchObject({ id: file.id });
  });

  it('leaves no file when its bytes cannot be stored', async () => {
    const { userId, botId } = await insertUserWithBot(testDb.db.kysely);
    // A directory that is a file: every write under it fails, as a full or read-only disk would.
    writeFileSync(join(dir, 'not-a-directory'), '');
    const broken = localStorage(join(dir, 'not-a-directory'));
    const upload = { name: 'a.txt', bytes: document(1, 10) };
    await expect(addKnowledgeFile(depsWith(broken), userId, botId, upload)).rejects.toThrow();
    expect(await testDb.db.kysely.selectFrom('files').select('id').execute()).toEqual([]);
  });
});
