import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../tests/support/databases';
import { engineOf } from './engine';

describe.each(databaseKinds)('engineOf on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(kind);
  });
  afterAll(() => t.drop());

  it('names the engine of the database and of its transactions', async () => {
    expect(engineOf(t.db.kysely)).toBe(kind);
    expect(await t.db.kysely.transaction().execute(async (tx) => engineOf(tx))).toBe(kind);
  });
});
