import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../tests/support/databases';

describe.runIf(databaseKinds.includes('postgres'))('compression of large values on PostgreSQL', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('postgres');
  });
  afterAll(() => t.drop());

  it('compresses new search vectors and message texts, sources and steps with lz4', async () => {
    const { rows } = await sql<{ column: string; method: string }>`
      select attrelid::regclass::text || '.' || attname as column, attcompression as method from pg_attribute
      where (attrelid = 'message_search'::regclass and attname = 'tsv')
        or (attrelid = 'messages'::regclass and attname in ('content', 'sources', 'steps'))
      order by 1`.execute(t.db.kysely);
    expect(rows).toEqual([
      { column: 'message_search.tsv', method: 'l' },
      { column: 'messages.content', method: 'l' },
      { column: 'messages.sources', method: 'l' },
      { column: 'messages.steps', method: 'l' },
    ]);
  });
});
