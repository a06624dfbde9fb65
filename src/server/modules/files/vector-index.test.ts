import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { fakeEmbedding } from '../../../../tests/support/fake-llm';
import { uploadSettled as upload } from '../../../../tests/support/files-api';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { signUp } from '../../../../tests/support/test-app';
import { startTwoInstances, type TwoInstances } from '../../../../tests/support/two-instances';
import { cosine, vectorToBytes } from './embeddings';
import { deleteFileRow, insertFile, replaceChunks } from './files.repository';
import { searchChunks } from './retrieval';
import { nearestPassages } from './vector-index';
import { RERANK } from './vector-ranking';

const MODEL = { id: 'test/embed', readsUnlabelled: false };

/** A seeded generator, so every run ranks the same vectors. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

/** Vectors around a few topic centres that share an offset, as real embeddings are. */
function vectors(count: number, dims: number, seed: number): Float32Array[] {
  const rand = random(seed);
  const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: dims }, () => rand() + 0.2));
  return Array.from({ length: count }, (_, i) => Float32Array.from(centres[i % 20]!, (x) => x + rand()));
}

describe.each(databaseKinds)('vector index (%s)', (kind) => {
  let testDb: TestDb;
  afterEach(() => testDb.drop());

  async function seeded(files: Float32Array[][]) {
    testDb = await createTestDb(kind);
    const db = testDb.db;
    const owner = await insertUserWithBot(db.kysely);
    const passages: { id: number; fileId: number; vector: Float32Array }[] = [];
    for (const [f, fileVectors] of files.entries()) {
      const now = new Date().toISOString();
      const file = await insertFile(db.kysely, {
        user_id: owner.userId,
        bot_id: owner.botId,
        name: `part-${f}.txt`,
        media_type: 'text/plain',
        size: 0,
        storage_key: `key-${f}`,
        status: 'processing',
        created_at: now,
        updated_at: now,
      });
      const chunks = fileVectors.map((v, i) => ({
        text: `passage ${f}-${i}`,
        page: null,
        section: null,
        embedding: vectorToBytes(v),
        embeddingModel: MODEL.id,
      }));
      await replaceChunks(db.kysely, file.id, chunks);
      await db.kysely.updateTable('files').set({ status: 'ready' }).where('id', '=', file.id).execute();
      const rows = await db.kysely
        .selectFrom('file_chunks')
        .select(['id', 'ord'])
        .where('file_id', '=', file.id)
        .execute();
      for (const r of rows) passages.push({ id: r.id, fileId: file.id, vector: fileVectors[r.ord]! });
    }
    const scope = { ownerId: owner.userId, userId: owner.userId, botId: owner.botId, conversationId: null };
    const nearest = (question: Float32Array, limit = 40) =>
      nearestPassages(db, scope, MODEL, Promise.resolve(question), limit);
    const exact = (question: Float32Array, among = passages, limit = 40) =>
      among
        .map((p) => ({ id: p.id, score: cosine(question, p.vector) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, limit)
        .map((p) => p.id);
    return { db, passages, nearest, exact };
  }

  it('ranks as the exact method does: every passage of a small bot, and the top five of thousands', async () => {
    const small = await seeded([vectors(RERANK - 10, 48, 1)]);
    for (const question of vectors(5, 48, 2)) {
      expect(await small.nearest(question)).toEqual(small.exact(question));
    }
    await testDb.drop();

    const large = await seeded([vectors(1500, 64, 3), vectors(1500, 64, 4)]);
    for (const question of vectors(5, 64, 5)) {
      expect((await large.nearest(question, 5)).sort()).toEqual(large.exact(question, large.passages, 5).sort());
    }
  }, 60_000);

  it('forgets the passages of a deleted file at the next question', async () => {
    const { db, passages, nearest, exact } = await seeded([vectors(100, 32, 6), vectors(100, 32, 7)]);
    const [question] = vectors(1, 32, 8);
    expect(await nearest(question!)).toEqual(exact(question!));
    const gone = passages[0]!.fileId;
    await deleteFileRow(db.kysely, gone);
    const left = passages.filter((p) => p.fileId !== gone);
    expect(await nearest(question!)).toEqual(exact(question!, left));
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('vector index on two instances sharing PostgreSQL', () => {
  let two: TwoInstances;
  let filesDir: string;
  afterEach(async () => {
    await two.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it('sees on one instance the files added and deleted through the other', async () => {
    filesDir = mkdtempSync(join(tmpdir(), 'botty-vectors-'));
    two = await startTwoInstances({ env: { LLM_EMBEDDING_MODEL: 'fake-embed', FILES_DIR: filesDir } });
    const { a, b } = two;
    const owner = await signUp(a);
    const bot = await createBot(a, owner.token, { capabilities: ['document_analysis'] });
    const add = (name: string, text: string) =>
      upload(a, owner.token, `/api/bots/${bot.id}/files`, name, new TextEncoder().encode(text));
    const model = { id: '0/fake-embed', readsUnlabelled: true };
    const scope = {
      ownerId: owner.user.id as number,
      userId: owner.user.id as number,
      botId: bot.id,
      conversationId: null,
    };
    const nearestOnB = async (question: string) => {
      const ids = await nearestPassages(
        b.db,
        scope,
        model,
        Promise.resolve(Float32Array.from(fakeEmbedding(question))),
        1,
      );
      const rows = await b.db.kysely
        .selectFrom('file_chunks')
        .select('file_id')
        .where('id', 'in', [0, ...ids])
        .execute();
      return rows.map((r) => r.file_id);
    };

    const kettle = await add('kettle.txt', 'The kettle warranty lasts 24 months.');
    expect(await nearestOnB('kettle warranty months')).toEqual([kettle.id]);
    const descale = await add('descale.txt', 'Descale the kettle every month with vinegar.');
    expect(await nearestOnB('descale vinegar')).toEqual([descale.id]);

    await a.request('DELETE', `/api/files/${kettle.id}`, { token: owner.token });
    expect(await nearestOnB('kettle warranty months')).toEqual([descale.id]);
    const found = await searchChunks(
      { db: b.db, embeddings: null },
      { userId: owner.user.id as number, botId: bot.id, query: 'kettle warranty' },
    );
    expect(found.map((p) => p.fileName)).toEqual(['descale.txt']);
  }, 60_000);
});
