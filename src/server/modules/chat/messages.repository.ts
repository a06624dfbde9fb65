import { sql, type QueryCreator, type Selectable } from 'kysely';
import type {
  Attachment,
  Message,
  MessageRole,
  MessageStatus,
  ReplyStep,
  Source,
  Support,
} from '@shared/contracts/chat';
import { modelNameOf } from '../../ai/model-catalog';
import type { Database, DbScope, MessagesTable } from '../../db/database';
import { fromJson, toJson } from '../../db/json';
import { toStorableText } from '../../lib/storable-text';
import { preparedQuery } from '../../db/prepared-query';
import { touchConversation, touchConversationQuery } from './conversations.repository';
import { groupedOpenings } from './reply-openings';
import type { Executor } from '../../db/database';

export type MessageRow = Selectable<MessagesTable>;

/**
 * The columns a message is read with, every one of MessagesTable's: never `*`, which would also bring whatever a
 * migration adds for another reader (PostgreSQL's search vector was such a column until migration 0028, and
 * doubled the time to read ten 200-word messages).
 */
const MESSAGE_COLUMN_SET: Record<keyof MessagesTable, true> = {
  id: true,
  conversation_id: true,
  user_id: true,
  role: true,
  content: true,
  status: true,
  created_at: true,
  updated_at: true,
  sources: true,
  steps: true,
  file_ids: true,
  input_tokens: true,
  output_tokens: true,
  first_token_ms: true,
  reply_ms: true,
  parent_id: true,
  active: true,
  bot_version: true,
  rating: true,
  rating_comment: true,
  rated_at: true,
  model: true,
  support: true,
};
export const MESSAGE_COLUMNS = Object.keys(MESSAGE_COLUMN_SET) as (keyof MessagesTable)[];

/**
 * What the model's memory of a conversation needs of a message, read on every reply: not its sources, steps,
 * usage or rating (a researched reply's sources are kilobytes of JSON).
 */
export const CONTEXT_COLUMNS = ['id', 'role', 'content', 'status'] as const satisfies (keyof MessagesTable)[];
export type ContextRow = Pick<MessageRow, (typeof CONTEXT_COLUMNS)[number]>;

const listOf = <T>(value: unknown): T[] => (value == null ? [] : (fromJson(value) as T[]));

export const fileIdsOf = (row: Pick<MessageRow, 'file_ids'>) => listOf<number>(row.file_ids);

/** The versions of each user message: its siblings (same parent) in id order, keyed by parent id (0: none). */
export type VersionsByParent = ReadonlyMap<number, number[]>;

const parentKey = (parentId: number | null) => parentId ?? 0;

/**
 * `attachments` maps the ids of files the messages carried to what the client shows of them; `versions`
 * (findVersions) gives user messages their version switcher.
 */
export function toMessage(
  row: MessageRow,
  attachments: ReadonlyMap<number, Attachment> = new Map(),
  versions?: VersionsByParent,
): Message {
  const siblings = versions?.get(parentKey(row.parent_id));
  // A reply lists its versions once it has several (regenerated); a user message always does (see messageSchema).
  const ids = row.role === 'user' || (siblings?.length ?? 0) > 1 ? siblings : undefined;
  return {
    ...(ids ? { versions: { index: ids.indexOf(row.id), count: ids.length, ids } } : {}),
    id: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    status: row.status as MessageStatus,
    createdAt: row.created_at,
    sources: listOf<Source>(row.sources),
    steps: listOf<ReplyStep>(row.steps),
    attachments: fileIdsOf(row).flatMap((id) => attachments.get(id) ?? []),
    // Replies only: the model's name as its server calls it (the stored id also names the connection).
    ...(row.model === null ? {} : { model: modelNameOf(row.model) }),
    // Replies with sources, once checked against them (decision 0044).
    ...(row.support == null ? {} : { support: fromJson(row.support) as Support }),
  };
}

/** A reply's support check, saved once it is done; the reply itself is never touched again by it. */
export async function saveSupport(db: Executor, messageId: number, support: Support) {
  await db
    .updateTable('messages')
    .set({ support: toJson(support) })
    .where('id', '=', messageId)
    .execute();
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

/**
 * The versions of messages (siblings under the same parent): a user message's edits, a reply's regenerations. A
 * parent's children all have one role (a question's are replies, a reply's are the next questions).
 */
const versionsOf = preparedQuery((db, v: { conversationId: number; parentId: number }) =>
  db
    .selectFrom('messages')
    .select(['id', 'parent_id'])
    .where('conversation_id', '=', v.conversationId)
    .where('parent_id', '=', v.parentId)
    .orderBy('id'),
);

export async function findVersions(db: Executor, conversationId: number, rows: readonly MessageRow[]) {
  const parents = [...new Set(rows.map((r) => r.parent_id))];
  const versions = new Map<number, number[]>();
  if (!parents.length) return versions;
  const ids = parents.filter((p) => p !== null);
  // One message after another (each reply's question): the same statement each time.
  const siblings =
    parents.length === 1 && ids.length === 1
      ? await versionsOf(db, { conversationId, parentId: ids[0]! })
      : await db
          .selectFrom('messages')
          .select(['id', 'parent_id'])
          .where('conversation_id', '=', conversationId)
          .where(({ eb, or }) =>
            or([
              ...(ids.length ? [eb('parent_id', 'in', ids)] : []),
              ...(parents.includes(null) ? [eb('parent_id', 'is', null)] : []),
            ]),
          )
          .orderBy('id')
          .execute();
  for (const s of siblings)
    versions.set(parentKey(s.parent_id), [...(versions.get(parentKey(s.parent_id)) ?? []), s.id]);
  return versions;
}

export interface NewMessage {
  conversationId: number;
  /** The message before it on its branch: the active branch's last, or (an edit) the edited message's parent. */
  parentId: number | null;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  fileIds?: number[];
  /**
   * A reply: the version of its bot that answers it (the owner's latest, or the published one for everyone else),
   * so ratings, the feedback log and insights know which version answered.
   */
  botVersion?: number;
}

/** A message's values as they are bound: its text made storable, its files as JSON. */
const messageValues = (m: NewMessage, now: string) => ({
  conversationId: m.conversationId,
  parentId: m.parentId,
  role: m.role,
  content: toStorableText(m.content),
  status: m.status,
  now,
  fileIds: m.fileIds?.length ? toJson(m.fileIds) : null,
});
type MessageValues = ReturnType<typeof messageValues>;
/** A reply's values, and the version of its bot that answers it. */
type ReplyValues = MessageValues & { botVersion: number };

const insertMessageQuery = (db: QueryCreator<Database>, v: MessageValues, botVersion?: number) =>
  db
    .insertInto('messages')
    .values(({ selectFrom }) => ({
      conversation_id: v.conversationId,
      parent_id: v.parentId,
      role: v.role,
      content: v.content,
      status: v.status,
      created_at: v.now,
      updated_at: v.now,
      file_ids: v.fileIds,
      // What the messages_user_id trigger would fill in (migration 0010); on SQLite that trigger rewrites the
      // row just inserted, a second write of the row and its index entries on the way to a reply.
      user_id: selectFrom('conversations').select('user_id').where('id', '=', v.conversationId),
      ...(botVersion === undefined ? {} : { bot_version: botVersion }),
    }))
    .returning(MESSAGE_COLUMNS);

const insertPlain = preparedQuery((db, v: MessageValues) => insertMessageQuery(db, v));
const insertStamped = preparedQuery((db, v: ReplyValues) => insertMessageQuery(db, v, v.botVersion));

export async function insertMessage(db: Executor, m: NewMessage, now: string) {
  const v = messageValues(m, now);
  const [row] = await (m.botVersion === undefined
    ? insertPlain(db, v)
    : insertStamped(db, { ...v, botVersion: m.botVersion }));
  return row!;
}

/** A reply's row as it starts: empty, streaming, after its question, stamped with the version that answers. */
export const newReply = (conversationId: number, questionId: number, botVersion: number): NewMessage => ({
  conversationId,
  parentId: questionId,
  role: 'assistant',
  content: '',
  status: 'streaming',
  botVersion,
});

// PostgreSQL: the message's insert also marks the conversation active (a CTE whose name only adds a table the
// insert never reads) and, for a reply, inserts the reply's row from the message's RETURNING row.
const touching = (db: Executor, v: MessageValues) =>
  db.with('touched', (qc) =>
    touchConversationQuery(qc, v.conversationId, v.now).returning('id'),
  ) as unknown as QueryCreator<Database>;

/** INSERT … SELECT of a message: the columns every new message fills, then its own (files, or the bot's version). */
const INSERTED_COLUMNS = [
  'conversation_id',
  'parent_id',
  'user_id',
  'role',
  'content',
  'status',
  'created_at',
  'updated_at',
] as const;
/** The values of INSERTED_COLUMNS that the caller gives, in their order, after the first three. */
const insertedValues = (v: Pick<MessageValues, 'role' | 'content' | 'status' | 'now'>) => [
  sql.val(v.role).as('role'),
  sql.val(v.content).as('content'),
  sql.val(v.status).as('status'),
  sql.val(v.now).as('created_at'),
  sql.val(v.now).as('updated_at'),
];

/**
 * PostgreSQL: a user message inserted at the end of the active branch only while `parentId` still is its end
 * (an edit's place is freed by deactivateFrom first): the message's parent was read before (the model's memory,
 * possibly before the conversation's reply lock), and two messages on the same parent would fork the branch.
 * No row when it is no longer the end. The owner's id comes with the conversation's row.
 */
const insertAtBranchEnd = (db: QueryCreator<Database>, v: MessageValues) =>
  db
    .insertInto('messages')
    .columns([...INSERTED_COLUMNS, 'file_ids'])
    .expression((eb) =>
      eb
        .selectFrom('conversations')
        .select((s) => [
          'conversations.id',
          s.val(v.parentId).as('parent_id'),
          'conversations.user_id',
          ...insertedValues(v),
          s.val(v.fileIds).as('file_ids'),
        ])
        .where('conversations.id', '=', v.conversationId)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('messages as later')
                .select('later.id')
                .whereRef('later.conversation_id', '=', 'conversations.id')
                .where('later.active', '=', true)
                .where('later.id', '>', sql<number>`coalesce(${v.parentId}::integer, 0)`),
            ),
          ),
        ),
    )
    .returning(MESSAGE_COLUMNS);

const insertTouchingPg = preparedQuery((db, v: MessageValues) => insertAtBranchEnd(touching(db, v), v));

const insertWithReplyPg = preparedQuery((db, v: ReplyValues) => {
  const reply = messageValues(newReply(0, 0, 0), v.now);
  return (
    touching(db, v)
      .with('question', (qc) => insertAtBranchEnd(qc, v))
      .with('reply', (qc) =>
        qc
          .insertInto('messages')
          .columns([...INSERTED_COLUMNS, 'bot_version'])
          .expression((eb) =>
            eb
              .selectFrom('question')
              .select([
                'question.conversation_id',
                'question.id',
                'question.user_id',
                ...insertedValues(reply),
                sql<number>`${v.botVersion}::integer`.as('bot_version'),
              ]),
          )
          .returning('id'),
      )
      .selectFrom(['question', 'reply'])
      .selectAll('question')
      .select('reply.id as reply_id')
      // The message's versions (findVersions) read in the same statement; they cannot see the message itself,
      // inserted by the statement, which is the last of them.
      .select((eb) =>
        eb
          .selectFrom('messages as sibling')
          .select(sql<number[]>`coalesce(json_agg(sibling.id order by sibling.id), '[]')`.as('ids'))
          .whereRef('sibling.conversation_id', '=', 'question.conversation_id')
          .where('sibling.role', '=', 'user')
          .where(sql<boolean>`sibling.parent_id is not distinct from question.parent_id`)
          .as('earlier_versions'),
      )
  );
});

/** Replies that start in the same turn open in one statement (reply-openings.ts). */
const openReplyPg = groupedOpenings(async (db, v: ReplyValues) => (await insertWithReplyPg(db, v))[0], MESSAGE_COLUMNS);

/**
 * insertMessage that also marks the conversation active at `now` and, given `replyVersion`, saves the reply's row
 * (newReply) after it. On PostgreSQL one statement (data-modifying CTEs): each is a round trip less on the way
 * to a reply's first token. The reply is inserted from the message's RETURNING row, so its id is drawn after
 * the message's and it sorts after it. SQLite has no such CTEs and no round trips. Null on PostgreSQL when
 * `m.parentId` is no longer the end of the active branch (insertAtBranchEnd); SQLite's callers read the parent
 * in the same transaction, which no other writer can enter.
 */
export async function insertMessageTouching(
  { kysely: db, kind }: DbScope,
  m: NewMessage,
  now: string,
  replyVersion?: number,
): Promise<{ row: MessageRow; replyId?: number; versions?: VersionsByParent } | null> {
  const v = messageValues(m, now);
  if (kind === 'postgres') {
    if (replyVersion === undefined) {
      const [row] = await insertTouchingPg(db, v);
      return row ? { row } : null;
    }
    const inserted = await openReplyPg(db, { ...v, botVersion: replyVersion });
    if (!inserted) return null;
    const { reply_id: replyId, earlier_versions: earlier, ...row } = inserted;
    const versions = new Map([[parentKey(row.parent_id), [...(earlier ?? []), row.id]]]);
    return { row, replyId, versions };
  }
  const [row] = await insertPlain(db, v);
  const reply =
    replyVersion === undefined
      ? undefined
      : await insertMessage(db, newReply(m.conversationId, row!.id, replyVersion), now);
  await touchConversation(db, m.conversationId, now);
  return { row: row!, replyId: reply?.id };
}
