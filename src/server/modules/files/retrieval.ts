import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import type { Embeddings } from './embeddings';
import { findChunksWithFiles } from './files.repository';
import { searchFullText, type SearchScope } from './full-text.repository';
import { nearestPassages } from './vector-index';

export interface RetrievalDeps {
  db: Db;
  /** Null, or no model in force: full-text search alone. */
  embeddings: Embeddings | null;
  log?: FastifyBaseLogger;
}

export interface SearchChunksParams {
  /** Whoever chats: only their attachments to the conversation are searched. */
  userId: number;
  /** The bot's owner, whose knowledge files are searched; `userId` when absent (their own bot). */
  ownerId?: number;
  botId: number;
  /** The conversation whose attachments may be searched too; null or absent for the bot's knowledge alone. */
  conversationId?: number | null;
  query: string;
  /** How many passages at most; 5 unless given. */
  limit?: number;
}

export interface RetrievedPassage {
  chunkId: number;
  fileId: number;
  fileName: string;
  /** 1-based PDF page, else null. */
  page: number | null;
  /** Nearest heading (or CSV rows) of the passage, else null. */
  section: string | null;
  /** The whole chunk, for the model. */
  text: string;
  /** At most about 300 characters around the first matching word, for the sources list. */
  snippet: string;
}

export const DEFAULT_PASSAGES = 5;
/** Each ranking contributes this many candidates to the fusion. */
const CANDIDATES = 40;
/** The usual reciprocal-rank-fusion constant: later ranks still count, but the top few dominate. */
const RRF_K = 60;
const MAX_TERMS = 32;
const SNIPPET_CHARS = 300;

/** Plain words of the question, lower-cased and deduplicated; nothing else reaches a full-text query. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length > 1))].slice(0, MAX_TERMS);
}

function snippetOf(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const lower = flat.toLowerCase();
  const hit = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0), Infinity);
  const start = hit === Infinity ? 0 : Math.max(0, flat.lastIndexOf(' ', Math.max(0, hit - 80)) + 1);
  const end = Math.min(flat.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

async function searchByVector(deps: RetrievalDeps, scope: SearchScope, query: string): Promise<number[]> {
  try {
    const model = await deps.embeddings?.current();
    if (!model) return [];
    return await nearestPassages(deps.db, scope, model, model.embedQuery(query), CANDIDATES);
  } catch (err) {
    // An embeddings outage costs recall, not the answer.
    deps.log?.warn({ err }, 'vector search failed; full-text search only');
    return [];
  }
}

/** Reciprocal rank fusion: a chunk's score is the sum of 1/(k + rank) over the rankings it appears in. */
function fuse(rankings: number[][]): number[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/**
 * The passages that best answer `query` among the bot's own knowledge files and, when given, the conversation's
 * attachments, never anyone else's files: full-text ranking fused with embeddings ranking when a model is configured.
 */
export async function searchChunks(deps: RetrievalDeps, params: SearchChunksParams): Promise<RetrievedPassage[]> {
  const scope: SearchScope = {
    ownerId: params.ownerId ?? params.userId,
    userId: params.userId,
    botId: params.botId,
    conversationId: params.conversationId ?? null,
  };
  const terms = queryTerms(params.query);
  // The vector ranking is set going first and the full-text ranking a turn of the event loop later: on SQLite
  // every statement runs on this thread, and the full text's would otherwise run before the vector ranking's
  // (the knowledge's generation) and hold its scan thread back until they end (decision 0077).
  const vectorRanking = searchByVector(deps, scope, params.query);
  await nextTurn();
  const [byText, byVector] = await Promise.all([searchFullText(deps.db, scope, terms, CANDIDATES), vectorRanking]);
  const best = fuse([byText, byVector]).slice(0, params.limit ?? DEFAULT_PASSAGES);
  const rows = new Map((await findChunksWithFiles(deps.db.kysely, best)).map((r) => [r.id, r]));
  return best.flatMap((id) => {
    const r = rows.get(id);
    return r
      ? [
          {
            chunkId: r.id,
            fileId: r.file_id,
            fileName: r.name,
            page: r.page,
            section: r.section,
            text: r.text,
            snippet: snippetOf(r.text, terms),
          },
        ]
      : [];
  });
}
