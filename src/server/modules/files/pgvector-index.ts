import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { vectorText } from './embeddings';
import type { SearchScope } from './files.repository';
import {
  countKnowledgeVectors,
  findNearestIndexed,
  readKnowledgeGeneration,
  type VectorModel,
} from './vector-index.repository';
import { RERANK } from './vector-ranking';
import { buildVectorIndex, fillMissingVectors, turnOnPgvector, vectorLengths } from './pgvector.repository';

/**
 * pgvector's HNSW index for the knowledge of bots that outgrow the copies in each instance's memory (decision 0076).
 * Where the PostgreSQL server has the `vector` extension, Botty turns it on as it starts, keeps every passage's
 * vector in `file_chunks.embedding_vector` too (the float32 bytes of `embedding` stay the source), and builds one
 * index per vector length. A bot with more than `fromPassages` passages with vectors is then ranked by the index;
 * smaller bots keep the copies, which rank exactly (top-5 overlap 1.000 against the index's 0.92) and, measured at
 * 100,000 and 200,000 passages on two cores shared with PostgreSQL, answered the fused retrieval faster.
 */

/**
 * Bots with more passages with vectors than this are ranked by the index, once it is built for their length: past
 * it, one bot's copies (1,740 bytes a passage at 1,536 dimensions) would take over half of an instance's 512 MiB.
 */
export const INDEX_FROM_PASSAGES = 150_000;
/** pgvector's HNSW index takes `vector` values of up to 2,000 dimensions; longer ones stay with the copies. */
const MAX_INDEXED_DIMS = 2_000;
/** Candidates the graph search keeps (pgvector's default is 40): 0.974 of the exact top five against 0.904 (0073). */
const EF_SEARCH = 100;
/** Bots whose size this instance remembers (a count a knowledge generation). */
const MAX_COUNTS = 10_000;
/** Passages given their `vector` value per statement when it is filled in after the extension came. */
const BACKFILL_BATCH = 500;

interface PgvectorState {
  fromPassages: number;
  /** Per vector length, the index's build (or the look that found it built): whether it can be used. */
  indexes: Map<number, Promise<boolean>>;
  /** Per bot and model, its passages with vectors as of a knowledge generation. */
  counts: Map<string, { generation: number; passages: number }>;
  /** Aborted as the app closes: a build under way is cancelled rather than waited for (minutes at 100,000). */
  closing: AbortController;
}

// Per database handle, which is per app instance, as the copies are.
const states = new WeakMap<Db, PgvectorState>();

/**
 * Turns pgvector on where the server offers it: the extension created (when it is not, and the role may) and the
 * column added. False on SQLite, without the extension, or when it may not be created: the copies rank every bot.
 */
export async function enablePgvector(db: Db, options: { fromPassages?: number } = {}): Promise<boolean> {
  if (!(await turnOnPgvector(db))) return false;
  const fromPassages = options.fromPassages ?? INDEX_FROM_PASSAGES;
  states.set(db, { fromPassages, indexes: new Map(), counts: new Map(), closing: new AbortController() });
  return true;
}

/** Whether this instance writes passages' vectors for pgvector too. */
export const writesPgvector = (db: Db) => states.has(db);

/**
 * Fills in the `vector` value of passages written before the extension was turned on (or by an instance that had
 * not yet), a batch at a time, then builds the index for each length found. Stops between batches on `signal`.
 */
export async function catchUpPgvector(db: Db, signal: AbortSignal): Promise<number> {
  if (!writesPgvector(db)) return 0;
  let filled = 0;
  // In the order of the primary key, from where the last batch ended: each batch reads only its own rows.
  for (let batch = await fillMissingVectors(db.kysely, 0, BACKFILL_BATCH); batch;) {
    filled += batch.filled;
    signal.throwIfAborted();
    batch = await fillMissingVectors(db.kysely, batch.last, BACKFILL_BATCH);
  }
  await Promise.all((await vectorLengths(db.kysely)).map((dims) => indexFor(db, dims)));
  return filled;
}

/**
 * Whether the HNSW index of vectors of `dims` dimensions can be used, once built (buildVectorIndex): until then its
 * bots keep the copies. Asked once per length by each instance, and again after a failure.
 */
export function indexFor(db: Db, dims: number): Promise<boolean> {
  const state = states.get(db);
  if (!state || dims > MAX_INDEXED_DIMS || !Number.isInteger(dims) || dims < 1) return Promise.resolve(false);
  let index = state.indexes.get(dims);
  if (!index) {
    index = buildVectorIndex(db, dims, state.closing.signal).catch(() => {
      state.indexes.delete(dims);
      return false;
    });
    state.indexes.set(dims, index);
  }
  return index;
}

/** Whether the bot's knowledge is large enough to be ranked by the index (false without pgvector). */
export async function largeKnowledge(db: Db, knowledge: SearchScope, model: VectorModel): Promise<boolean> {
  const state = states.get(db);
  if (!state) return false;
  const generation = await readKnowledgeGeneration(db.kysely, knowledge.botId);
  if (generation === null) return false;
  const key = `${knowledge.ownerId}:${knowledge.botId}:${model.readsUnlabelled ? '+' : ''}${model.id}`;
  let count = state.counts.get(key);
  if (count?.generation !== generation) {
    count = { generation, passages: await countKnowledgeVectors(db.kysely, knowledge, model) };
    state.counts.delete(key);
    // Kept in the order last counted; the oldest goes past the bound.
    if (state.counts.size >= MAX_COUNTS) state.counts.delete(state.counts.keys().next().value!);
    state.counts.set(key, count);
  }
  return count.passages > state.fromPassages;
}

/**
 * The RERANK passages of the bot's knowledge nearest to `q` by the index, for an exact re-rank; null while there is
 * no index of this length to use (the copies rank the bot meanwhile).
 */
export async function indexedCandidates(
  db: Db,
  knowledge: SearchScope,
  model: VectorModel,
  q: Float32Array,
): Promise<number[] | null> {
  // An index being built is not waited for: a promise already settled wins the race (its reaction is queued
  // first), one still pending loses it, and its first use comes with a later question.
  if (!(await Promise.race([indexFor(db, q.length), Promise.resolve(false)]))) return null;
  return db.kysely.transaction().execute(async (tx) => {
    await sql`set local hnsw.ef_search = ${sql.lit(EF_SEARCH)}`.execute(tx);
    // The bot's passages are found among all bots' as the graph is walked: the walk goes on until enough are.
    await sql`set local hnsw.iterative_scan = relaxed_order`.execute(tx);
    return findNearestIndexed(tx, knowledge, model, { question: vectorText(q), dims: q.length, limit: RERANK });
  });
}

/** Whether the copies of a bot with this many passages would never be asked: the index ranks it. */
export const rankedByIndex = (db: Db, passages: number) => {
  const state = states.get(db);
  return state !== undefined && passages > state.fromPassages;
};

/**
 * pgvector turned on as the app gets ready, before its file jobs start, so that none writes passages without their
 * `vector` value unseen; then, in the background, the passages written before caught up and their indexes built.
 * Nothing happens on SQLite or without the extension; a failure leaves every bot with the copies.
 */
export function pgvectorStartup(deps: { db: Db; log: FastifyBaseLogger }) {
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  return {
    async start() {
      const on = await enablePgvector(deps.db).catch((err: unknown) => {
        deps.log.warn(
          { err },
          'pgvector is offered but could not be turned on (a superuser can: create extension vector); ' +
            'knowledge is ranked by the in-memory copies',
        );
        return false;
      });
      if (!on) return;
      deps.log.info({ fromPassages: INDEX_FROM_PASSAGES }, 'pgvector is on: the largest bots are ranked by its index');
      running = catchUpPgvector(deps.db, stopping.signal).then(
        (filled) => void (filled > 0 && deps.log.info({ passages: filled }, 'pgvector caught up')),
        (err: unknown) => void (stopping.signal.aborted || deps.log.warn({ err }, 'pgvector could not catch up')),
      );
    },
    async stop() {
      stopping.abort();
      const state = states.get(deps.db);
      state?.closing.abort();
      await Promise.all([running, ...(state?.indexes.values() ?? [])]);
    },
  };
}
