import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseKinds, type TestDb } from '../../../tests/support/databases';

describe.runIf(databaseKinds.includes('postgres'))("knowledge words' counts on PostgreSQL", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb('postgres');
  });
  afterAll(() => t.drop());

  it('reads a word’s files from an index by word, counts included, without the table', async () => {
    const { rows } = await sql<{ definition: string }>`
      select indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = 'file_terms' and indexname = 'file_terms_lexeme'`.execute(
      t.db.kysely,
    );
    expect(rows.map((r) => r.definition.replace(/ \w+\.file_terms /, ' file_terms '))).toEqual([
      'CREATE INDEX file_terms_lexeme ON file_terms USING btree (lexeme, file_id) INCLUDE (chunks)',
    ]);
  });
});
