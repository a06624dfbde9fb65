import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/database';
import { bytesToVector, cosine } from './embeddings';
import type { SearchScope } from './full-text.repository';
import {
  findAttachmentVectors,
  findKnowledgeVectorIds,
  findKnowledgeWithVectors,
  findVectors,
  knowledgeKey,
  readKnowledgeGeneration,
  type VectorModel,
} from './vector-index.repository';
import { indexedCandidates, largeKnowledge, pgvectorOn, rankedByIndex } from './pgvector-index';
import { type Copies, RERANK, signBits } from './vector-ranking';
import { vectorScan } from './vector-scan';

/**
 * Vector search over a bot's knowledge without reading every vector from the database for each question
 * (decision 0048). Each instance keeps in memory, per bot and embeddings model, two small copies of every
 * passage's vector: one bit per dimension (its sign once the bot's mean vector is taken off: 192 bytes for 1536
 * dimensions) and one byte per dimension (the unit vector scaled to ±127). A question scans the bits by
 * Hamming distance for SHORTLIST passages, ranks those by their bytes, and ranks the RERANK best of them by
 * their exact cosine, read from the database. The ranking so equals the exact one but for near ties, and
 * exactly whenever the bot has no more than RERANK passages. The copies follow the database through the bot's
 * knowledge generation (migration 0027), read with every question: once it has moved, only the passages added
 * since are read, and removed ones dropped.
 */

/** Vectors read per statement while loading. */
const LOAD_BATCH = 1000;
/** Copies kept per instance at most, all bots together; the least recently searched bot goes first. */
const MAX_BYTES = 512 * 1024 * 1024;

interface BotVectors extends Copies {
  generation: number;
  usedAt: number;
}

interface InstanceVectors {
  bots: Map<string, BotVectors>;
  loading: Map<string, Promise<BotVectors>>;
}

// Per database handle, which is per app instance: instances share nothing but the database.
const instances = new WeakMap<Db, InstanceVectors>();

function instanceOf(db: Db): InstanceVectors {
  let state = instances.get(db);
  if (!state) instances.set(db, (state = { bots: new Map(), loading: new Map() }));
  return state;
}

/** The vector as bytes of its unit vector scaled so its largest component is ±127, and the scale to undo that. */
function toBytes(vector: Float32Array, out: Int8Array): number {
  let norm = 0;
  let largest = 0;
  for (const x of vector) {
    norm += x * x;
    largest = Math.max(largest, Math.abs(x));
  }
  if (largest === 0) return 0;
  const scale = 127 / largest;
  for (let i = 0; i < vector.length; i++) out[i] = Math.round(vector[i]! * scale);
  return 1 / (scale * Math.sqrt(norm));
}

function meanOf(vectors: Float32Array[], dims: number): Float32Array {
  const mean = new Float32Array(dims);
  for (const v of vectors) for (let i = 0; i < dims; i++) mean[i]! += v[i]! / vectors.length;
  return mean;
}

interface Row {
  bits: Uint32Array;
  bytes: Int8Array;
  scale: number;
}

/** The bot's copies as of `generation`: those of `previous` still in scope, plus the passages added since. */
async function load(
  db: Db,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
  generation: number,
  previous: BotVectors | undefined,
  /** Ends the load between two batches (the warm-up's, when the server closes): it then rejects. */
  signal?: AbortSignal,
): Promise<BotVectors> {
  const ids = await findKnowledgeVectorIds(db.kysely, knowledge, model);
  const kept = new Map<number, number>();
  previous?.ids.forEach((id, row) => kept.set(id, row));
  const missing = ids.filter((id) => !kept.has(id));
  let dims = previous?.dims ?? 0;
  let mean = previous?.mean ?? new Float32Array(0);
  const added = new Map<number, Row>();
  for (let i = 0; i < missing.length; i += LOAD_BATCH) {
    // Between batches, whatever else the instance has to do goes first: SQLite's reads do not wait on I/O, so a
    // bot of 100,000 passages would otherwise hold every other request for seconds.
    if (i > 0) await nextTurn();
    signal?.throwIfAborted();
    const rows = await findVectors(db.kysely, missing.slice(i, i + LOAD_BATCH));
    const vectors = rows.map((r) => ({ id: Number(r.id), vector: bytesToVector(r.embedding) }));
    if (dims === 0 && vectors.length > 0) {
      // The first batch stands for the whole when centring: the exact cosine at the end corrects the rest.
      dims = vectors[0]!.vector.length;
      mean = meanOf(
        vectors.map((v) => v.vector).filter((v) => v.length === dims),
        dims,
      );
    }
    for (const { id, vector } of vectors) {
      // A vector of another length could never match the question's (cosine holds it at 0).
      if (vector.length !== dims) continue;
      const row = { bits: new Uint32Array(Math.ceil(dims / 32)), bytes: new Int8Array(dims), scale: 0 };
      signBits(vector, mean, row.bits);
      row.scale = toBytes(vector, row.bytes);
      added.set(id, row);
    }
  }
  const words = Math.ceil(dims / 32);
  const present = ids.filter((id) => kept.has(id) || added.has(id));
  // In shared memory, which the vector scan thread reads without a copy.
  const next: BotVectors = {
    generation,
    dims,
    words,
    mean,
    ids: shared(Float64Array, present.length),
    bits: shared(Uint32Array, present.length * words),
    bytes: shared(Int8Array, present.length * dims),
    scales: shared(Float32Array, present.length),
    usedAt: Date.now(),
  };
  next.ids.set(present);
  present.forEach((id, row) => {
    const from = kept.get(id);
    if (from === undefined) {
      const r = added.get(id)!;
      next.bits.set(r.bits, row * words);
      next.bytes.set(r.bytes, row * dims);
      next.scales[row] = r.scale;
    } else {
      next.bits.set(previous!.bits.subarray(from * words, (from + 1) * words), row * words);
      next.bytes.set(previous!.bytes.subarray(from * dims, (from + 1) * dims), row * dims);
      next.scales[row] = previous!.scales[from]!;
    }
  });
  return next;
}

type TypedArrayOf<T> = { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };
const shared = <T>(Type: TypedArrayOf<T>, length: number) =>
  new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));

const sizeOf = (v: BotVectors) => v.bits.byteLength + v.bytes.byteLength + v.scales.byteLength + v.ids.byteLength;

function keep(state: InstanceVectors, key: string, fresh: BotVectors) {
  const held = state.bots.get(key);
  if (held && held.generation > fresh.generation) return;
  state.bots.set(key, fresh);
  let bytes = 0;
  for (const v of state.bots.values()) bytes += sizeOf(v);
  const oldestFirst = [...state.bots.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
  for (const [other, v] of oldestFirst) {
    if (bytes <= MAX_BYTES || other === key) continue;
    state.bots.delete(other);
    bytes -= sizeOf(v);
  }
}

/**
 * The bot's copies, brought up to the database's generation first when it has moved; null when no such bot.
 * `signal` ends a load this call starts (not one a question started before it) between two batches.
 */
async function knowledgeVectors(
  db: Db,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
  signal?: AbortSignal,
): Promise<BotVectors | null> {
  const generation = await readKnowledgeGeneration(db.kysely, knowledge.botId);
  if (generation === null) return null;
  const state = instanceOf(db);
  const key = knowledgeKey(knowledge, model);
  let vectors = state.bots.get(key);
  if (vectors?.generation !== generation) {
    let pending = state.loading.get(key);
    if (!pending) {
      pending = load(db, knowledge, model, generation, vectors, signal).finally(() => state.loading.delete(key));
      state.loading.set(key, pending);
    }
    vectors = await pending;
    keep(state, key, vectors);
  }
  vectors.usedAt = Date.now();
  return vectors;
}

/**
 * Loads the copies of every bot's knowledge with vectors of `model`, the most recently used bots first, as many as
 * fit in the instance's budget, so the first question after a start does not wait for them (seconds at 100,000
 * passages). One bot at a time, yielding between batches; stops between two batches when `signal` aborts.
 */
export async function warmKnowledgeVectors(db: Db, model: VectorModel, signal: AbortSignal): Promise<number> {
  let used = 0;
  let perPassage = 0;
  let warmed = 0;
  for (const knowledge of await findKnowledgeWithVectors(db.kysely, model)) {
    if (signal.aborted) break;
    // Past the budget, loading one more bot would push out one loaded before it, which was used more recently.
    if (used + knowledge.passages * perPassage > MAX_BYTES || rankedByIndex(db, knowledge.passages)) continue;
    if (knowledge.passages > RERANK) vectorScan.prepare();
    const vectors = await knowledgeVectors(db, knowledge, model, signal).catch((err: unknown) => {
      if (signal.aborted) return null;
      throw err;
    });
    if (!vectors || vectors.ids.length === 0) continue;
    used += sizeOf(vectors);
    perPassage ||= sizeOf(vectors) / vectors.ids.length;
    warmed += 1;
  }
  return warmed;
}

/**
 * The `limit` passages in scope closest to the question by cosine, best first: among the bot's knowledge, the
 * RERANK found by their copies, or by pgvector's index for a bot too large for them (pgvector-index.ts); among
 * the conversation's attachments (a few files), every one.
 */
export async function nearestPassages(
  db: Db,
  scope: SearchScope,
  model: VectorModel,
  question: Promise<Float32Array>,
  limit: number,
): Promise<number[]> {
  const [copies, large, q] = await Promise.all([
    // Without pgvector the copies are brought up to date while the question is embedded.
    pgvectorOn(db) ? null : knowledgeVectors(db, scope, model),
    largeKnowledge(db, scope, model),
    question,
  ]);
  const indexed = large ? await indexedCandidates(db, scope, model, q) : null;
  const vectors = indexed ? null : (copies ?? (await knowledgeVectors(db, scope, model)));
  const candidates = indexed ?? (vectors && vectors.dims === q.length ? await vectorScan.rank(vectors, q) : []);
  const [knowledge, attachments] = await Promise.all([
    findVectors(db.kysely, candidates),
    scope.conversationId === null
      ? []
      : findAttachmentVectors(db.kysely, { userId: scope.userId, conversationId: scope.conversationId }, model),
  ]);
  return [...knowledge, ...attachments]
    .map((r) => ({ id: Number(r.id), score: cosine(q, bytesToVector(r.embedding)) }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, limit)
    .map((r) => r.id);
}
