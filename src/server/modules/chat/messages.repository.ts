import type { Selectable } from 'kysely';
import type { Attachment, Message, MessageRole, MessageStatus, ReplyStep, Source } from '@shared/contracts/chat';
import type { MessagesTable } from '../../db/database';
import { fromJson, toJson } from '../../db/json';
import { toStorableText } from '../../lib/storable-text';
import type { Executor } from '../../db/database';

export type MessageRow = Selectable<MessagesTable>;

const listOf = <T>(value: unknown): T[] => (value == null ? [] : (fromJson(value) as T[]));

export const fileIdsOf = (row: Pick<MessageRow, 'file_ids'>) => listOf<number>(row.file_ids);

/** `attachments` maps the ids of files the messages carried to what the client shows of them. */
export function toMessage(row: MessageRow, attachments: ReadonlyMap<number, Attachment> = new Map()): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    sources: listOf<Source>(row.sources),
    steps: listOf<ReplyStep>(row.steps),
    attachments: fileIdsOf(row).flatMap((id) => attachments.get(id) ?? []),
  };
}

/** The files that `rows` carried, by id; a file deleted since is simply no longer listed. */
export async function findAttachments(db: Executor, rows: readonly MessageRow[]) {
  const ids = [...new Set(rows.flatMap(fileIdsOf))];
  if (!ids.length) return new Map<number, Attachment>();
  const files = await db
    .selectFrom('files')
    .select(['id', 'name', 'media_type', 'size'])
    .where('id', 'in', ids)
    .execute();
  return new Map<number, Attachment>(
    files.map((f) => [f.id, { id: f.id, name: f.name, mediaType: f.media_type, size: f.size }]),
  );
}

/** How many of `ids` are files attached to this conversation. */
export async function countConversationFiles(db: Executor, conversationId: number, ids: number[]) {
  const found = await db
    .selectFrom('files')
    .select('id')
    .where('conversation_id', '=', conversationId)
    .where('id', 'in', ids)
    .execute();
  return found.length;
}

export interface NewMessage {
  conversationId: number;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  fileIds?: number[];
}

export const insertMessage = (db: Executor, m: NewMessage, now: string) =>
  db
    .insertInto('messages')
    .values({
      conversation_id: m.conversationId,
      role: m.role,
      content: toStorableText(m.content),
      status: m.status,
      created_at: now,
      updated_at: now,
      file_ids: m.fileIds?.length ? toJson(m.fileIds) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** A reply's text so far, saved while it is written, so a crash loses at most the time since. */
export const checkpointReply = (db: Executor, id: number, content: string, now: string) =>
  db
    .updateTable('messages')
    .set({ content: toStorableText(content), updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'streaming')
    .execute();

export interface FinishedReply {
  content: string;
  status: MessageStatus;
  sources: Source[];
  steps: ReplyStep[];
  inputTokens: number | null;
  outputTokens: number | null;
  firstTokenMs: number | null;
  replyMs: number;
}

export const finishReply = (db: Executor, id: number, reply: FinishedReply, now: string) =>
  db
    .updateTable('messages')
    .set({
      content: toStorableText(reply.content),
      status: reply.status,
      sources: reply.sources.length ? toJson(reply.sources) : null,
      steps: reply.steps.length ? toJson(reply.steps) : null,
      input_tokens: reply.inputTokens,
      output_tokens: reply.outputTokens,
      first_token_ms: reply.firstTokenMs,
      reply_ms: reply.replyMs,
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export const deleteMessage = (db: Executor, id: number) => db.deleteFrom('messages').where('id', '=', id).execute();

/**
 * Replies still `streaming` whose last checkpoint is older than `staleBefore` lost the instance writing them
 * (a crash, a kill): they keep what had streamed and are marked `interrupted`, so the user can retry. A live
 * reply checkpoints every second, so this is safe with several instances sharing the database.
 */
export const markStaleRepliesInterrupted = (db: Executor, staleBefore: string) =>
  db
    .updateTable('messages')
    .set({ status: 'interrupted' })
    .where('status', '=', 'streaming')
    .where('updated_at', '<', staleBefore)
    .executeTakeFirst();

/** In the order they were written; ids order messages saved within the same instant. */
export const findMessages = (db: Executor, conversationId: number) =>
  db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId).orderBy('id', 'asc').execute();

export const findLastMessage = (db: Executor, conversationId: number, role?: MessageRole) => {
  let query = db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId);
  if (role) query = query.where('role', '=', role);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
};

/**
 * The last `limit` messages before `beforeId`, oldest first, as the model's memory of the conversation.
 * Failed replies are left out: the user was told they failed, so they are not part of the exchange.
 */
export async function findContextMessages(db: Executor, conversationId: number, beforeId: number, limit: number) {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('id', '<', beforeId)
    .where('status', 'not in', ['failed', 'streaming'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The replies written after a user message, which a regenerated reply (`keepId`) replaces. */
export const deleteRepliesAfter = (db: Executor, conversationId: number, messageId: number, keepId: number) =>
  db
    .deleteFrom('messages')
    .where('conversation_id', '=', conversationId)
    .where('role', '=', 'assistant')
    .where('id', '>', messageId)
    .where('id', '!=', keepId)
    .execute();
