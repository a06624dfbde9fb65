import {
  CHAT_MESSAGES,
  conversationTitle,
  type Conversation,
  type ConversationPage,
  type ConversationSearchResult,
  type ConversationSummary,
  type CreateConversationBody,
} from '@shared/contracts/chat';
import type { Executor } from '../../db/database';
import { isoNow } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { requireUsableBot } from '../bots/sharing.service';
import type { ChatDeps } from './chat-deps';
import {
  deleteConversationWithMessages,
  findConversationPage,
  findConversationsOfBot,
  findConversationSummaries,
  findEmptyLatestConversation,
  findOwnedConversation,
  findOwnedConversationSummary,
  insertConversation,
  toConversation,
  toConversationSummary,
  updateConversationTitle,
  type ConversationCursor,
  type ConversationRow,
} from './conversations.repository';
import { findMessageTexts, findSearchHits, highlight, indexMessages, searchTermsOf } from './search.repository';

/** The caller's conversation, or 404 whether it is missing or someone else's. */
export async function requireConversation(
  db: Executor,
  userId: number,
  conversationId: number,
): Promise<ConversationRow> {
  const row = await findOwnedConversation(db, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return row;
}

/**
 * The bot's latest conversation while it has no message yet, else a new one (decisions §1: opening a chat
 * no longer piles up empty conversations). `created` tells the route which it was. A title the client gives
 * (other than the default one) is the user's.
 */
export async function openConversation(
  deps: ChatDeps,
  userId: number,
  body: CreateConversationBody,
): Promise<{ conversation: Conversation; created: boolean }> {
  const at = isoNow(deps.clock);
  return deps.db.kysely.transaction().execute(async (tx) => {
    const bot = await requireUsableBot(tx, userId, body.botId);
    if (!bot.active) throw new AppError('CONFLICT', CHAT_MESSAGES.botInactive);
    const defaultTitle = conversationTitle(bot.name);
    const named = body.title && body.title !== defaultTitle ? body.title : null;
    const empty = await findEmptyLatestConversation(tx, userId, bot.id);
    if (empty) {
      const row = named ? await updateConversationTitle(tx, empty.id, named, 'user') : empty;
      return { conversation: toConversation(row), created: false };
    }
    const row = await insertConversation(
      tx,
      { botId: bot.id, userId, title: named ?? defaultTitle, titleSource: named ? 'user' : 'default' },
      at,
    );
    return { conversation: toConversation(row), created: true };
  });
}

const encodeCursor = (c: ConversationCursor) => Buffer.from(JSON.stringify([c.updatedAt, c.id])).toString('base64url');

function decodeCursor(cursor: string): ConversationCursor {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof updatedAt === 'string' && Number.isSafeInteger(id)) return { updatedAt, id: id as number };
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('BAD_REQUEST', CHAT_MESSAGES.cursorInvalid);
}

/** The History list: the caller's conversations with a message, across bots, most recently active first. */
export async function listConversationPage(
  deps: ChatDeps,
  userId: number,
  query: { cursor?: string; limit: number },
): Promise<ConversationPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await findConversationPage(deps.db.kysely, userId, cursor, query.limit + 1);
  const items = rows.slice(0, query.limit).map(toConversationSummary);
  const last = items.at(-1);
  return {
    items,
    nextCursor: rows.length > query.limit && last ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
  };
}

/** Matching messages looked at per conversation asked for: enough that a few busy conversations do not crowd out the rest. */
const HITS_PER_RESULT = 10;

/**
 * Full-text search of the caller's conversation titles and messages (active branches), one result per
 * conversation, most recently active first, with the newest matching message when a message matched.
 */
export async function searchConversations(
  deps: ChatDeps,
  userId: number,
  query: { q: string; limit: number },
): Promise<{ results: ConversationSearchResult[] }> {
  const terms = searchTermsOf(query.q);
  if (!terms.length) return { results: [] };
  // Saved messages wait for the indexer (migration 0013); a search indexes them first, so it misses none.
  await indexMessages(deps.db, { untilIndexed: true });
  const db = deps.db.kysely;
  const hits = await findSearchHits(deps.db, userId, terms, query.limit * HITS_PER_RESULT);
  const messageOf = new Map<number, number>();
  for (const hit of hits.messages)
    if (!messageOf.has(hit.conversationId)) messageOf.set(hit.conversationId, hit.messageId);
  const ids = [...new Set([...messageOf.keys(), ...hits.titles])];
  const conversations = (await findConversationSummaries(db, userId, ids))
    .map(toConversationSummary)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
    .slice(0, query.limit);
  const texts = await findMessageTexts(
    db,
    conversations.flatMap((c) => messageOf.get(c.id) ?? []),
  );
  return {
    results: conversations.map((conversation) => {
      const messageId = messageOf.get(conversation.id) ?? null;
      const text = messageId === null ? undefined : texts.get(messageId);
      const snippet = text === undefined ? highlight(conversation.title, terms, true) : highlight(text, terms);
      return { conversation, messageId: text === undefined ? null : messageId, snippet };
    }),
  };
}

export async function listConversations(deps: ChatDeps, userId: number, botId: number): Promise<Conversation[]> {
  await requireUsableBot(deps.db.kysely, userId, botId);
  return (await findConversationsOfBot(deps.db.kysely, userId, botId)).map(toConversation);
}

/** With its bot's name and icon, which stay readable once the bot is no longer shared with the caller. */
export async function getConversation(
  deps: ChatDeps,
  userId: number,
  conversationId: number,
): Promise<ConversationSummary> {
  const row = await findOwnedConversationSummary(deps.db.kysely, userId, conversationId);
  if (!row) throw notFound('Conversation');
  return toConversationSummary(row);
}

/** A user's title is never replaced by an automatic one. */
export async function renameConversation(deps: ChatDeps, userId: number, conversationId: number, title: string) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  return toConversation(await updateConversationTitle(deps.db.kysely, conversationId, title, 'user'));
}

export async function deleteConversation(deps: ChatDeps, userId: number, conversationId: number) {
  await requireConversation(deps.db.kysely, userId, conversationId);
  await deps.replies.stop(conversationId);
  await deps.db.kysely.transaction().execute((tx) => deleteConversationWithMessages(tx, conversationId));
  return { message: CHAT_MESSAGES.conversationDeleted };
}

/** How often messages saved since are written into the full-text index (SQLite, migration 0013). */
export const SEARCH_INDEX_MS = 1_000;

export const indexNewMessages = (deps: Pick<ChatDeps, 'db'>) => indexMessages(deps.db);
