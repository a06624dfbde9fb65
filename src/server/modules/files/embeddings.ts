import { embed, embedMany, type EmbeddingModel } from 'ai';

/** Turns passages and questions into vectors with one embeddings model. */
export interface EmbeddingsModel {
  /** Its model id (`connectionId/model`): vectors are only compared with vectors of the same id. */
  id: string;
  /** Also reads vectors stored before model ids were (the environment's LLM_EMBEDDING_MODEL wrote those). */
  readsUnlabelled: boolean;
  embedPassages(texts: string[]): Promise<Float32Array[]>;
  embedQuery(text: string): Promise<Float32Array>;
}

/** The embeddings model in force now (the admin's default, else LLM_EMBEDDING_MODEL), or null for none. */
export interface Embeddings {
  current(): Promise<EmbeddingsModel | null>;
}

const BATCH = 64;
const PASSAGES_TIMEOUT_MS = 60_000;
/** A question waits this long at most for its vector; full-text search answers alone after that. */
const QUERY_TIMEOUT_MS = 5_000;

export function createEmbeddings(model: EmbeddingModel<string>, id: string, readsUnlabelled = false): EmbeddingsModel {
  return {
    id,
    readsUnlabelled,
    async embedPassages(texts) {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const { embeddings } = await embedMany({
          model,
          values: texts.slice(i, i + BATCH),
          maxRetries: 1,
          abortSignal: AbortSignal.timeout(PASSAGES_TIMEOUT_MS),
        });
        vectors.push(...embeddings.map((e) => Float32Array.from(e)));
      }
      return vectors;
    },
    async embedQuery(text) {
      const { embedding } = await embed({
        model,
        value: text,
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(QUERY_TIMEOUT_MS),
      });
      return Float32Array.from(embedding);
    },
  };
}

/** Vectors are stored as little-endian float32 bytes: a quarter of JSON's size and no parsing to rank. */
export const vectorToBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

// Copied, because a driver's Buffer may start at an offset a Float32Array cannot view.
export const bytesToVector = (b: Uint8Array): Float32Array => new Float32Array(Uint8Array.from(b).buffer);
/** pgvector's text form of a vector (pgvector-index.ts): nine significant digits give every float32 back exactly. */
export const vectorText = (vector: Float32Array): string =>
  `[${Array.from(vector, (x) => x.toPrecision(9)).join(',')}]`;

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
