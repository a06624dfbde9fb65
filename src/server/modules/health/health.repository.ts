import { sql } from 'kysely';
import type { Db } from '../../db/database';

export type DatabaseCheck = { ok: true; database: Db['kind'] } | { ok: false; database: Db['kind']; err: unknown };

/** The engine in use and whether it answers one `select 1`; the error, when it does not, is for the log. */
export async function checkDatabase(db: Db): Promise<DatabaseCheck> {
  try {
    await sql`select 1`.execute(db.kysely);
    return { ok: true, database: db.kind };
  } catch (err) {
    return { ok: false, database: db.kind, err };
  }
}
