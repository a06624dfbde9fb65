import type { Db } from '../../db/database';
import { bytesToVector, cosine } from './embeddings';
import type { SearchScope } from './files.repository';
import {
  findAttachmentVectors,
  findKnowledgeVectorIds,
  findVectors,
  readKnowledgeGeneration,
  type VectorModel,
} from './vector-index.repository';

/**
 * Vector search over a bot's knowledge without reading every vector from the database for each question
 * (decision 0048). Each instance keeps, per bot and embeddings model, one bit per dimension of every passage's
 * vector (its sign once the bot's mean vector is taken off: 1536 dimensions are 192 bytes, 19 MB for 100,000
 * passages). A question scans those codes by Hamming distance, and the RERANK closest passages are ranked by
 * their exact cosine, read from the database: with RERANK well above the passages the fusion takes, the
 * ranking equals the exact one in nearly every case, and exactly whenever the bot has no more than RERANK
 * passages. The codes follow the database through the bot's knowledge generation (migration 0027), read with
 * every question: when it has moved, only passages added since are read, and removed ones dropped.
 */

/** Passages the codes hand on to exact cosine. */
export const RERANK = 200;
/** Vectors read per statement while loading. */
const LOAD_BATCH = 1000;
/** Codes kept per instance at most, all bots together; the least recently searched bot goes first. */
const MAX_CODE_BYTES = 256 * 1024 * 1024;

interface BotVectors {
  generation: number;
  dims: number;
  /** 32-bit words per code. */
  words: number;
  /** Subtracted before taking signs, so a model whose vectors share an offset still spreads its codes. */
  mean: Float32Array;
  /** Passage ids, in the order of `codes`. */
  ids: Float64Array;
  codes: Uint32Array;
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

function signCode(vector: Float32Array, mean: Float32Array, out: Uint32Array, at: number) {
  for (let i = 0; i < vector.length; i++) {
    if (vector[i]! > mean[i]!) out[at + (i >>> 5)]! |= 1 << (i & 31);
  }
}

function meanOf(vectors: Float32Array[], dims: number): Float32Array {
  const mean = new Float32Array(dims);
  for (const v of vectors) for (let i = 0; i < dims; i++) mean[i]! += v[i]! / vectors.length;
  return mean;
}

/** The bot's codes as of `generation`: those of `previous` still in scope, plus the passages added since. */
async function load(
  db: Db,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
  generation: number,
  previous: BotVectors | undefined,
): Promise<BotVectors> {
  const ids = await findKnowledgeVectorIds(db.kysely, knowledge, model);
  const kept = new Map<number, number>();
  previous?.ids.forEach((id, row) => kept.set(id, row));
  const missing = ids.filter((id) => !kept.has(id));
  let dims = previous?.dims ?? 0;
  let mean = previous?.mean ?? new Float32Array(0);
  const added = new Map<number, Uint32Array>();
  for (let i = 0; i < missing.length; i += LOAD_BATCH) {
    const rows = await findVectors(db.kysely, missing.slice(i, i + LOAD_BATCH));
    const vectors = rows.map((r) => ({ id: Number(r.id), vector: bytesToVector(r.embedding) }));
    if (dims === 0 && vectors.length > 0) {
      // The first batch stands for the whole when centring: the exact cosine of the rerank corrects the rest.
      dims = vectors[0]!.vector.length;
      mean = meanOf(
        vectors.map((v) => v.vector).filter((v) => v.length === dims),
        dims,
      );
    }
    for (const { id, vector } of vectors) {
      // A vector of another length could never match the question's (cosine holds it at 0).
      if (vector.length !== dims) continue;
      const code = new Uint32Array(Math.ceil(dims / 32));
      signCode(vector, mean, code, 0);
      added.set(id, code);
    }
  }
  const words = Math.ceil(dims / 32);
  const present = ids.filter((id) => kept.has(id) || added.has(id));
  const codes = new Uint32Array(present.length * words);
  present.forEach((id, row) => {
    const from = kept.get(id);
    if (from === undefined) codes.set(added.get(id)!, row * words);
    else codes.set(previous!.codes.subarray(from * words, (from + 1) * words), row * words);
  });
  return { generation, dims, words, mean, ids: Float64Array.from(present), codes, usedAt: Date.now() };
}

function keep(state: InstanceVectors, key: string, fresh: BotVectors) {
  const held = state.bots.get(key);
  if (held && held.generation > fresh.generation) return;
  state.bots.set(key, fresh);
  let bytes = 0;
  for (const v of state.bots.values()) bytes += v.codes.byteLength;
  const oldestFirst = [...state.bots.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt);
  for (const [other, v] of oldestFirst) {
    if (bytes <= MAX_CODE_BYTES || other === key) continue;
    state.bots.delete(other);
    bytes -= v.codes.byteLength;
  }
}

/** The bot's codes, brought up to the database's generation first when it has moved; null when no such bot. */
async function knowledgeVectors(
  db: Db,
  knowledge: { ownerId: number; botId: number },
  model: VectorModel,
): Promise<BotVectors | null> {
  const generation = await readKnowledgeGeneration(db.kysely, knowledge.botId);
  if (generation === null) return null;
  const state = instanceOf(db);
  const key = `${knowledge.ownerId}:${knowledge.botId}:${model.readsUnlabelled ? '+' : ''}${model.id}`;
  let vectors = state.bots.get(key);
  if (vectors?.generation !== generation) {
    let pending = state.loading.get(key);
    if (!pending) {
      pending = load(db, knowledge, model, generation, vectors).finally(() => state.loading.delete(key));
      state.loading.set(key, pending);
    }
    vectors = await pending;
    keep(state, key, vectors);
  }
  vectors.usedAt = Date.now();
  return vectors;
}

/** Ids of up to about `count` passages whose codes are closest to the question's by Hamming distance. */
function closestCodes(vectors: BotVectors, question: Float32Array, count: number): number[] {
  const n = vectors.ids.length;
  if (n <= count) return Array.from(vectors.ids);
  const { words, codes } = vectors;
  const q = new Uint32Array(words);
  signCode(question, vectors.mean, q, 0);
  const distances = new Uint16Array(n);
  const histogram = new Uint32Array(vectors.dims + 1);
  for (let row = 0, at = 0; row < n; row++, at += words) {
    let bits = 0;
    for (let w = 0; w < words; w++) {
      let x = q[w]! ^ codes[at + w]!;
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      bits += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    distances[row] = bits;
    histogram[bits]!++;
  }
  // The smallest distance that, with all closer ones, reaches `count` passages; ties at it all come along.
  let limit = 0;
  for (let seen = histogram[0]!; seen < count; seen += histogram[limit]!) limit++;
  const ids: number[] = [];
  for (let row = 0; row < n; row++) if (distances[row]! <= limit) ids.push(vectors.ids[row]!);
  return ids;
}

/**
 * The `limit` passages in scope closest to the question by cosine, best first: among the bot's knowledge, the
 * RERANK found by their codes; among the conversation's attachments (a few files), every one.
 */
export async function nearestPassages(
  db: Db,
  scope: SearchScope,
  model: VectorModel,
  question: Promise<Float32Array>,
  limit: number,
): Promise<number[]> {
  const [vectors, q] = await Promise.all([knowledgeVectors(db, scope, model), question]);
  const candidates = vectors && vectors.dims === q.length ? closestCodes(vectors, q, RERANK) : [];
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
