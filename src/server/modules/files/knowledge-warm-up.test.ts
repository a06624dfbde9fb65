import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { uploadSettled } from '../../../../tests/support/files-api';
import { logSink } from '../../../../tests/support/log-sink';
import { insertBot, insertReadyKnowledge, insertUserWithBot } from '../../../../tests/support/rows';
import { signUp, startTestAppWithModel } from '../../../../tests/support/test-app';
import { nearestPassages, warmKnowledgeVectors } from './vector-index';
import { findKnowledgeWithVectors } from './vector-index.repository';

const MODEL = { id: 'test/embed', readsUnlabelled: false };

/** A ready knowledge file of `passages` passages with vectors of `model`. */
const addKnowledge = (db: Db, owner: { userId: number; botId: number }, passages: number, model = MODEL.id) =>
  insertReadyKnowledge(db.kysely, owner, {
    name: 'notes.txt',
    model,
    passages: Array.from({ length: passages }, (_, i) => ({
      text: `passage ${i}`,
      vector: Float32Array.from({ length: 8 }, (_, d) => Math.sin(i + d)),
    })),
  });

describe.each(databaseKinds)('loading the knowledge vectors ahead (%s)', (kind) => {
  let testDb: TestDb;
  afterEach(() => testDb.drop());

  it('loads every bot with vectors of the model, the most recently used first, and stops when told', async () => {
    testDb = await createTestDb(kind);
    const { db } = testDb;
    const first = await insertUserWithBot(db.kysely);
    await db.kysely.updateTable('bots').set({ last_used: '2026-01-01T00:00:00.000Z' }).execute();
    const recent = await insertBot(db.kysely, first.userId, { name: 'Recent', lastUsed: '2026-03-01T00:00:00.000Z' });
    const unused = await insertBot(db.kysely, first.userId, { name: 'Unused' });
    const otherModel = await insertBot(db.kysely, first.userId, { lastUsed: '2026-04-01T00:00:00.000Z' });
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

describe('loading them ahead on SQLite, whose reads do not wait', () => {
  let testDb: TestDb;
  afterEach(() => testDb.drop());

  it('stops between two batches of a bot when told, and leaves the bot to load with its question', async () => {
    testDb = await createTestDb('sqlite');
    const { db } = testDb;
    const owner = await insertUserWithBot(db.kysely);
    // Three batches of vectors: the first turn the load gives up is after the first.
    await addKnowledge(db, owner, 2500);
    const stop = new AbortController();
    const warming = warmKnowledgeVectors(db, MODEL, stop.signal);
    setImmediate(() => stop.abort());
    expect(await warming).toBe(0);
    const scope = { ...owner, ownerId: owner.userId, conversationId: null };
    const question = Float32Array.from({ length: 8 }, (_, d) => Math.sin(7 + d));
    expect(await nearestPassages(db, scope, MODEL, Promise.resolve(question), 1)).toHaveLength(1);
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
