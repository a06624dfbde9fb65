import { conversationTitle, type ChatStreamEvent, type Message, type Source } from '@shared/contracts/chat';
import { normalizeOrigin } from '@shared/contracts/bot-sharing';
import {
  DEFAULT_WIDGET_APPEARANCE,
  widgetAppearanceSchema,
  type WidgetAppearance,
  type WidgetConfig,
  type WidgetConversations,
  type WidgetMessage,
  type WidgetSource,
  type WidgetStreamEvent,
} from '@shared/contracts/widget';
import { VISITOR_KEY_PATTERN, WIDGET_MESSAGES } from '@shared/chat/widget-protocol';
import type { Executor } from '../../db/database';
import { isoNow } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { ReplyBot } from '../bots/bots.repository';
import { findAnyReplyBot, requireOwnedBot } from '../bots/bots.service';
import type { ChatDeps, ReplyDeps } from '../chat/chat-deps';
import { listMessages } from '../chat/messages.service';
import { beginReply } from '../chat/replies.service';
import {
  countWidgetQuestionsSince,
  findVisitorConversation,
  findWidgetAppearance,
  findWidgetConversation,
  findWidgetConversations,
  insertVisitorConversation,
  saveWidgetAppearance,
} from './widget.repository';

/** Where a widget request comes from: the embedding site's origin (as the widget page was given it) and the visitor's key. */
export interface WidgetCaller {
  origin: string | undefined;
  visitorKey: string | undefined;
}

const notAvailable = () => new AppError('NOT_FOUND', WIDGET_MESSAGES.notAvailable);

/**
 * The bot when `origin` may embed it: shared (link or public) and listed by its owner. Anything else, a
 * missing bot included, is the same 404, so a site learns nothing about bots it may not embed.
 */
export async function requireEmbeddableBot(deps: ChatDeps, botId: number, origin: string | undefined) {
  const bot = await findAnyReplyBot(deps.db.kysely, botId);
  const normalized = origin ? normalizeOrigin(origin) : null;
  if (!bot || !normalized) throw notAvailable();
  if (bot.sharing.visibility === 'private' || !bot.sharing.embedOrigins.includes(normalized)) throw notAvailable();
  return { bot, origin: normalized };
}

function visitorHashOf(key: string | undefined): string {
  if (!key || !VISITOR_KEY_PATTERN.test(key)) throw new AppError('BAD_REQUEST', WIDGET_MESSAGES.visitorKey);
  return hashToken(key);
}

const toWidgetSource = (s: Source): WidgetSource => ({
  n: s.n,
  kind: s.kind,
  title: s.title,
  url: s.url,
  page: s.page,
});

const toWidgetMessage = (m: Message): WidgetMessage => ({
  id: m.id,
  role: m.role,
  content: m.content,
  status: m.status,
  createdAt: m.createdAt,
  sources: m.sources.map(toWidgetSource),
  ...(m.support ? { support: m.support } : {}),
});

/** A reply's events as a widget visitor is sent them: its messages and sources without the owner's ids. */
export function toWidgetEvent(event: ChatStreamEvent): WidgetStreamEvent {
  switch (event.event) {
    case 'user-message':
      return { event: event.event, data: toWidgetMessage(event.data) };
    case 'done':
      return { event: event.event, data: event.data && toWidgetMessage(event.data) };
    case 'sources':
      return { event: event.event, data: { sources: event.data.sources.map(toWidgetSource) } };
    default:
      return event;
  }
}

/** The visitor's conversation with the bot (their key's, nobody else's); empty before their first question. */
export async function visitorMessages(deps: ChatDeps, botId: number, caller: WidgetCaller) {
  const { bot } = await requireEmbeddableBot(deps, botId, caller.origin);
  const conversation = await findVisitorConversation(deps.db.kysely, bot.id, visitorHashOf(caller.visitorKey));
  if (!conversation) return { messages: [] };
  const messages = await listMessages(deps, bot.userId, conversation.id);
  return { messages: messages.map(toWidgetMessage) };
}

const startOfUtcDay = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();

const secondsToUtcMidnight = (now: Date) =>
  Math.ceil((Date.parse(startOfUtcDay(now)) + 24 * 3600_000 - now.getTime()) / 1000);

/**
 * Refuses once the bot's widget visitors together asked its daily cap since midnight UTC. Two questions
 * arriving at the same instant may both pass at the edge: the cap bounds cost, it is not an exact quota.
 */
async function requireUnderDailyCap(deps: ChatDeps, bot: ReplyBot) {
  const now = deps.clock.now();
  const asked = await countWidgetQuestionsSince(deps.db.kysely, bot.id, startOfUtcDay(now));
  if (asked >= bot.sharing.embedDailyCap) {
    throw new AppError('RATE_LIMITED', WIDGET_MESSAGES.capReached, { retryAfter: secondsToUtcMidnight(now) });
  }
}

/**
 * A widget question, answered by the chat's own reply engine: the conversation belongs to the bot's owner
 * (channel `widget`, told apart by the visitor's key hash), so the bot's prompt, settings, knowledge and web
 * research apply exactly as in the app.
 */
export async function beginWidgetReply(deps: ReplyDeps, botId: number, caller: WidgetCaller, content: string) {
  const { bot } = await requireEmbeddableBot(deps, botId, caller.origin);
  const visitorHash = visitorHashOf(caller.visitorKey);
  await requireUnderDailyCap(deps, bot);
  const db = deps.db.kysely;
  const conversation =
    (await findVisitorConversation(db, bot.id, visitorHash)) ??
    (await insertVisitorConversation(
      db,
      { botId: bot.id, ownerId: bot.userId, visitorHash, title: conversationTitle(bot.name) },
      isoNow(deps.clock),
    ));
  const pending = await beginReply(deps, bot.userId, {
    conversationId: conversation.id,
    target: { kind: 'message', content },
    visitor: true,
  });
  return { conversationId: conversation.id, pending };
}

/** How many widget conversations the owner's list shows, most recent first. */
const OWNER_LIST_LIMIT = 100;

export async function listWidgetConversations(
  deps: ChatDeps,
  ownerId: number,
  botId: number,
): Promise<WidgetConversations> {
  const db = deps.db.kysely;
  const bot = await requireOwnedBot(db, ownerId, botId);
  const [rows, questionsToday] = await Promise.all([
    findWidgetConversations(db, bot.id, OWNER_LIST_LIMIT),
    countWidgetQuestionsSince(db, bot.id, startOfUtcDay(deps.clock.now())),
  ]);
  return {
    conversations: rows.map((r) => ({
      id: r.id,
      title: r.title,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      messageCount: Number(r.message_count),
    })),
    questionsToday,
    dailyCap: bot.sharing.embedDailyCap,
  };
}

export async function widgetConversationMessages(
  deps: ChatDeps,
  ownerId: number,
  botId: number,
  conversationId: number,
) {
  const db = deps.db.kysely;
  const bot = await requireOwnedBot(db, ownerId, botId);
  if (!(await findWidgetConversation(db, bot.id, conversationId))) throw notFound('Conversation');
  return listMessages(deps, ownerId, conversationId);
}

/** The stored appearance over the defaults; a value that no longer passes the contract reads as the defaults. */
async function appearanceOf(db: Executor, botId: number): Promise<WidgetAppearance> {
  const stored = await findWidgetAppearance(db, botId);
  const parsed = widgetAppearanceSchema.safeParse({ ...DEFAULT_WIDGET_APPEARANCE, ...(stored as object) });
  return parsed.success ? parsed.data : DEFAULT_WIDGET_APPEARANCE;
}

export async function getWidgetAppearance(deps: ChatDeps, ownerId: number, botId: number) {
  await requireOwnedBot(deps.db.kysely, ownerId, botId);
  return appearanceOf(deps.db.kysely, botId);
}

/** Only the fields sent change (already checked by the route's schema). */
export async function updateWidgetAppearance(
  deps: ChatDeps,
  ownerId: number,
  botId: number,
  changes: Partial<WidgetAppearance>,
): Promise<WidgetAppearance> {
  return deps.db.kysely.transaction().execute(async (tx) => {
    await requireOwnedBot(tx, ownerId, botId);
    const next = { ...(await appearanceOf(tx, botId)), ...changes };
    await saveWidgetAppearance(tx, botId, next);
    return next;
  });
}

/** The bot, the embedding origin and the widget's appearance, for a site that may embed the bot (else 404). */
export async function embeddableWidget(deps: ChatDeps, botId: number, origin: string | undefined) {
  const embeddable = await requireEmbeddableBot(deps, botId, origin);
  return { ...embeddable, appearance: await appearanceOf(deps.db.kysely, botId) };
}

/** What embed.js draws its launcher with, for a site that may embed the bot. */
export async function widgetConfig(deps: ChatDeps, botId: number, origin: string | undefined): Promise<WidgetConfig> {
  const { bot, appearance } = await embeddableWidget(deps, botId, origin);
  const { greeting: _greeting, starters: _starters, ...look } = appearance;
  return { ...look, title: look.title || bot.name };
}
