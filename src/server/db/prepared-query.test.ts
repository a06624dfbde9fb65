import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../tests/support/databases';
import { preparedQuery } from './prepared-query';

// Users need no other table, which keeps these tests to the helper itself.
const insertUser = preparedQuery((db, v: { username: string; email: string; now: string }) =>
  db
    .insertInto('users')
    .values({
      username: v.username,
      email: v.email,
      password_hash: 'not a hash',
      email_verified: false,
      full_name: '',
      role: 'user',
      created_at: v.now,
      updated_at: v.now,
    })
    .returning(['id', 'username', 'email', 'role']),
);
const findUsers = preparedQuery((db, v: { prefix: string; limit: number }) =>
  db
    .selectFrom('users')
    .select(['username'])
    .where('username', 'like', v.prefix)
    .where('role', '=', 'user')
    .orderBy('username')
    .limit(v.limit),
);

// What the connection plans with when the statement runs: the named statement's own, and an unnamed one's.
const planningNamed = preparedQuery(
  (_, v: { x: number }) =>
    sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode, ${v.x}::integer as x`,
);
const planningUnnamed = async (db: TestDb['db']['kysely'], x: number) =>
  (await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode, ${x}::integer as y`.execute(db))
    .rows[0]!.mode;

describe.each(databaseKinds)('preparedQuery on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t.drop());

  it('runs the query built once with each call’s values, constants kept where they were written', async () => {
    const now = new Date().toISOString();
    const [ada] = await insertUser(t.db.kysely, { username: 'ada', email: 'ada@example.com', now });
    const [alan] = await insertUser(t.db.kysely, { username: 'alan', email: 'alan@example.com', now });
    expect(ada).toMatchObject({ username: 'ada', email: 'ada@example.com', role: 'user' });
    expect(alan!.id).toBeGreaterThan(ada!.id);
    expect(await findUsers(t.db.kysely, { prefix: 'a%', limit: 10 })).toEqual([
      { username: 'ada' },
      { username: 'alan' },
    ]);
    expect(await findUsers(t.db.kysely, { prefix: 'al%', limit: 1 })).toEqual([{ username: 'alan' }]);
  });

  it('runs inside a transaction on its connection, and rolls back with it', async () => {
    const now = new Date().toISOString();
    await t.db.kysely
      .transaction()
      .execute(async (tx) => {
        await insertUser(tx, { username: 'grace', email: 'grace@example.com', now });
        expect(await findUsers(tx, { prefix: 'grace', limit: 1 })).toEqual([{ username: 'grace' }]);
        throw new Error('undo');
      })
      .catch(() => {});
    expect(await findUsers(t.db.kysely, { prefix: 'grace', limit: 1 })).toEqual([]);
  });
});

describe.skipIf(!databaseKinds.includes('postgres'))('named statements on PostgreSQL', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('postgres');
  });
  afterAll(() => t.drop());

  it('run with generic plans, made once per connection, while other statements with values keep plans made for them', async () => {
    await t.db.kysely.transaction().execute(async (tx) => {
      for (let x = 0; x < 7; x += 1) expect((await planningNamed(tx, { x }))[0]!.mode).toBe('force_generic_plan');
      expect(await planningUnnamed(tx, 1)).toBe('auto');
      expect((await planningNamed(tx, { x: 8 }))[0]!.mode).toBe('force_generic_plan');
      const plans = await sql<{ generic_plans: number; custom_plans: number }>`select generic_plans, custom_plans
        from pg_prepared_statements where statement like ${'%current_setting(%'} and name like ${'botty_%'}`.execute(
        tx,
      );
      expect(plans.rows).toEqual([{ generic_plans: 8, custom_plans: 0 }]);
    });
  });

  it('sets the mode again after a rollback, which undoes a setting changed inside the transaction', async () => {
    await t.db.kysely
      .transaction()
      .execute(async (tx) => {
        expect((await planningNamed(tx, { x: 1 }))[0]!.mode).toBe('force_generic_plan');
        throw new Error('undo');
      })
      .catch(() => {});
    await t.db.kysely.transaction().execute(async (tx) => {
      expect((await planningNamed(tx, { x: 2 }))[0]!.mode).toBe('force_generic_plan');
      expect(await planningUnnamed(tx, 3)).toBe('auto');
    });
  });
});
