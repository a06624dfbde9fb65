import { sql } from 'kysely';
import type { HighlightedText } from '@shared/contracts/chat';
import type { DatabaseKind, Executor } from '../../db/database';

/** Marks put around matched words by the database, then turned into segments; stored text never holds them. */
const START = '\u0002';
const END = '\u0003';

/** Words of a search box, at most eight; the last one is a prefix, so results follow the typing. */
export const searchTermsOf = (q: string) => (q.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);

function matchQuery(kind: DatabaseKind, terms: string[]) {
  const last = terms.length - 1;
  return kind === 'sqlite'
    ? terms.map((t, i) => `"${t}"${i === last ? '*' : ''}`).join(' ')
    : terms.map((t, i) => `${t}${i === last ? ':*' : ''}`).join(' & ');
}

export function toHighlighted(marked: string): HighlightedText {
  const segments: HighlightedText = [];
  const add = (text: string, match: boolean) => text && segments.push({ text, match });
  for (const [i, part] of marked.split(START).entries()) {
    const end = part.indexOf(END);
    if (i === 0 || end < 0) add(part, false);
    else {
      add(part.slice(0, end), true);
      add(part.slice(end + 1), false);
    }
  }
  return segments;
}

export interface SearchHits {
  /** Newest matching message of the active branches first: [conversation id, message id]. */
  messages: Array<{ conversationId: number; messageId: number }>;
  /** Conversations whose title matched. */
  titles: number[];
}

const hasMessage = sql<boolean>`exists (select 1 from messages e where e.conversation_id = c.id)`;

/** The user's messages (active branches only) and titles that match all of `terms`, newest first. */
export async function findSearchHits(
  db: Executor,
  kind: DatabaseKind,
  userId: number,
  terms: string[],
  limit: number,
): Promise<SearchHits> {
  const q = matchQuery(kind, terms);
  const [messages, titles] =
    kind === 'sqlite'
      ? await Promise.all([
          sql<{ message_id: number; conversation_id: number }>`select m.id as message_id, m.conversation_id
            from messages_fts f join messages m on m.id = f.rowid join conversations c on c.id = m.conversation_id
            where messages_fts match ${q} and c.user_id = ${userId} and m.active = 1
            order by f.rowid desc limit ${limit}`.execute(db),
          sql<{ id: number }>`select c.id from conversations_fts f join conversations c on c.id = f.rowid
            where conversations_fts match ${q} and c.user_id = ${userId} and ${hasMessage}
            order by f.rowid desc limit ${limit}`.execute(db),
        ])
      : await Promise.all([
          sql<{ message_id: number; conversation_id: number }>`select m.id as message_id, m.conversation_id
            from messages m join conversations c on c.id = m.conversation_id
            where m.tsv @@ to_tsquery('english', ${q}) and c.user_id = ${userId} and m.active
            order by m.id desc limit ${limit}`.execute(db),
          sql<{ id: number }>`select c.id from conversations c
            where c.tsv @@ to_tsquery('english', ${q}) and c.user_id = ${userId} and ${hasMessage}
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

/** The text around the match of each message, matched words marked. */
export async function findMessageSnippets(db: Executor, kind: DatabaseKind, terms: string[], messageIds: number[]) {
  if (!messageIds.length) return new Map<number, HighlightedText>();
  const q = matchQuery(kind, terms);
  const rows =
    kind === 'sqlite'
      ? await sql<{ id: number; marked: string }>`select rowid as id,
          snippet(messages_fts, 0, ${START}, ${END}, '…', 16) as marked
          from messages_fts where messages_fts match ${q} and rowid in (${sql.join(messageIds)})`.execute(db)
      : await sql<{
          id: number;
          marked: string;
        }>`select id, ts_headline('english', content, to_tsquery('english', ${q}),
          ${`StartSel=${START}, StopSel=${END}, MaxWords=24, MinWords=12, MaxFragments=1, FragmentDelimiter=…`}) as marked
          from messages where id in (${sql.join(messageIds)})`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.id), toHighlighted(r.marked)]));
}

/** Each conversation's title with the matched words marked. */
export async function findTitleSnippets(db: Executor, kind: DatabaseKind, terms: string[], conversationIds: number[]) {
  if (!conversationIds.length) return new Map<number, HighlightedText>();
  const q = matchQuery(kind, terms);
  const rows =
    kind === 'sqlite'
      ? await sql<{ id: number; marked: string }>`select rowid as id,
          highlight(conversations_fts, 0, ${START}, ${END}) as marked
          from conversations_fts where conversations_fts match ${q} and rowid in (${sql.join(conversationIds)})`.execute(
          db,
        )
      : await sql<{ id: number; marked: string }>`select id, ts_headline('english', title, to_tsquery('english', ${q}),
          ${`StartSel=${START}, StopSel=${END}, HighlightAll=true`}) as marked
          from conversations where id in (${sql.join(conversationIds)})`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.id), toHighlighted(r.marked)]));
}
