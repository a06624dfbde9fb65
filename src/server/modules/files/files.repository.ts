import { sql, type Insertable, type Selectable } from 'kysely';
import type { FileProgress, KnowledgeFile } from '@shared/contracts/files';
import type { Db, DbScope, Executor, FilesTable, FileStatus } from '../../db/database';
import type { Chunk } from './chunk';
import { bytesToVector, vectorText } from './embeddings';

export type FileRow = Selectable<FilesTable>;

export function toFile(row: FileRow): KnowledgeFile {
  return {
    id: row.id,
    botId: row.bot_id,
    conversationId: row.conversation_id,
    name: row.name,
    mediaType: row.media_type,
    size: row.size,
    status: row.status,
    error: row.error,
    chunkCount: row.chunk_count,
    progress:
      row.status === 'processing' && row.progress_total !== null
        ? { stage: row.progress_stage ?? 'ocr', done: row.progress_done ?? 0, total: row.progress_total }
        : null,
    createdAt: row.created_at,
  };
}

export const insertFile = (db: Executor, values: Insertable<FilesTable>) =>
  db.insertInto('files').values(values).returningAll().executeTakeFirstOrThrow();

/** The file only when it belongs to `userId`; someone else's is indistinguishable from a missing one. */
export const findOwnedFile = (db: Executor, userId: number, fileId: number) =>
  db.selectFrom('files').selectAll().where('id', '=', fileId).where('user_id', '=', userId).executeTakeFirst();

/** A bot's knowledge, oldest first (the order they were added). */
export const findKnowledgeFiles = (db: Executor, botId: number) =>
  db
    .selectFrom('files')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('conversation_id', 'is', null)
    .orderBy('id')
    .execute();

/** A bot's knowledge files, or a conversation's attachments. */
async function countFiles(db: Executor, of: { botId: number } | { conversationId: number }): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      'botId' in of
        ? eb.and([eb('bot_id', '=', of.botId), eb('conversation_id', 'is', null)])
        : eb('conversation_id', '=', of.conversationId),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function sumBytesOfUser(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('bytes'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

/** Which limit would refuse a file: the user's bytes, or the files of its bot's knowledge or its conversation. */
export type FileRefusal = 'quota' | 'count';

/**
 * Inserts the file's row unless it would take its user past `bytesPerUser` or its place (a bot's knowledge or a
 * conversation) past `filesHere`. Counted and written under a lock on the user's row, held to the end of the
 * caller's transaction, so simultaneous uploads cannot each count the room that only one of them has; every
 * limited place belongs to the uploading user. On PostgreSQL NO KEY: rows that reference the user (this insert
 * among them) neither wait for the lock nor hold it up. SQLite runs one transaction at a time.
 */
export async function insertFileWithin(
  scope: DbScope,
  values: Insertable<FilesTable> & { bot_id: number },
  limits: { bytesPerUser: number; filesHere: number },
): Promise<FileRow | FileRefusal> {
  const db = scope.kysely;
  if (scope.kind === 'postgres') {
    await db.selectFrom('users').select('id').where('id', '=', values.user_id).forNoKeyUpdate().execute();
  }
  if ((await sumBytesOfUser(db, values.user_id)) + values.size > limits.bytesPerUser) return 'quota';
  const place = values.conversation_id == null ? { botId: values.bot_id } : { conversationId: values.conversation_id };
  if ((await countFiles(db, place)) >= limits.filesHere) return 'count';
  return insertFile(db, values);
}

/** The delete trigger queues the bytes for removal (see 0004-files.ts). */
export const deleteFileRow = (db: Executor, fileId: number) =>
  db.deleteFrom('files').where('id', '=', fileId).execute();

/**
 * Takes the oldest document waiting to be read whose lease is free or expired, and leases it until `leaseUntil`.
 * On PostgreSQL, SKIP LOCKED lets several instances claim different files at once; SQLite has one writer. A file
 * taken up again after its runner died starts its progress afresh.
 */
export function claimNextFile(db: Db, now: string, leaseUntil: string) {
  return db.kysely
    .updateTable('files')
    .set((eb) => ({
      lease_until: leaseUntil,
      attempts: eb('attempts', '+', 1),
      progress_done: null,
      progress_total: null,
      progress_stage: null,
      updated_at: now,
    }))
    .where('id', '=', (eb) => {
      const next = eb
        .selectFrom('files')
        .select('id')
        .where('status', '=', 'processing')
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
        .orderBy('id')
        .limit(1);
      return db.kind === 'postgres' ? next.forUpdate().skipLocked() : next;
    })
    .returningAll()
    .executeTakeFirst();
}

export const releaseFile = (db: Executor, fileId: number) =>
  db
    .updateTable('files')
    .set({ lease_until: null, progress_done: null, progress_total: null, progress_stage: null })
    .where('id', '=', fileId)
    .execute();

/** A claimed job's progress, written only while the runner still holds its lease (as `finishFile`). */
export const setFileProgress = (db: Executor, job: { id: number; leaseUntil: string }, progress: FileProgress) =>
  db
    .updateTable('files')
    .set({ progress_done: progress.done, progress_total: progress.total, progress_stage: progress.stage })
    .where('id', '=', job.id)
    .where('status', '=', 'processing')
    .where('lease_until', '=', job.leaseUntil)
    .execute();

/**
 * Ends a claimed job. Only a file still processing under this lease is written, so a job that overran its lease
 * and was taken over cannot write twice; returns false when nothing was written (or the file is gone).
 */
/** The file's status and chunk count, written only by the runner that still holds its lease. */
export async function finishFile(
  db: Executor,
  job: { id: number; leaseUntil: string },
  outcome: { status: Exclude<FileStatus, 'processing'>; error: string | null; chunkCount: number },
  now: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('files')
    .set({
      status: outcome.status,
      error: outcome.error,
      chunk_count: outcome.chunkCount,
      lease_until: null,
      progress_done: null,
      progress_total: null,
      progress_stage: null,
      updated_at: now,
    })
    .where('id', '=', job.id)
    .where('status', '=', 'processing')
    .where('lease_until', '=', job.leaseUntil)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Statements of this many chunks: short enough not to stall others. On SQLite a statement holds the event loop
 * while it runs (its full-text triggers included): 200 chunks took a median 51–81 ms here, 50 took 17–31 ms on
 * the same loaded machine, for about the same total (decision 0047).
 */
const CHUNK_BATCH = 50;

/** A passage with its vector and the model id that wrote it, when it was embedded. */
export type EmbeddedChunk = Chunk & { embedding?: Buffer; embeddingModel?: string };

/**
 * Replaces a processing file's chunks (an interrupted run may have left some), batch by batch, each batch its own
 * short statement: a 300-page PDF never holds the database for the whole of its indexing, so other requests
 * (health checks, chats) are served in between. Retrieval reads only `ready` files, so a half-written file is
 * never searched; `finishFile` flips the status last.
 *
 * `atOnce` (PostgreSQL only): statements in flight together, each in a backend of its own, since computing the
 * passages' search vectors is most of their time and one backend uses one core. Their ids are then taken first, in
 * the passages' order, so that whichever statement ends first, ties in ranking still go to the earlier passage.
 * `pgvector`: each vector is written in pgvector's column too (pgvector-index.ts).
 */
export async function replaceChunks(
  db: Executor,
  fileId: number,
  chunks: EmbeddedChunk[],
  { atOnce = 1, pgvector = false }: { atOnce?: number; pgvector?: boolean } = {},
) {
  await db.deleteFrom('file_chunks').where('file_id', '=', fileId).execute();
  const ids = atOnce > 1 ? await nextChunkIds(db, chunks.length) : null;
  const insert = (from: number) =>
    db
      .insertInto('file_chunks')
      .values(
        chunks.slice(from, from + CHUNK_BATCH).map((c, j) => ({
          ...(ids ? { id: ids[from + j]! } : {}),
          file_id: fileId,
          ord: from + j,
          text: c.text,
          page: c.page,
          section: c.section,
          embedding: c.embedding ?? null,
          embedding_model: c.embeddingModel ?? null,
          ...(pgvector
            ? { embedding_vector: c.embedding ? sql<string>`${vectorText(bytesToVector(c.embedding))}::vector` : null }
            : {}),
        })),
      )
      .execute();
  let next = 0;
  let failed = false;
  const writer = async () => {
    while (next < chunks.length && !failed) {
      const from = next;
      next += CHUNK_BATCH;
      await insert(from).catch((err: unknown) => {
        failed = true;
        throw err;
      });
      // Let requests that queued behind this batch run before the next one.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  // Every writer has stopped before this returns or throws: none goes on writing once the file's failure is handled.
  const results = await Promise.allSettled(Array.from({ length: atOnce }, writer));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

/** `count` new chunk ids in ascending order (PostgreSQL: from the table's sequence). */
async function nextChunkIds(db: Executor, count: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select nextval(pg_get_serial_sequence('file_chunks', 'id')) as id
    from generate_series(1, ${count}) order by id`.execute(db);
  return rows.map((row) => Number(row.id));
}

export const findBlobDeletions = (db: Executor, limit: number) =>
  db.selectFrom('file_blob_deletions').select('storage_key').limit(limit).execute();

export const forgetBlobDeletion = (db: Executor, key: string) =>
  db.deleteFrom('file_blob_deletions').where('storage_key', '=', key).execute();

export const findChunksWithFiles = (db: Executor, chunkIds: number[]) =>
  chunkIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('file_chunks as c')
        .innerJoin('files as f', 'f.id', 'c.file_id')
        .select(['c.id', 'c.file_id', 'c.text', 'c.page', 'c.section', 'f.name'])
        .where('c.id', 'in', chunkIds)
        .execute();
