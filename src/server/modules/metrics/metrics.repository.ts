import type { Executor } from '../../db/database';

/**
 * Uploaded files waiting for (or in) extraction, across instances: the runner's queue is the `processing` rows.
 * Also the scrape's database probe: it throws when the database does not answer.
 */
export async function countFilesProcessing(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', '=', 'processing')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
