import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database';
import { bytesToVector, vectorText } from './embeddings';
import { knowledgeVectorRows, ofModel, type VectorModel } from './vector-index.repository';

/**
 * pgvector's part of the schema, there only where the PostgreSQL server has the extension (pgvector-index.ts,
 * decision 0076): the extension, `file_chunks.embedding_vector` (filled for the passages of the largest bots only),
 * and an HNSW index per vector length.
 */

/**
 * The extension created (when it is not, and the role may) and the column added. False on SQLite or without the
 * extension; throws when the extension is there but may not be created.
 */
export async function turnOnPgvector(db: Db): Promise<boolean> {
  if (db.kind !== 'postgres') return false;
  const { rows } = await sql<{ available: boolean }>`select exists (select 1 from pg_available_extensions
    where name = 'vector') as available`.execute(db.kysely);
  if (!rows[0]?.available) return false;
  try {
    await sql`create extension if not exists vector`.execute(db.kysely);
    await sql`alter table file_chunks add column if not exists embedding_vector vector`.execute(db.kysely);
  } catch (err) {
    // Another instance doing the same at the same moment is fine; a role that may not create extensions is not.
    if (!(await hasVectorColumn(db.kysely))) throw err;
  }
  return true;
}

async function hasVectorColumn(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`select exists (select 1 from information_schema.columns
    where table_schema = current_schema() and table_name = 'file_chunks' and column_name = 'embedding_vector')
    as present`.execute(db);
  return rows[0]?.present === true;
}

/** How many passages of the bot's knowledge have a vector of `model`, and how many of those no `vector` value. */
export async function countIndexedKnowledge(
  db: Executor,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
): Promise<{ passages: number; unindexed: number }> {
  const row = await knowledgeVectorRows(db, knowledge, model)
    .select((eb) => [
      eb.fn.countAll<number>().as('passages'),
      sql<number>`count(*) filter (where file_chunks.embedding_vector is null)`.as('unindexed'),
    ])
    .executeTakeFirst();
  return { passages: Number(row?.passages ?? 0), unindexed: Number(row?.unindexed ?? 0) };
}

/**
 * Up to `limit` passages of the bot's knowledge after `after` (by id) with a vector of `model` but no `vector` value
 * given theirs; the last one's id, null when there were none.
 */
export async function fillMissingVectors(
  db: Executor,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
  { after, limit }: { after: number; limit: number },
): Promise<number | null> {
  const rows = await knowledgeVectorRows(db, knowledge, model)
    .select(['file_chunks.id', 'file_chunks.embedding'])
    .where('file_chunks.id', '>', after)
    .where(sql<boolean>`file_chunks.embedding_vector is null`)
    .orderBy('file_chunks.id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return null;
  const values = rows.map((r) => sql`(${r.id}::bigint, ${vectorText(bytesToVector(r.embedding!))}::vector)`);
  await sql`update file_chunks as c set embedding_vector = v.e from (values ${sql.join(values)}) as v(id, e)
    where c.id = v.id`.execute(db);
  return rows.at(-1)!.id;
}

const indexName = (dims: number) => `file_chunks_embedding_hnsw_${dims}`;

/**
 * The type a vector of `dims` dimensions is indexed as: pgvector's HNSW index takes `vector` up to 2,000 dimensions
 * and `halfvec` (16-bit floats, as the re-rank is exact anyway) up to 4,000, e.g. text-embedding-3-large's 3,072;
 * longer ones are not indexed (null).
 */
export function indexedType(dims: number): 'vector' | 'halfvec' | null {
  if (!Number.isInteger(dims) || dims < 1 || dims > 4_000) return null;
  return dims <= 2_000 ? 'vector' : 'halfvec';
}

async function isValid(db: Executor, name: string): Promise<boolean | null> {
  const { rows } = await sql<{ valid: boolean | null }>`select (select indisvalid from pg_index
    where indexrelid = to_regclass(${name})) as valid`.execute(db);
  return rows[0]?.valid ?? null;
}

/**
 * The HNSW index of vectors of `dims` dimensions (cosine distance), built once per database: by the instance that
 * takes the advisory lock, without holding writes back (`concurrently`); a build an instance left unfinished is
 * dropped and done again. Whether it is valid now (false while another instance builds it). `signal` cancels the
 * build's statement (from another connection, as PostgreSQL cancels); the half-built index goes at the next build.
 */
export async function buildVectorIndex(db: Db, dims: number, signal: AbortSignal): Promise<boolean> {
  const name = indexName(dims);
  const type = indexedType(dims);
  if (!type) return false;
  if ((await isValid(db.kysely, name)) === true) return true;
  return db.kysely.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${name})) as locked`.execute(
      conn,
    );
    if (!rows[0]?.locked) return false;
    const { rows: backend } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn);
    const cancel = () => void sql`select pg_cancel_backend(${backend[0]!.pid})`.execute(db.kysely).catch(() => {});
    signal.addEventListener('abort', cancel, { once: true });
    try {
      signal.throwIfAborted();
      if ((await isValid(conn, name)) === false)
        await sql`drop index concurrently if exists ${sql.id(name)}`.execute(conn);
      await sql`create index concurrently if not exists ${sql.id(name)} on file_chunks
        using hnsw ((embedding_vector::${sql.raw(type)}(${sql.lit(dims)})) ${sql.raw(`${type}_cosine_ops`)})
        where vector_dims(embedding_vector) = ${sql.lit(dims)}`.execute(conn);
      return (await isValid(conn, name)) === true;
    } finally {
      signal.removeEventListener('abort', cancel);
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(conn);
    }
  });
}

/**
 * The `limit` passages of the bot's knowledge nearest to `question` (pgvector's text form, `dims` long) by cosine
 * distance, as pgvector's HNSW index of that length finds them. The bot's ready files are read first, so the
 * passages' statement is of one table, with the index's own expression and condition: given a join, PostgreSQL
 * could read the index's whole walk before the files' condition and the limit.
 */
export async function findNearestIndexed(
  db: Executor,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
  nearest: { question: string; dims: number; limit: number },
): Promise<number[]> {
  const files = await db
    .selectFrom('files')
    .select('id')
    .where('status', '=', 'ready')
    .where('user_id', '=', knowledge.ownerId)
    .where('bot_id', '=', knowledge.botId)
    .where('conversation_id', 'is', null)
    .execute();
  if (files.length === 0) return [];
  const type = indexedType(nearest.dims);
  if (!type) return [];
  const [dims, cast] = [sql.lit(nearest.dims), sql.raw(type)];
  const rows = await db
    .selectFrom('file_chunks')
    .select('file_chunks.id')
    .where(sql<boolean>`file_chunks.file_id = any(${files.map((f) => f.id)})`)
    .where(ofModel(model))
    .where(sql<boolean>`vector_dims(file_chunks.embedding_vector) = ${dims}`)
    .orderBy(sql`file_chunks.embedding_vector::${cast}(${dims}) <=> ${nearest.question}::${cast}(${dims})`)
    .limit(nearest.limit)
    .execute();
  return rows.map((r) => Number(r.id));
}
