import { sql } from 'kysely';
import type { HighlightedText } from '@shared/contracts/chat';
import type { Db, DatabaseKind, DbScope, Executor } from '../../db/database';

/** Messages written into the index per transaction: a batch stays a few milliseconds of the writer's time. */
const INDEX_BATCH = 500;

/**
 * Writes the messages noted as waiting (by trigger: `messages_fts_pending` on SQLite, migration 0013;
 * `messages_search_pending` on PostgreSQL, migration 0028) into the full-text index, in batches of one
 * transaction each (the index and the log written once per batch, not per message), and says how many.
 *
 * `untilIndexed` (a search, which must find every saved message): on PostgreSQL, messages another indexer is
 * writing are waited for, not skipped; otherwise the search could run before that indexer commits and miss them.
 */
export async function indexMessages(
  db: Db,
  { untilIndexed = false }: { untilIndexed?: boolean } = {},
): Promise<number> {
  const indexBatch =
    db.kind === 'sqlite' ? indexBatchSqlite : (tx: Db['kysely']) => indexBatchPostgres(tx, untilIndexed);
  const waiting = db.kind === 'sqlite' ? 'messages_fts_pending' : 'messages_search_pending';
  // Most calls find nothing to do: a read, not a write transaction, then.
  if (!(await sql`select 1 from ${sql.table(waiting)} limit 1`.execute(db.kysely)).rows.length) return 0;
  let indexed = 0;
  for (;;) {
    const batch = await indexBatch(db.kysely);
    indexed += batch;
    if (batch < INDEX_BATCH) return indexed;
  }
}

function indexBatchSqlite(db: Db['kysely']): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const pending = sql`select message_id from messages_fts_pending order by message_id limit ${INDEX_BATCH}`;
    await sql`insert into messages_fts(rowid, content) select id, content from messages
      where id in (${pending}) and status != 'streaming'`.execute(tx);
    return Number(
      (await sql`delete from messages_fts_pending where message_id in (${pending})`.execute(tx)).numAffectedRows ?? 0,
    );
  });
}

/**
 * One statement: claims a batch (rows another indexer is writing are skipped, or waited for when `wait`: they are
 * then gone from the queue once it commits), and writes each message's vector as its text is now. A message changed
 * meanwhile is noted again by its own commit.
 */
async function indexBatchPostgres(db: Db['kysely'], wait: boolean): Promise<number> {
  const { rows } = await sql<{ claimed: string }>`with claimed as (
      delete from messages_search_pending where message_id in (
        select message_id from messages_search_pending order by message_id limit ${INDEX_BATCH}
        for update ${wait ? sql`` : sql`skip locked`})
      returning message_id),
    written as (
      insert into message_search (message_id, tsv)
        select m.id, to_tsvector('english', m.content) from messages m join claimed c on c.message_id = m.id
        where m.status != 'streaming'
      on conflict (message_id) do update set tsv = excluded.tsv)
    select count(*) as claimed from claimed`.execute(db);
  return Number(rows[0]?.claimed ?? 0);
}

/** Words of a search box, at most eight; the last one is a prefix, so results follow the typing. */
export const searchTermsOf = (q: string) => (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);

function matchQuery(kind: DatabaseKind, terms: string[]) {
  const last = terms.length - 1;
  return kind === 'sqlite'
    ? terms.map((t, i) => `"${t}"${i === last ? '*' : ''}`).join(' ')
    : terms.map((t, i) => `${t}${i === last ? ':*' : ''}`).join(' & ');
}

export interface SearchHits {
  /** Newest matching message of the active branches first: [conversation id, message id]. */
  messages: Array<{ conversationId: number; messageId: number }>;
  /** Conversations whose title matched. */
  titles: number[];
}

const hasMessage = sql<boolean>`exists (select 1 from messages e where e.conversation_id = c.id)`;

/** Search covers the user's own chats: their bots' widget conversations (also theirs) are read on the bot's page. */
const notWidget = (userId: number) =>
  sql<boolean>`conversation_id not in (select id from conversations where user_id = ${userId} and channel = 'widget')`;

/**
 * PostgreSQL: how many of the user's newest messages are tried before the full-text index. A common word or
 * short prefix fills the page from these alone, where the index would hand back most of the user's messages
 * to sort; a rarer one finds fewer than asked, and then the index has few rows to give.
 */
const RECENT_CANDIDATES = 4_000;

type MessageHit = { message_id: number; conversation_id: number };

/** PostgreSQL: the newest active messages of the user that match, newest first. */
async function findMessageHitsPostgres(db: Executor, userId: number, q: string, limit: number) {
  const recent = await sql<MessageHit>`select m.id as message_id, m.conversation_id from (
      select id, conversation_id from messages where user_id = ${userId} and active and ${notWidget(userId)}
      order by id desc limit ${RECENT_CANDIDATES}) m join message_search s on s.message_id = m.id
    where s.tsv @@ to_tsquery('english', ${q}) order by m.id desc limit ${limit}`.execute(db);
  if (recent.rows.length >= limit) return recent;
  // Materialized, so the GIN index finds the matches first rather than the planner walking every message of
  // the user newest first looking for a rare word.
  return sql<MessageHit>`with hits as materialized (
      select m.id, m.conversation_id, m.user_id from message_search s join messages m on m.id = s.message_id
      where s.tsv @@ to_tsquery('english', ${q}) and m.active)
    select id as message_id, conversation_id from hits where user_id = ${userId} and ${notWidget(userId)}
    order by id desc limit ${limit}`.execute(db);
}

/** The user's messages (active branches only) and titles that match all of `terms`, newest first. */
export async function findSearchHits(
  { kysely: db, kind }: DbScope,
  userId: number,
  terms: string[],
  limit: number,
): Promise<SearchHits> {
  const q = matchQuery(kind, terms);
  const [messages, titles] =
    kind === 'sqlite'
      ? await Promise.all([
          // FTS5 hands its matches back newest first, so the scan stops once `limit` of the user's are found.
          sql<MessageHit>`select m.id as message_id, m.conversation_id
            from messages_fts f join messages m on m.id = f.rowid
            where messages_fts match ${q} and m.user_id = ${userId} and m.active = 1 and ${notWidget(userId)}
            order by f.rowid desc limit ${limit}`.execute(db),
          sql<{ id: number }>`select c.id from conversations_fts f join conversations c on c.id = f.rowid
            where conversations_fts match ${q} and c.user_id = ${userId} and c.channel = 'app' and ${hasMessage}
            order by f.rowid desc limit ${limit}`.execute(db),
        ])
      : await Promise.all([
          findMessageHitsPostgres(db, userId, q, limit),
          sql<{ id: number }>`select c.id from conversations c
            where c.tsv @@ to_tsquery('english', ${q}) and c.user_id = ${userId} and c.channel = 'app' and ${hasMessage}
            order by c.id desc limit ${limit}`.execute(db),
        ]);
  return {
    messages: messages.rows.map((r) => ({
      conversationId: Number(r.conversation_id),
      messageId: Number(r.message_id),
    })),
    titles: titles.rows.map((r) => Number(r.id)),
  };
}

const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 200;

/**
 * `text` cut around its first match, with the words that start with a search term marked. Done here rather
 * than by FTS5's snippet() or ts_headline(), which would search the whole index again for the few results.
 */
export function highlight(text: string, terms: string[], whole = false): HighlightedText {
  const prefixes = terms.map((t) => t.toLowerCase());
  const isMatch = (w: string) => prefixes.some((p) => w.toLowerCase().startsWith(p));
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const first = words.find((w) => isMatch(w[0]))?.index ?? 0;
  let from = whole ? 0 : Math.max(0, first - SNIPPET_BEFORE);
  if (from > 0) from = text.indexOf(' ', from) + 1 || from;
  const to = whole ? text.length : Math.min(text.length, from + SNIPPET_LENGTH);
  const segments: HighlightedText = [];
  const add = (t: string, match: boolean) => {
    if (!t) return;
    const last = segments.at(-1);
    if (last && last.match === match) last.text += t;
    else segments.push({ text: t, match });
  };
  if (from > 0) add('…', false);
  let at = from;
  for (const w of words) {
    const end = w.index + w[0].length;
    if (w.index < from || end > to) continue;
    if (!isMatch(w[0])) continue;
    add(text.slice(at, w.index), false);
    add(w[0], true);
    at = end;
  }
  add(text.slice(at, to), false);
  if (to < text.length) add('…', false);
  return segments;
}

/** The content of these messages, to cut snippets from. */
export const findMessageTexts = async (db: Executor, ids: number[]) =>
  ids.length === 0
    ? new Map<number, string>()
    : new Map(
        (await db.selectFrom('messages').select(['id', 'content']).where('id', 'in', ids).execute()).map((r) => [
          r.id,
          r.content,
        ]),
      );
