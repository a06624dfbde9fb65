import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../tests/support/databases';

/** Migrations that change nothing on SQLite: what they leave in PostgreSQL's catalog. */
describe.runIf(databaseKinds.includes('postgres'))('PostgreSQL-only migrations', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('postgres');
  });
  afterAll(() => t.drop());

  it('0030: compresses new search vectors and message texts, sources and steps with lz4', async () => {
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

  it('0031: reads a word’s files from an index by word, counts included, without the table', async () => {
    const { rows } = await sql<{ definition: string }>`select indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = 'file_terms' and indexname = 'file_terms_lexeme'`.execute(
      t.db.kysely,
    );
    expect(rows.map((r) => r.definition.replace(/ \w+\.file_terms /, ' file_terms '))).toEqual([
      'CREATE INDEX file_terms_lexeme ON file_terms USING btree (lexeme, file_id) INCLUDE (chunks)',
    ]);
  });
});
