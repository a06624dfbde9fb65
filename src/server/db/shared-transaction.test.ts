import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../../tests/support/databases';
import type { Executor } from './database';
import { inSharedTransaction, SHARED_TRANSACTION_MAX_UNITS } from './shared-transaction';

const addUser = (db: Executor, username: string) =>
  db
    .insertInto('users')
    .values({
      username,
      email: `${username}@example.com`,
      password_hash: 'not a hash',
      full_name: '',
      role: 'user',
      email_verified: false,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    })
    .returning('username')
    .executeTakeFirstOrThrow();

const usernames = async (db: Executor) =>
  (await db.selectFrom('users').select('username').orderBy('username').execute()).map((u) => u.username);

describe('inSharedTransaction (SQLite)', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('sqlite');
  });
  afterAll(() => t.drop());

  it('commits work started in the same turn together, each with its own result', async () => {
    const db = t.db.kysely;
    const results = await Promise.all(
      ['ada', 'alan', 'grace'].map((name) => inSharedTransaction(db, (tx) => addUser(tx, name))),
    );
    expect(results.map((r) => r.username)).toEqual(['ada', 'alan', 'grace']);
    expect(await usernames(db)).toEqual(['ada', 'alan', 'grace']);
  });

  it('rolls back only the work that failed, and gives its caller the error', async () => {
    const db = t.db.kysely;
    const outcomes = await Promise.allSettled([
      inSharedTransaction(db, (tx) => addUser(tx, 'edsger')),
      inSharedTransaction(db, async (tx) => {
        await addUser(tx, 'half-done');
        await addUser(tx, 'ada'); // taken: unique username
      }),
      inSharedTransaction(db, (tx) => addUser(tx, 'barbara')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await usernames(db)).toEqual(['ada', 'alan', 'barbara', 'edsger', 'grace']);
  });

  it('commits a burst in transactions of a bounded size, so the first callers do not wait for all of it', async () => {
    const db = t.db.kysely;
    const burst = SHARED_TRANSACTION_MAX_UNITS * 2 + 6;
    const events: string[] = [];
    await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        inSharedTransaction(db, (tx) => {
          events.push(`start ${i}`);
          return addUser(tx, `burst-${i}`);
        }).then(() => events.push(`done ${i}`)),
      ),
    );
    expect(events.indexOf('done 0')).toBeLessThan(events.indexOf(`start ${SHARED_TRANSACTION_MAX_UNITS}`));
    expect(events.indexOf(`done ${SHARED_TRANSACTION_MAX_UNITS}`)).toBeLessThan(events.indexOf(`start ${burst - 1}`));
    expect((await usernames(db)).filter((name) => name.startsWith('burst-'))).toHaveLength(burst);
  });

  it('runs work started later in a transaction of its own', async () => {
    const db = t.db.kysely;
    await inSharedTransaction(db, (tx) => addUser(tx, 'donald'));
    await expect(inSharedTransaction(db, (tx) => addUser(tx, 'donald'))).rejects.toThrow();
    expect(await usernames(db)).toContain('donald');
  });
});
