import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { insertUserWithBot } from '../../../../tests/support/rows';
import { insertFile, replaceChunks } from './files.repository';

/** A file's passages written in statements of 50, two at a time on PostgreSQL (decision 0069). */
describe.each(databaseKinds)("a file's passages written (%s)", (kind) => {
  let testDb: TestDb;
  afterEach(() => testDb.drop());

  const atOnce = kind === 'postgres' ? 2 : 1;
  const passages = (count: number, word: string) =>
    Array.from({ length: count }, (_, i) => ({ text: `${word} ${i}`, page: null, section: null }));

  async function processingFile() {
    testDb = await createTestDb(kind);
    const db = testDb.db.kysely;
    const owner = await insertUserWithBot(db);
    const now = new Date().toISOString();
    const file = await insertFile(db, {
      user_id: owner.userId,
      bot_id: owner.botId,
      name: 'notes.txt',
      media_type: 'text/plain',
      size: 0,
      storage_key: 'notes',
      status: 'processing',
      created_at: now,
      updated_at: now,
    });
    const written = () =>
      db.selectFrom('file_chunks').select(['id', 'ord', 'text']).where('file_id', '=', file.id).orderBy('id').execute();
    return { db, file, written };
  }

  it('are each written once, numbered in their order, and replace what the file had', async () => {
    const { db, file, written } = await processingFile();

    // An earlier run's passages, then the file read again.
    await replaceChunks(db, file.id, passages(30, 'old'), { atOnce });
    await replaceChunks(db, file.id, passages(260, 'new'), { atOnce });

    const rows = await written();
    expect(rows.map((r) => r.ord)).toEqual(Array.from({ length: 260 }, (_, i) => i));
    expect(rows.map((r) => r.text)).toEqual(passages(260, 'new').map((p) => p.text));
  });

  it.runIf(kind === 'postgres')('stop being written when one statement fails, before the failure is told', async () => {
    const { db, file, written } = await processingFile();
    const bad = passages(500, 'word');
    // PostgreSQL refuses a NUL in text: the third statement fails while the second may still be writing.
    bad[120] = { ...bad[120]!, text: 'a \u0000 b' };
    await expect(replaceChunks(db, file.id, bad, { atOnce })).rejects.toThrow();
    const after = (await written()).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await written()).length).toBe(after);
    expect(after).toBeLessThan(500);
  });
});
