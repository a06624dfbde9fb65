import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { vectorText } from './embeddings';
import {
  buildVectorIndex,
  countIndexedKnowledge,
  fillMissingVectors,
  findNearestIndexed,
  indexedType,
  turnOnPgvector,
} from './pgvector.repository';
import { knowledgeKey, readKnowledgeGeneration, type VectorModel } from './vector-index.repository';
import { RERANK } from './vector-ranking';

/**
 * pgvector's HNSW index for the knowledge of bots that outgrow the copies in each instance's memory (decision 0076).
 * Where the PostgreSQL server has the `vector` extension, Botty turns it on as it starts. A bot with more than
 * `fromPassages` passages with vectors is then ranked by the index: its passages' vectors are written in
 * `file_chunks.embedding_vector` too (the float32 bytes of `embedding` stay the source), those it had before filled in
 * at its first question past the threshold, and one index per vector length holds the passages of such bots only,
 * so the many small bots cost the index nothing. Smaller bots keep the copies, which rank exactly (top-5 overlap
 * 1.000 against the index's 0.92) and, measured at 100,000 and 200,000 passages on two cores shared with PostgreSQL,
 * answered the fused retrieval faster.
 */

/**
 * Bots with more passages with vectors than this are ranked by the index, once it is built for their length: past
 * it, one bot's copies (1,740 bytes a passage at 1,536 dimensions) would take over half of an instance's 512 MiB.
 */
export const INDEX_FROM_PASSAGES = 150_000;
/** Candidates the graph search keeps (pgvector's default is 40): 0.974 of the exact top five against 0.904 (0073). */
const EF_SEARCH = 100;
/** Bots whose size this instance remembers (a count a knowledge generation). */
const MAX_COUNTS = 10_000;
/** Passages given their `vector` value per statement when a bot's are filled in. */
const FILL_BATCH = 500;

interface Knowledge {
  ownerId: number;
  botId: number;
}

interface KnowledgeCount {
  generation: number;
  passages: number;
  /** Of those, without their `vector` value. */
  unindexed: number;
}

interface PgvectorState {
  fromPassages: number;
  /** Per vector length, the index's build (or the look that found it built): whether it can be used. */
  indexes: Map<number, Promise<boolean>>;
  /** Per bot and model, its passages with vectors as of a knowledge generation. */
  counts: Map<string, KnowledgeCount>;
  /** Per bot and model, the filling in of its passages' `vector` values under way. */
  filling: Map<string, Promise<void>>;
  /** Aborted as the app closes: a build under way is cancelled rather than waited for (minutes at 100,000). */
  closing: AbortController;
}

// Per database handle, which is per app instance, as the copies are.
const states = new WeakMap<Db, PgvectorState>();

/**
 * Turns pgvector on where the server offers it: the extension created (when it is not, and the role may) and the
 * column added. False on SQLite or without the extension (the copies rank every bot); throws when it may not be
 * created. `fromPassages`: tests lower the threshold.
 */
export async function enablePgvector(db: Db, options: { fromPassages?: number } = {}): Promise<boolean> {
  if (!(await turnOnPgvector(db))) return false;
  states.set(db, {
    fromPassages: options.fromPassages ?? INDEX_FROM_PASSAGES,
    indexes: new Map(),
    counts: new Map(),
    filling: new Map(),
    closing: new AbortController(),
  });
  return true;
}

/** The bot's passages with vectors of `model`, counted again when its knowledge generation has moved. */
async function countOf(db: Db, state: PgvectorState, knowledge: Knowledge, model: VectorModel) {
  const generation = await readKnowledgeGeneration(db.kysely, knowledge.botId);
  if (generation === null) return null;
  const key = knowledgeKey(knowledge, model);
  let count = state.counts.get(key);
  if (count?.generation !== generation) {
    count = { generation, ...(await countIndexedKnowledge(db.kysely, knowledge, model)) };
    state.counts.delete(key);
    // Kept in the order last counted; the oldest goes past the bound.
    if (state.counts.size >= MAX_COUNTS) state.counts.delete(state.counts.keys().next().value!);
    state.counts.set(key, count);
  }
  return count;
}

/** Whether pgvector is on for this instance. */
export const pgvectorOn = (db: Db) => states.has(db);

/**
 * Whether a knowledge file of the bot is written with its passages' `vector` values: when the bot is ranked by the
 * index already (a file that makes it so is filled in at its next question).
 */
export async function writesPgvector(db: Db, knowledge: Knowledge, model: VectorModel): Promise<boolean> {
  const state = states.get(db);
  if (!state) return false;
  const count = await countOf(db, state, knowledge, model);
  return count !== null && count.passages > state.fromPassages;
}

/**
 * Whether the index ranks the bot: more passages than the threshold, every one with its `vector` value. A bot past
 * the threshold whose passages are not all filled in has them filled in the background meanwhile (the copies rank
 * it until then). False without pgvector.
 */
export async function largeKnowledge(db: Db, knowledge: Knowledge, model: VectorModel): Promise<boolean> {
  const state = states.get(db);
  if (!state) return false;
  const count = await countOf(db, state, knowledge, model);
  if (!count || count.passages <= state.fromPassages) return false;
  if (count.unindexed === 0) return true;
  fillIn(db, state, knowledge, model);
  return false;
}

/** Gives the bot's passages their `vector` values, once at a time per bot; its count is taken again after. */
function fillIn(db: Db, state: PgvectorState, knowledge: Knowledge, model: VectorModel) {
  const key = knowledgeKey(knowledge, model);
  if (state.filling.has(key)) return;
  const filling = (async () => {
    for (let after = 0; ;) {
      if (state.closing.signal.aborted) return;
      const last = await fillMissingVectors(db.kysely, knowledge, model, { after, limit: FILL_BATCH });
      if (last === null) break;
      after = last;
    }
    state.counts.delete(key);
  })()
    // A failure costs the index this question's bot, not the answer: the next question tries again.
    .catch(() => {})
    .finally(() => state.filling.delete(key));
  state.filling.set(key, filling);
}

/**
 * Whether the HNSW index of vectors of `dims` dimensions can be used, once built (buildVectorIndex): until then its
 * bots keep the copies. Remembered once usable; asked again at a later question while it is not (another instance
 * building it) and after a failure.
 */
function indexFor(db: Db, state: PgvectorState, dims: number): Promise<boolean> {
  if (!indexedType(dims)) return Promise.resolve(false);
  let index = state.indexes.get(dims);
  if (!index) {
    const forget = () => {
      if (state.indexes.get(dims) === index) state.indexes.delete(dims);
      return false;
    };
    index = buildVectorIndex(db, dims, state.closing.signal).then((usable) => usable || forget(), forget);
    state.indexes.set(dims, index);
  }
  return index;
}

/**
 * The RERANK passages of the bot's knowledge nearest to `q` by the index, for an exact re-rank; null while there is
 * no index of this length to use (its build is started, and the copies rank the bot meanwhile).
 */
export async function indexedCandidates(
  db: Db,
  knowledge: Knowledge,
  model: VectorModel,
  q: Float32Array,
): Promise<number[] | null> {
  const state = states.get(db);
  if (!state) return null;
  // An index being built is not waited for: a promise already settled wins the race (its reaction is queued
  // first), one still pending loses it, and its first use comes with a later question.
  if (!(await Promise.race([indexFor(db, state, q.length), Promise.resolve(false)]))) return null;
  return db.kysely.transaction().execute(async (tx) => {
    await sql`set local hnsw.ef_search = ${sql.lit(EF_SEARCH)}`.execute(tx);
    // The bot's passages are found among all large bots' as the graph is walked: it goes on until enough are.
    await sql`set local hnsw.iterative_scan = relaxed_order`.execute(tx);
    return findNearestIndexed(tx, knowledge, model, { question: vectorText(q), dims: q.length, limit: RERANK });
  });
}

/** Whether the copies of a bot with this many passages would never be asked: the index ranks it. */
export const rankedByIndex = (db: Db, passages: number) => {
  const state = states.get(db);
  return state !== undefined && passages > state.fromPassages;
};

/** Once the fillings and index builds under way have ended (tests; the app as it closes, after `stopPgvector`). */
export async function pgvectorSettled(db: Db): Promise<void> {
  const state = states.get(db);
  if (state) await Promise.all([...state.filling.values(), ...state.indexes.values()]);
}

/**
 * pgvector turned on as the app gets ready, before its file jobs start; as it closes, the fillings stop between two
 * batches and an index build is cancelled. Nothing happens on SQLite or without the extension; a failure to turn
 * it on leaves every bot with the copies.
 */
export function pgvectorStartup(deps: { db: Db; log: FastifyBaseLogger; fromPassages?: number }) {
  return {
    async start() {
      const on = await enablePgvector(deps.db, { fromPassages: deps.fromPassages }).catch((err: unknown) => {
        deps.log.warn(
          { err },
          'pgvector is offered but could not be turned on (a superuser can: create extension vector); ' +
            'knowledge is ranked by the in-memory copies',
        );
        return false;
      });
      const fromPassages = deps.fromPassages ?? INDEX_FROM_PASSAGES;
      if (on) deps.log.info({ fromPassages }, 'pgvector is on: the largest bots are ranked by its index');
    },
    async stop() {
      states.get(deps.db)?.closing.abort();
      await pgvectorSettled(deps.db);
    },
  };
}
