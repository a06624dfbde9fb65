import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * Whose files a search may read: the bot's own knowledge (its owner's files), plus one conversation's attachments
 * (the files of whoever chats, who is someone else when the bot is shared).
 */
export interface SearchScope {
  ownerId: number;
  userId: number;
  botId: number;
  conversationId: number | null;
}

const scopeSql = (s: SearchScope) =>
  sql<boolean>`f.status = 'ready' and ((f.user_id = ${s.ownerId} and f.bot_id = ${s.botId} and f.conversation_id is null)${
    s.conversationId === null ? sql`` : sql` or (f.user_id = ${s.userId} and f.conversation_id = ${s.conversationId})`
  })`;

/**
 * How many passages the ranking (ts_rank on PostgreSQL, bm25 on SQLite) reads at most, unless the question's
 * rarer words are in fewer passages than asked for: its words are taken rarest first while the passages holding
 * them add up to no more than this, and while they add up to fewer passages than the search asks for.
 */
const RANKED_PASSAGES = 2000;

const ftsWord = (term: string) => `"${term}"`;

/**
 * SQLite: how many passages of the whole full-text index hold `term`, counted up to `upTo` when given. FTS5 alone
 * counts ~2,000 passages in 0.2–0.4 ms; counting them in a bot's files (joining each passage to its file) took 1–5
 * ms a word, most of a question's full-text time at 100,000 passages (decision 0077).
 */
async function indexPassages(db: Db, term: string, upTo?: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from file_chunks_fts
      where file_chunks_fts match ${ftsWord(term)}${upTo === undefined ? sql`` : sql` limit ${upTo}`})`.execute(
    db.kysely,
  );
  return Number(rows[0]!.n);
}

/**
 * On SQLite, the question's words that bm25 ranks by, rarest first as on PostgreSQL: words are kept while the
 * index's passages holding them add up to no more than RANKED_PASSAGES, or to fewer than `limit`. bm25 scores
 * every passage of the index that holds a word of the query (the scope is checked after), and a common word is in
 * nearly every passage of a large bot (decision 0048).
 *
 * Counts stop past RANKED_PASSAGES, so common words all count the same: when one must be added, the one the index
 * holds least often is counted out and taken; in the order the words were written, one in nearly every passage
 * could be taken instead (decision 0077).
 */
async function rarestTerms(db: Db, terms: string[], limit: number): Promise<{ rarest: string[]; others: string[] }> {
  const counted = await Promise.all(
    terms.map(async (term) => ({ term, passages: await indexPassages(db, term, RANKED_PASSAGES + 1) })),
  );
  const rarer = counted.filter((word) => word.passages > 0 && word.passages <= RANKED_PASSAGES);
  const common = counted.filter((word) => word.passages > RANKED_PASSAGES);
  rarer.sort((a, b) => a.passages - b.passages || a.term.localeCompare(b.term));
  const kept: string[] = [];
  let passages = 0;
  for (const word of rarer) {
    if (passages + word.passages > RANKED_PASSAGES && passages >= limit) break;
    kept.push(word.term);
    passages += word.passages;
  }
  if (passages < limit && common.length > 0) {
    const inIndex = common.length === 1 ? [0] : await Promise.all(common.map((w) => indexPassages(db, w.term)));
    kept.push(common[inIndex.indexOf(Math.min(...inIndex))]!.term);
  }
  const others = [...rarer, ...common].map((word) => word.term).filter((term) => !kept.includes(term));
  return { rarest: kept, others };
}

/** SQLite: the passages in `scope` holding any of `words`, best first by FTS5's bm25 (lower is better). */
async function rankedByBm25(db: Db, scope: SearchScope, words: string[], limit: number): Promise<number[]> {
  if (words.length === 0) return [];
  const { rows } = await sql<{ id: number }>`select c.id from file_chunks_fts
      join file_chunks c on c.id = file_chunks_fts.rowid
      join files f on f.id = c.file_id
      where file_chunks_fts match ${words.map(ftsWord).join(' OR ')} and ${scopeSql(scope)}
      order by bm25(file_chunks_fts, 1.0, 0.5) limit ${limit}`.execute(db.kysely);
  return rows.map((r) => Number(r.id));
}

/**
 * SQLite: the rarest words' passages first. The index is every bot's, so a bot may hold fewer of them than the
 * index does: when they are fewer than `limit`, every word of the question in the index ranks, as before the
 * counting.
 */
async function searchSqlite(db: Db, scope: SearchScope, terms: string[], limit: number): Promise<number[]> {
  const { rarest, others } = await rarestTerms(db, terms, limit);
  const ids = await rankedByBm25(db, scope, rarest, limit);
  return ids.length < limit && others.length > 0 ? rankedByBm25(db, scope, [...rarest, ...others], limit) : ids;
}

/**
 * Chunk ids best first by the database's own full-text ranking: FTS5's bm25 (lower is better) on SQLite,
 * ts_rank over the GIN-indexed tsvector on PostgreSQL. `terms` are plain words (letters and digits only).
 *
 * ts_rank reads each candidate's tsvector, and an OR of every word makes nearly every passage a candidate once
 * a common word is in the question. So on PostgreSQL the candidates are the passages holding the question's
 * rarest words (counted per file in `file_terms`, see migration 0012), and ts_rank orders them by all its
 * words. A passage holding only common words is left out only when the passages of rarer words are enough to
 * answer (`limit` of them at least), and adding it would make ts_rank read thousands.
 */
export async function searchFullText(db: Db, scope: SearchScope, terms: string[], limit: number): Promise<number[]> {
  if (terms.length === 0) return [];
  if (db.kind === 'sqlite') return searchSqlite(db, scope, terms, limit);
  // The scope's files go in as values: PostgreSQL then estimates how many passages they hold and, for a large bot,
  // filters the rarest words' passages by file instead of reading the bot's whole file index first (decision 0077).
  const files = (await sql<{ id: number }>`select f.id from files f where ${scopeSql(scope)}`.execute(db.kysely)).rows;
  if (files.length === 0) return [];
  const fileIds = files.map((f) => f.id);
  const query = sql<{ id: number }>`with counted as (
        select t.lexeme, sum(t.chunks) as chunks from file_terms t
        where t.file_id = any(${fileIds}::integer[])
          and t.lexeme = any(tsvector_to_array(to_tsvector('english', ${terms.join(' ')})))
        group by t.lexeme),
      rarest as (
        select string_agg(quote_literal(lexeme), ' | ')::tsquery as words from (
          select lexeme, chunks, sum(chunks) over (order by chunks, lexeme) as passages from counted) w
        where passages <= ${RANKED_PASSAGES} or passages - chunks < ${limit})
      select c.id from file_chunks c, to_tsquery('english', ${terms.join(' | ')}) question
      where c.tsv @@ (select words from rarest) and c.file_id = any(${fileIds}::integer[])
      order by ts_rank(c.tsv, question) desc, c.id limit ${limit}`;
  return (await query.execute(db.kysely)).rows.map((r) => Number(r.id));
}
