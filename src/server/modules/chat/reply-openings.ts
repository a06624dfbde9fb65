import { sql } from 'kysely';
import type { Executor, MessagesTable } from '../../db/database';
import { toJson } from '../../db/json';
import { preparedQuery } from '../../db/prepared-query';
import { batchPerTurn } from '../../lib/turn-batch';
import type { MessageRow } from './messages.repository';

/** A user's message and its reply's row, to be saved together (insertMessageTouching on PostgreSQL). */
export interface Opening {
  conversationId: number;
  parentId: number | null;
  role: string;
  content: string;
  status: string;
  /** JSON text of the attached files' ids, or null. */
  fileIds: string | null;
  botVersion: number;
  now: string;
}

export type OpenedRow = MessageRow & { reply_id: number; earlier_versions: number[] | null };

type OpenOne<O extends Opening> = (db: Executor, opening: O) => Promise<OpenedRow | undefined>;

// The same statement as one opening's (messages.repository.ts), for a set: the rows as one JSON parameter, so a set
// of any size is one named statement. A message is saved only while its parent is still the end of its active
// branch; each conversation appears once in a set, so no two of its messages can take the same place.
const openManyPg = (columns: readonly (keyof MessagesTable)[]) =>
  preparedQuery(
    (_, v: { rows: string; conversationIds: number[] }) =>
      sql<OpenedRow>`with v as materialized (
      select * from jsonb_to_recordset(${v.rows}::jsonb) as v(conversation_id integer, parent_id integer,
        role text, content text, status text, file_ids jsonb, bot_version integer, now timestamptz)
    ), touched as (
      update conversations set updated_at = v.now from v
      where conversations.id = v.conversation_id and conversations.id = any(${v.conversationIds}::integer[])
    ), question as (
      insert into messages (conversation_id, parent_id, user_id, role, content, status, created_at, updated_at,
        file_ids)
      select c.id, v.parent_id, c.user_id, v.role, v.content, v.status, v.now, v.now, v.file_ids
      from v join conversations c on c.id = v.conversation_id
      where not exists (select 1 from messages later where later.conversation_id = c.id and later.active
        and later.id > coalesce(v.parent_id, 0))
      order by c.id
      returning ${sql.join(columns.map((column) => sql.ref(column)))}
    ), reply as (
      insert into messages (conversation_id, parent_id, user_id, role, content, status, created_at, updated_at,
        bot_version)
      select q.conversation_id, q.id, q.user_id, 'assistant', '', 'streaming', v.now, v.now, v.bot_version
      from question q join v on v.conversation_id = q.conversation_id
      order by q.id
      returning id, parent_id
    )
    select question.*, reply.id as reply_id,
      (select coalesce(json_agg(sibling.id order by sibling.id), '[]') from messages sibling
        where sibling.conversation_id = question.conversation_id and sibling.role = 'user'
          and sibling.parent_id is not distinct from question.parent_id) as earlier_versions
    from question join reply on reply.parent_id = question.id`,
  );

interface Waiting<O extends Opening> {
  opening: O;
  resolve(row: OpenedRow | undefined): void;
  reject(err: unknown): void;
}

/**
 * PostgreSQL: the replies that start in the same turn of the event loop open in one statement, one commit for
 * them all rather than one each (decision 0013's diary, round 11), as SQLite's share one transaction. Alone, or
 * inside a caller's transaction, an opening runs on its own (`openOne`). A conversation that comes twice in a
 * turn opens its second message after the first, and a set whose statement fails opens each alone, so one bad
 * row fails only its own reply.
 */
export function groupedOpenings<O extends Opening>(
  openOne: OpenOne<O>,
  columns: readonly (keyof MessagesTable)[],
): OpenOne<O> {
  const openMany = openManyPg(columns);
  const runAlone = (db: Executor, waiting: Waiting<O>) =>
    openOne(db, waiting.opening).then(waiting.resolve, waiting.reject);

  async function openSet(db: Executor, set: Waiting<O>[]) {
    if (set.length === 1) return runAlone(db, set[0]!);
    const rows = set.map(({ opening: o }) => ({
      conversation_id: o.conversationId,
      parent_id: o.parentId,
      role: o.role,
      content: o.content,
      status: o.status,
      file_ids: o.fileIds === null ? null : (JSON.parse(o.fileIds) as number[]),
      bot_version: o.botVersion,
      now: o.now,
    }));
    let opened: OpenedRow[];
    try {
      opened = await openMany(db, { rows: toJson(rows), conversationIds: rows.map((r) => r.conversation_id) });
    } catch {
      for (const waiting of set) await runAlone(db, waiting);
      return;
    }
    const byConversation = new Map(opened.map((row) => [row.conversation_id, row]));
    // No row: the message's parent is no longer the end of its branch, as for one opening alone.
    for (const waiting of set) waiting.resolve(byConversation.get(waiting.opening.conversationId));
  }

  const openInTurn = batchPerTurn<Executor, Waiting<O>>((db, batch) => {
    const set: Waiting<O>[] = [];
    const later: Waiting<O>[] = [];
    const seen = new Set<number>();
    for (const waiting of batch) {
      const id = waiting.opening.conversationId;
      (seen.has(id) ? later : set).push(waiting);
      seen.add(id);
    }
    void openSet(db, set).then(async () => {
      for (const waiting of later) await runAlone(db, waiting);
    });
  });

  return (db, opening) =>
    db.isTransaction
      ? openOne(db, opening)
      : new Promise((resolve, reject) => openInTurn(db, { opening, resolve, reject }));
}
