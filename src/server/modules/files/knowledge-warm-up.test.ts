import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { uploadSettled } from '../../../../tests/support/files-api';
import { logSink } from '../../../../tests/support/log-sink';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { signUp, startTestAppWithModel } from '../../../../tests/support/test-app';
import { vectorToBytes } from './embeddings';
import { insertFile, replaceChunks } from './files.repository';
import { warmKnowledgeVectors } from './vector-index';
import { findKnowledgeWithVectors } from './vector-index.repository';

const MODEL = { id: 'test/embed', readsUnlabelled: false };

async function addBot(db: Db, userId: number, name: string, lastUsed: string | null) {
  const now = new Date().toISOString();
  const bot = await db.kysely
    .insertInto('bots')
    .values({
      user_id: userId,
      name,
      description: '',
      purpose: 'answering',
      icon: 'bot',
      active: true,
      capabilities: '[]',
      config: '{}',
      last_used: lastUsed,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return bot.id;
}

/** A ready knowledge file of `passages` passages with vectors of `model`. */
async function addKnowledge(db: Db, owner: { userId: number; botId: number }, passages: number, model = MODEL.id) {
  const now = new Date().toISOString();
  const file = await insertFile(db.kysely, {
    user_id: owner.userId,
    bot_id: owner.botId,
    name: 'notes.txt',
    media_type: 'text/plain',
    size: 0,
    storage_key: `key-${owner.botId}-${model}`,
    status: 'processing',
    created_at: now,
    updated_at: now,
  });
  await replaceChunks(
    db.kysely,
    file.id,
    Array.from({ length: passages }, (_, i) => ({
      text: `passage ${i}`,
      page: null,
      section: null,
      embedding: vectorToBytes(Float32Array.from({ length: 8 }, (_, d) => Math.sin(i + d))),
      embeddingModel: model,
    })),
  );
  await db.kysely.updateTable('files').set({ status: 'ready' }).where('id', '=', file.id).execute();
}

describe.each(databaseKinds)('loading the knowledge vectors ahead (%s)', (kind) => {
  let testDb: TestDb;
  afterEach(() => testDb.drop());

  it('loads every bot with vectors of the model, the most recently used first, and stops when told', async () => {
    testDb = await createTestDb(kind);
    const { db } = testDb;
    const first = await insertUserWithBot(db.kysely);
    await db.kysely.updateTable('bots').set({ last_used: '2026-01-01T00:00:00.000Z' }).execute();
    const recent = await addBot(db, first.userId, 'Recent', '2026-03-01T00:00:00.000Z');
    const unused = await addBot(db, first.userId, 'Unused', null);
    const otherModel = await addBot(db, first.userId, 'Other model', '2026-04-01T00:00:00.000Z');
    await addKnowledge(db, first, 3);
    await addKnowledge(db, { userId: first.userId, botId: recent }, 2);
    await addKnowledge(db, { userId: first.userId, botId: unused }, 4);
    await addKnowledge(db, { userId: first.userId, botId: otherModel }, 5, 'another/embed');

    expect(await findKnowledgeWithVectors(db.kysely, MODEL)).toEqual([
      { ownerId: first.userId, botId: recent, passages: 2 },
      { ownerId: first.userId, botId: first.botId, passages: 3 },
      { ownerId: first.userId, botId: unused, passages: 4 },
    ]);
    expect(await warmKnowledgeVectors(db, MODEL, AbortSignal.abort())).toBe(0);
    expect(await warmKnowledgeVectors(db, MODEL, new AbortController().signal)).toBe(3);
  });
});

describe('the server loading them once ready', () => {
  const dir = mkdtempSync(join(tmpdir(), 'botty-warm-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the knowledge of the bots with files when it starts again on the same data', async () => {
    const env = { LLM_EMBEDDING_MODEL: 'fake-embed', FILES_DIR: dir };
    const before = await startTestAppWithModel({ env });
    const owner = await signUp(before);
    const bot = await createBot(before, owner.token, { capabilities: ['document_analysis'] });
    await uploadSettled(before, owner.token, `/api/bots/${bot.id}/files`, 'kettle.txt', Buffer.from('The kettle.'));
    await before.close({ keepDb: true });

    const logs = logSink();
    const after = await startTestAppWithModel({
      env: { ...env, LOG_LEVEL: 'info' },
      testDb: before.testDb,
      warmKnowledge: true,
      logStream: logs.stream,
    });
    try {
      await expect.poll(() => logs.entries().find((entry) => entry.msg === 'knowledge vectors loaded')?.bots).toBe(1);
    } finally {
      await after.close();
    }
  });
});
