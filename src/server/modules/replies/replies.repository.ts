import { sql } from 'kysely';
import type { ReplyStep, Source } from '@shared/contracts/chat';
import type { Db, DbScope, Executor } from '../../db/database';
import { jsonRows, toJson } from '../../db/json';
import { preparedQuery } from '../../db/prepared-query';
import { inTransaction } from '../../db/write-atomically';
import { toStorableText } from '../../lib/storable-text';
import { touchConversation } from '../chat/conversations.repository';
import { MESSAGE_COLUMNS, type MessageRow } from '../chat/messages.repository';
import { LIVE_REPLY_STATES, type ReplyEnd } from './reply-lifecycle';

// Every write here is a transition of reply-lifecycle.ts: each is guarded by the live states in SQL, so a reply
// that has ended (finished by its writer, or swept as interrupted) is never written again.

const LIVE_SQL = sql.join(LIVE_REPLY_STATES.map((state) => sql.lit(state)));

/** A reply's text so far, saved while it is written, so a crash loses at most the time since. */
const checkpoint = preparedQuery((db, v: { id: number; content: string; now: string }) =>
  db
    .updateTable('messages')
    .set({ content: v.content, updated_at: v.now })
    .where('id', '=', v.id)
    .where('status', 'in', LIVE_REPLY_STATES),
);

const touchReplies = (db: Executor, ids: number[], now: string) =>
  db
    .updateTable('messages')
    .set({ updated_at: now })
    .where('id', 'in', ids)
    .where('status', 'in', LIVE_REPLY_STATES)
    .execute();

// PostgreSQL: the rows of a group as one JSON parameter, so a group of any size is one (named) statement.
const checkpointManyPg = preparedQuery(
  (_, v: ReturnType<typeof jsonRows> & { now: string }) =>
    sql<never>`update messages set content = coalesce(r.content, messages.content), updated_at = ${v.now}
    from jsonb_to_recordset(${v.rows}::jsonb) as r(id integer, content text)
    where messages.id = r.id and messages.id = any(${v.ids}::integer[]) and messages.status in (${LIVE_SQL})`,
);

/**
 * The text so far of replies being written (`content` null: no new text since the last checkpoint, only the
 * checkpoint's time, the heartbeat the stale-reply sweeper reads), so a crash loses at most the time since.
 * PostgreSQL: one statement for them all, needing no transaction; SQLite: one per reply, one commit for them all.
 */
export async function checkpointReplies(db: Db, replies: { id: number; content: string | null }[], now: string) {
  const stored = replies.map(({ id, content }) => ({ id, content: content === null ? null : toStorableText(content) }));
  if (db.kind === 'postgres') return void (await checkpointManyPg(db.kysely, { ...jsonRows(stored), now }));
  await db.kysely.transaction().execute(async (tx) => {
    for (const { id, content } of stored) if (content !== null) await checkpoint(tx, { id, content, now });
    const unchanged = stored.filter((r) => r.content === null).map((r) => r.id);
    if (unchanged.length) await touchReplies(tx, unchanged, now);
  });
}

/**
 * The reply waits for the person's answer to a tool call (decision 0038): its steps so far (the waiting call
 * among them, with its id) and its text are saved with the state, so a reload shows the call and its buttons.
 */
export const awaitApproval = (
  db: Executor,
  v: { id: number; content: string; steps: readonly ReplyStep[]; now: string },
) =>
  db
    .updateTable('messages')
    .set({ status: 'awaiting_approval', content: toStorableText(v.content), steps: toJson(v.steps), updated_at: v.now })
    .where('id', '=', v.id)
    .where('status', '=', 'streaming')
    .execute();

/** The call was decided (or the wait ended): the reply is being written again. */
export const resumeAfterApproval = (db: Executor, id: number, now: string) =>
  db
    .updateTable('messages')
    .set({ status: 'streaming', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'awaiting_approval')
    .execute();

export interface FinishedReply {
  content: string;
  status: ReplyEnd;
  sources: Source[];
  steps: ReplyStep[];
  inputTokens: number | null;
  outputTokens: number | null;
  firstTokenMs: number | null;
  replyMs: number;
  /** The model id that wrote it (`connectionId/model`); null or left out offline. */
  model?: string | null;
}

const finishValues = ({ id, reply, now }: { id: number; reply: FinishedReply; now: string }) => ({
  id,
  content: toStorableText(reply.content),
  status: reply.status,
  sources: reply.sources.length ? reply.sources : null,
  steps: reply.steps.length ? reply.steps : null,
  input_tokens: reply.inputTokens,
  output_tokens: reply.outputTokens,
  first_token_ms: reply.firstTokenMs,
  reply_ms: reply.replyMs,
  model: reply.model ?? null,
  updated_at: now,
});
type FinishValues = ReturnType<typeof finishValues>;

const finish = preparedQuery(
  (db, v: Omit<FinishValues, 'sources' | 'steps'> & { sources: string | null; steps: string | null }) =>
    db
      .updateTable('messages')
      .set({
        content: v.content,
        status: v.status,
        sources: v.sources,
        steps: v.steps,
        input_tokens: v.input_tokens,
        output_tokens: v.output_tokens,
        first_token_ms: v.first_token_ms,
        reply_ms: v.reply_ms,
        model: v.model,
        updated_at: v.updated_at,
      })
      .where('id', '=', v.id)
      .where('status', 'in', LIVE_REPLY_STATES)
      .returning(MESSAGE_COLUMNS),
);

const finishManyPg = preparedQuery(
  (_, v: ReturnType<typeof jsonRows> & { conversationIds: number[] }) =>
    sql<MessageRow>`with finished as (
      update messages set content = r.content, status = r.status, sources = r.sources, steps = r.steps,
        input_tokens = r.input_tokens, output_tokens = r.output_tokens, first_token_ms = r.first_token_ms,
        reply_ms = r.reply_ms, model = r.model, updated_at = r.updated_at
      from jsonb_to_recordset(${v.rows}::jsonb) as r(id integer, content text, status text, sources jsonb,
        steps jsonb, input_tokens integer, output_tokens integer, first_token_ms integer, reply_ms integer,
        model varchar, updated_at timestamptz)
      where messages.id = r.id and messages.id = any(${v.ids}::integer[])
        and messages.status in (${LIVE_SQL})
      returning ${sql.join(MESSAGE_COLUMNS.map((column) => sql.ref(`messages.${column}`)))}
    ), touched as (
      update conversations set updated_at = finished.updated_at from finished
      where conversations.id = finished.conversation_id and conversations.id = any(${v.conversationIds}::integer[])
    )
    select * from finished`,
);

/** Saves finished replies and marks their conversations active; answers the saved rows by id. */
async function finishRows(
  { kysely: db, kind }: DbScope,
  replies: { id: number; conversationId: number; reply: FinishedReply; now: string }[],
): Promise<Map<number, MessageRow>> {
  const values = replies.map(finishValues);
  const rows: MessageRow[] = [];
  if (kind === 'postgres') {
    const conversationIds = replies.map((reply) => reply.conversationId);
    rows.push(...(await finishManyPg(db, { ...jsonRows(values), conversationIds })));
  } else {
    for (const v of values) {
      const [row] = await finish(db, {
        ...v,
        sources: v.sources && toJson(v.sources),
        steps: v.steps && toJson(v.steps),
      });
      if (!row) continue;
      await touchConversation(db, row.conversation_id, v.updated_at);
      rows.push(row);
    }
  }
  return new Map(rows.map((row) => [row.id, row]));
}

/** A reply's row that the model wrote nothing into goes: nothing to show, nothing to resume. */
const deleteEmptyReply = (db: Executor, id: number) =>
  db.deleteFrom('messages').where('id', '=', id).where('status', 'in', LIVE_REPLY_STATES).execute();

/** The other replies to a question leave the active branch for a regenerated one (`keepId`); they stay versions. */
const deactivateRepliesTo = (db: Executor, messageId: number, keepId: number) =>
  db
    .updateTable('messages')
    .set({ active: false })
    .where('parent_id', '=', messageId)
    .where('role', '=', 'assistant')
    .where('id', '!=', keepId)
    .execute();

export interface ReplyToFinish {
  id: number;
  conversationId: number;
  reply: FinishedReply;
  now: string;
  /** Regenerating: the other replies to this question leave the active branch (as versions) once this one is saved. */
  replacesRepliesTo: number | null;
}

/**
 * Ends replies together (group commit): each one's saved row; null when it had no text (its row removed);
 * undefined when its row is gone or had already ended (deleted with its conversation, swept as interrupted).
 * Only once a regenerated reply is saved do the earlier replies leave the branch, so a regeneration that fails
 * before writing anything leaves the previous reply in place. PostgreSQL, when every reply has text and none replaces
 * another: one statement, atomic by itself, without the round trips of BEGIN and COMMIT that each reply's `done`
 * would wait for.
 */
export function finishReplies(db: Db, group: ReplyToFinish[]): Promise<(MessageRow | null | undefined)[]> {
  const run = async (scope: DbScope) => {
    for (const r of group) if (!r.reply.content) await deleteEmptyReply(scope.kysely, r.id);
    const rows = await finishRows(
      scope,
      group.filter((r) => r.reply.content),
    );
    const results: (MessageRow | null | undefined)[] = [];
    for (const r of group) {
      const row = r.reply.content ? rows.get(r.id) : null;
      if (row && r.replacesRepliesTo !== null) await deactivateRepliesTo(scope.kysely, r.replacesRepliesTo, r.id);
      results.push(row);
    }
    return results;
  };
  const oneStatement = db.kind === 'postgres' && group.every((r) => r.reply.content && r.replacesRepliesTo === null);
  return oneStatement ? run(db) : inTransaction(db, run);
}

/**
 * Replies still live (`streaming`, or `awaiting_approval`: its instance checkpoints it all the same) whose last checkpoint is older than `staleBefore` lost the instance writing them
 * (a crash, a kill): they keep what had streamed and are marked `interrupted`, so the user can retry. A live
 * reply checkpoints every second, so this is safe with several instances sharing the database. Returns the
 * marked rows, whose readers and conversations the sweeper then lets go.
 */
export const markStaleRepliesInterrupted = (db: Executor, staleBefore: string): Promise<MessageRow[]> =>
  db
    .updateTable('messages')
    .set({ status: 'interrupted' })
    // Literal states: what the index of live replies holds (migration 0029), which the planner must see.
    .where(sql<boolean>`status in (${LIVE_SQL})`)
    .where('updated_at', '<', staleBefore)
    .returning(MESSAGE_COLUMNS)
    .execute();

/** Those of `conversationIds` with a reply still being written. */
export async function conversationsWithLiveReplies(db: Executor, conversationIds: number[]) {
  if (conversationIds.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom('messages')
    .select('conversation_id')
    .where('conversation_id', 'in', conversationIds)
    .where('status', 'in', LIVE_REPLY_STATES)
    .execute();
  return new Set(rows.map((r) => r.conversation_id));
}
