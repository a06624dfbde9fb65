import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { openDatabase } from '../../db/dialect';
import { createTestDb, databaseKinds, type TestDb } from '../../../../tests/support/databases';
import { claimNextFile, insertFile } from './files.repository';

const NOW = '2025-01-01T00:00:00.000Z';
const LATER = '2025-01-01T00:10:00.000Z';

describe.each(databaseKinds)('claiming file jobs (%s)', (kind) => {
  let testDb: TestDb;
  const others: Db[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((db) => db.close()));
    await testDb.drop();
  });

  async function seed(count: number) {
    testDb = await createTestDb(kind);
    const { kysely } = testDb.db;
    const user = await kysely
      .insertInto('users')
      .values({
        username: 'u',
        email: 'u@example.com',
        password_hash: 'x',
        role: 'user',
        full_name: null,
        profile_image_url: null,
        email_verified: true,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < count; i++) {
      await insertFile(kysely, {
        user_id: user.id,
        bot_id: null,
        conversation_id: null,
        name: `f${i}.txt`,
        media_type: 'text/plain',
        size: 1,
        storage_key: `u${user.id}/k${i}`,
        status: 'processing',
        error: null,
        created_at: NOW,
        updated_at: NOW,
      });
    }
  }

  it('gives each waiting file to one instance only, and a file whose lease expired to the next', async () => {
    await seed(3);
    // Three instances, each with its own connection pool, claim at the same moment.
    const instances = [testDb.db, openDatabase(testDb.target), openDatabase(testDb.target)];
    others.push(...instances.slice(1));
    const claimed = await Promise.all(instances.map((db) => claimNextFile(db, NOW, LATER)));
    const ids = claimed.map((f) => f?.id);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(claimed.every((f) => f!.attempts === 1 && f!.lease_until !== null)).toBe(true);

    expect(await claimNextFile(testDb.db, NOW, LATER)).toBeUndefined();
    // Once the leases have passed (their holder died), the files are claimable again.
    const retaken = await claimNextFile(testDb.db, '2025-01-01T00:20:00.000Z', '2025-01-01T00:30:00.000Z');
    expect(retaken).toMatchObject({ id: Math.min(...(ids as number[])), attempts: 2 });
  });
});
