import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { DatabaseKind } from '../database';

/** The few column types that differ between SQLite and PostgreSQL, so each migration is written once. */
export interface ColumnTypes {
  /** For the few statements with no common spelling (full-text search, triggers). */
  kind: DatabaseKind;
  id: 'integer' | 'serial';
  primaryKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  boolean: 'integer' | 'boolean';
  false: 0 | false;
  true: 1 | true;
  timestamp: 'text' | 'timestamptz';
  json: 'text' | 'jsonb';
  binary: 'blob' | 'bytea';
}

export function columnTypes(kind: DatabaseKind): ColumnTypes {
  return kind === 'sqlite'
    ? {
        kind,
        id: 'integer',
        primaryKey: (c) => c.primaryKey().autoIncrement(),
        boolean: 'integer',
        false: 0,
        true: 1,
        timestamp: 'text',
        json: 'text',
        binary: 'blob',
      }
    : {
        kind,
        id: 'serial',
        primaryKey: (c) => c.primaryKey(),
        boolean: 'boolean',
        false: false,
        true: true,
        timestamp: 'timestamptz',
        json: 'jsonb',
        binary: 'bytea',
      };
}

export interface Migration {
  // Migrations run before the typed schema exists, so they see an untyped database.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- no typed schema exists yet
  up(db: Kysely<any>, types: ColumnTypes): Promise<void>;
}
