import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { fakeEmbedding } from '../../../../tests/support/fake-llm';
import { uploadSettled } from '../../../../tests/support/files-api';
import { createPgliteDb } from '../../../../tests/support/pglite';
import { signUp, startTestAppWithModel } from '../../../../tests/support/test-app';
import { insertBot, insertReadyKnowledge, insertUserWithBot } from '../../../../tests/support/rows';
import type { Db } from '../../db/database';
import { cosine } from './embeddings';
import { deleteFileRow } from './files.repository';
import { enablePgvector, pgvectorSettled, writesPgvector } from './pgvector-index';
import { nearestPassages } from './vector-index';

const MODEL = { id: 'test/embed', readsUnlabelled: false };
const encode = (text: string) => new TextEncoder().encode(text);
const DIMS = 24;
/** Bots of more passages than this are ranked by the index in these tests (the server's is 150,000). */
const FROM_PASSAGES = 100;

let seed = 7;
const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32 - 0.5;
/** Vectors around a few topic centres that share an offset, as real embeddings are. */
const vectors = (count: number, dims = DIMS) => {
  const centres = Array.from({ length: 8 }, () => Float32Array.from({ length: dims }, () => random() + 0.2));
  return Array.from({ length: count }, (_, i) => Float32Array.from(centres[i % 8]!, (x) => x + random()));
};

const passagesOf = (vs: Float32Array[], name: string) => vs.map((vector, i) => ({ text: `${name} ${i}`, vector }));

/** How often the HNSW index has been scanned, as PostgreSQL's statistics count it. */
async function indexScans(db: Db, dims = DIMS): Promise<number> {
  await sql`select pg_stat_force_next_flush()`.execute(db.kysely);
  const { rows } = await sql<{ scans: number }>`select coalesce(sum(idx_scan), 0)::int as scans
    from pg_stat_user_indexes where indexrelname = ${`file_chunks_embedding_hnsw_${dims}`}`.execute(db.kysely);
  return rows[0]!.scans;
}

async function knowledgeOf(db: Db, pgvector: boolean) {
  const owner = await insertUserWithBot(db.kysely);
  const large = { ...owner, vectors: vectors(300) };
  const small = { userId: owner.userId, botId: await insertBot(db.kysely, owner.userId), vectors: vectors(60) };
  const files: number[] = [];
  for (const bot of [large, small]) {
    for (const [part, slice] of [bot.vectors.slice(0, 30), bot.vectors.slice(30)].entries()) {
      const passages = passagesOf(slice, `bot ${bot.botId} part ${part}`);
      files.push(
        await insertReadyKnowledge(db.kysely, bot, { name: `part-${part}`, model: MODEL.id, passages, pgvector }),
      );
    }
  }
  const idsOf = async (botId: number) => {
    const rows = await db.kysely
      .selectFrom('file_chunks')
      .innerJoin('files', 'files.id', 'file_chunks.file_id')
      .select(['file_chunks.id', 'file_chunks.text', 'files.id as fileId'])
      .where('files.bot_id', '=', botId)
      .where('files.status', '=', 'ready')
      .orderBy('file_chunks.id')
      .execute();
    return rows;
  };
  const nearest = (bot: { userId: number; botId: number }, question: Float32Array, limit = 5) =>
    nearestPassages(
      db,
      { ownerId: bot.userId, userId: bot.userId, botId: bot.botId, conversationId: null },
      MODEL,
      Promise.resolve(question),
      limit,
    );
  const exact = async (bot: { botId: number; vectors: Float32Array[] }, question: Float32Array, limit = 5) => {
    const rows = await idsOf(bot.botId);
    return rows
      .map((r) => {
        const [, , , part, i] = r.text.split(' ');
        return { id: r.id, score: cosine(question, bot.vectors[Number(part) * 30 + Number(i)]!) };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, limit)
      .map((r) => r.id);
  };
  return { large, small, files, nearest, exact, idsOf };
}

/** How many of the bot's passages have their `vector` value. */
async function withVectors(db: Db, botId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(c.embedding_vector)::int as n from file_chunks c
    join files f on f.id = c.file_id where f.bot_id = ${botId}`.execute(db.kysely);
  return rows[0]!.n;
}

describe('pgvector (PostgreSQL with the extension, on PGlite)', () => {
  let close: () => Promise<void> = async () => {};
  afterEach(() => close());

  async function lite() {
    const opened = await createPgliteDb();
    close = opened.drop;
    // A few hundred passages are read whole and sorted faster than through an index, and PostgreSQL knows it: told
    // to avoid both (PGlite is one session), it takes the HNSW index as it does on its own for a bot of 100,000.
    await sql`set enable_seqscan = off`.execute(opened.db.kysely);
    await sql`set enable_bitmapscan = off`.execute(opened.db.kysely);
    await sql`set enable_sort = off`.execute(opened.db.kysely);
    return opened.db;
  }

  it('ranks a bot past the threshold by the index once its vectors are in it, a smaller one by the copies', async () => {
    const db = await lite();
    expect(await enablePgvector(db, { fromPassages: FROM_PASSAGES })).toBe(true);
    // Turned on again, as every instance does as it starts.
    expect(await enablePgvector(db, { fromPassages: FROM_PASSAGES })).toBe(true);
    const { large, small, nearest, exact, idsOf } = await knowledgeOf(db, false);

    // The first question fills the large bot's vectors in, the next has the index built; the copies answer both.
    for (let i = 0; i < 2; i++) {
      const [question] = vectors(1);
      expect(await nearest(large, question!)).toEqual(await exact(large, question!));
      await pgvectorSettled(db);
    }
    expect(await withVectors(db, large.botId)).toBe(300);

    const largeIds = new Set((await idsOf(large.botId)).map((r) => r.id));
    for (const question of vectors(5)) {
      const before = await indexScans(db);
      const found = await nearest(large, question);
      expect(await indexScans(db)).toBeGreaterThan(before);
      expect(found.every((id) => largeIds.has(id))).toBe(true);
      // Approximate, then ranked exactly: at this size the graph's walk finds the exact five.
      expect(found).toEqual(await exact(large, question));
    }

    const [question] = vectors(1);
    const before = await indexScans(db);
    expect(await nearest(small, question!)).toEqual(await exact(small, question!));
    expect(await indexScans(db)).toBe(before);
    await pgvectorSettled(db);
    // The index holds the passages of the bots it ranks only.
    expect(await withVectors(db, small.botId)).toBe(0);
    expect(await writesPgvector(db, { ownerId: large.userId, botId: large.botId }, MODEL)).toBe(true);
    expect(await writesPgvector(db, { ownerId: small.userId, botId: small.botId }, MODEL)).toBe(false);
  }, 60_000);

  it('indexes vectors of over 2,000 dimensions as half-precision ones (up to 4,000)', async () => {
    const db = await lite();
    await enablePgvector(db, { fromPassages: FROM_PASSAGES });
    const owner = await insertUserWithBot(db.kysely);
    const long = vectors(120, 3072);
    await insertReadyKnowledge(db.kysely, owner, { name: 'long', model: MODEL.id, passages: passagesOf(long, 'long') });
    const scope = { ownerId: owner.userId, userId: owner.userId, botId: owner.botId, conversationId: null };
    const nearest = (q: Float32Array) => nearestPassages(db, scope, MODEL, Promise.resolve(q), 5);
    const [question] = vectors(1, 3072);
    const exact = long
      .map((v, i) => ({ i, score: cosine(question!, v) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
      .map((r) => `long ${r.i}`);
    const textsOf = async (ids: number[]) => {
      const rows = await db.kysely.selectFrom('file_chunks').select(['id', 'text']).where('id', 'in', ids).execute();
      return ids.map((id) => rows.find((r) => r.id === id)!.text);
    };
    for (let i = 0; i < 2; i++) {
      await nearest(question!);
      await pgvectorSettled(db);
    }
    const before = await indexScans(db, 3072);
    expect(await textsOf(await nearest(question!))).toEqual(exact);
    expect(await indexScans(db, 3072)).toBeGreaterThan(before);
  }, 60_000);

  it("keeps a large bot's new file in the index and forgets a deleted one", async () => {
    const db = await lite();
    await enablePgvector(db, { fromPassages: FROM_PASSAGES });
    const { large, files, nearest, exact, idsOf } = await knowledgeOf(db, false);
    const [question] = vectors(1);
    for (let i = 0; i < 2; i++) {
      await nearest(large, question!);
      await pgvectorSettled(db);
    }
    const more = vectors(30);
    large.vectors.push(...more);
    await insertReadyKnowledge(db.kysely, large, {
      name: 'part-2',
      model: MODEL.id,
      passages: passagesOf(more, `bot ${large.botId} part 10`),
      pgvector: true,
    });
    let before = await indexScans(db);
    expect(await nearest(large, question!)).toEqual(await exact(large, question!));
    expect(await indexScans(db)).toBeGreaterThan(before);

    const deleted = new Set((await idsOf(large.botId)).filter((r) => r.fileId === files[0]).map((r) => r.id));
    expect((await nearest(large, question!, 40)).some((id) => deleted.has(id))).toBe(true);
    await deleteFileRow(db.kysely, files[0]!);
    before = await indexScans(db);
    const found = await nearest(large, question!, 40);
    expect(await indexScans(db)).toBeGreaterThan(before);
    expect(found.some((id) => deleted.has(id))).toBe(false);
    expect(found).toEqual(await exact(large, question!, 40));
  }, 60_000);
});

describe('pgvector in the server (on PGlite)', () => {
  let filesDir: string;
  afterEach(() => rmSync(filesDir, { recursive: true, force: true }));

  it('is turned on as the server starts; the files of a bot it ranks are written with their vectors', async () => {
    filesDir = mkdtempSync(join(tmpdir(), 'botty-pgvector-'));
    const t = await startTestAppWithModel({
      testDb: await createPgliteDb(),
      pgvectorFromPassages: 0,
      env: { LLM_EMBEDDING_MODEL: 'fake-embed', FILES_DIR: filesDir },
    });
    try {
      const owner = await signUp(t);
      const bot = await createBot(t, owner.token, { capabilities: ['document_analysis'] });
      const upload = async (name: string, text: string) => {
        const file = await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, name, encode(text));
        expect(file.status).toBe('ready');
      };
      const ask = async (question: string) => {
        const scope = { ownerId: owner.user.id as number, userId: owner.user.id as number, botId: bot.id };
        const model = { id: '0/fake-embed', readsUnlabelled: true };
        const q = Promise.resolve(Float32Array.from(fakeEmbedding(question)));
        await nearestPassages(t.db, { ...scope, conversationId: null }, model, q, 5);
        await pgvectorSettled(t.db);
      };

      await upload(
        'kettle.txt',
        'The kettle warranty lasts 24 months.\n\nDescale the kettle every month with vinegar.',
      );
      // Not yet past the threshold as it was read: written without, then filled in at the next question.
      expect(await withVectors(t.db, bot.id)).toBe(0);
      await ask('kettle warranty');
      const filled = await withVectors(t.db, bot.id);
      expect(filled).toBeGreaterThan(0);

      await upload('toaster.txt', 'The toaster has four slots.\n\nEmpty its crumb tray weekly.');
      expect(await withVectors(t.db, bot.id)).toBeGreaterThan(filled);
      await ask('toaster slots');
      const index = `file_chunks_embedding_hnsw_${fakeEmbedding('kettle').length}`;
      const { rows } = await sql<{ valid: boolean | null }>`select (select indisvalid from pg_index
        where indexrelid = to_regclass(${index})) as valid`.execute(t.db.kysely);
      expect(rows[0]!.valid).toBe(true);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe.each(databaseKinds)('pgvector where there is none (%s)', (kind) => {
  it('stays off, and the table as it was', async () => {
    const testDb = await createTestDb(kind);
    try {
      const offered =
        kind === 'postgres' &&
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from pg_available_extensions where name = 'vector'`.execute(testDb.db.kysely)
        ).rows[0]!.n > 0;
      // The tests' shared server has no pgvector; one that had it would be the case above.
      if (offered) return;
      expect(await enablePgvector(testDb.db)).toBe(false);
      const owner = await insertUserWithBot(testDb.db.kysely);
      await insertReadyKnowledge(testDb.db.kysely, owner, {
        name: 'a',
        model: MODEL.id,
        passages: passagesOf(vectors(3), 'a'),
      });
      const row = await testDb.db.kysely.selectFrom('file_chunks').selectAll().executeTakeFirstOrThrow();
      expect(row).not.toHaveProperty('embedding_vector');
    } finally {
      await testDb.drop();
    }
  });
});
