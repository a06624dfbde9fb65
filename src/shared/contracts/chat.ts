import { z } from 'zod';
import { CHAT_MESSAGE_MAX, CONVERSATION_TITLE_MAX, LIST_LIMIT_MAX } from '../constants';
import { bodyIdSchema } from './common';

export const CHAT_MESSAGES = {
  conversationNotFound: 'Conversation not found',
  conversationRequired: 'A conversation is required',
  botRequired: 'A bot is required',
  messageEmpty: 'Message cannot be empty',
  messageMax: `Message must be at most ${CHAT_MESSAGE_MAX} characters`,
  userRoleOnly: "Only messages with role 'user' can be posted; replies come from the bot",
  titleRequired: 'Title is required',
  titleMax: `Title must be at most ${CONVERSATION_TITLE_MAX} characters`,
  botInactive: 'This botty is inactive. Activate it to chat.',
  wrongBot: 'This conversation is with another botty.',
  replyRunning: 'A reply is already being written in this conversation. Stop it or wait for it to finish.',
  /** POST /api/conversations/{id}/tool-approvals, 409: answered before (an earlier answer, the timeout, a stop). */
  toolCallDecided: 'This tool call was already answered.',
  /** A tool step's `error` when nobody answered within TOOL_APPROVAL_TIMEOUT_MS. */
  toolNoAnswer: 'No answer came in time, so the tool did not run.',
  /** A tool step's `error` when the person denied the call. */
  toolDenied: 'You denied this call, so the tool did not run.',
  stopUnreachable:
    'The reply could not be stopped: the server writing it cannot be reached right now. It will finish on its own.',
  conversationChanged: 'The conversation changed while your message was being sent. Please send it again.',
  nothingToRegenerate: 'There is no message to reply to yet.',
  conversationDeleted: 'Conversation deleted',
  onlyUserMessagesEdit: 'Only your own messages can be edited.',
  editInactive: 'Switch to this version of the message before editing it.',
  botDeletedMidReply: 'This botty was deleted while it was answering.',
  conversationDeletedMidReply: 'This conversation was deleted while the botty was answering.',
  accountDeletedMidReply: 'Your account was deleted while the botty was answering.',
  searchEmpty: 'Type a word to search for',
  cursorInvalid: 'Cursor is not one this list gave out',
} as const;

/** Spec §9: the title every new conversation gets unless the client names it. */
export const conversationTitle = (botName: string) => `Conversation with ${botName}`;

/**
 * Where a conversation's title came from: `default` ('Conversation with {name}'), `auto` (named after its
 * subject once its first reply was written; decision 0014) or `user` (renamed; never renamed automatically).
 */
export const TITLE_SOURCES = ['default', 'auto', 'user'] as const;
export type TitleSource = (typeof TITLE_SOURCES)[number];

export const conversationSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  titleSource: z.enum(TITLE_SOURCES),
  createdAt: z.string(),
  /** The last message's time: lists are ordered by it. */
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** A conversation with the bot it is with: in History, in search results and from GET /api/conversations/{id}. */
export const conversationSummarySchema = conversationSchema.extend({
  bot: z.object({ id: z.number().int(), name: z.string(), icon: z.string() }),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/**
 * GET /api/conversations?cursor=&limit=: the caller's conversations with at least one message, across all
 * bots, most recently active first. Pass `nextCursor` back as `cursor` for the next page; null at the end.
 */
export const conversationPageSchema = z.object({
  items: z.array(conversationSummarySchema),
  nextCursor: z.string().nullable(),
});
export type ConversationPage = z.infer<typeof conversationPageSchema>;

const LIST_LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${LIST_LIMIT_MAX}`;
const listLimitSchema = z.coerce
  .number({ error: LIST_LIMIT_MESSAGE })
  .int(LIST_LIMIT_MESSAGE)
  .min(1, LIST_LIMIT_MESSAGE)
  .max(LIST_LIMIT_MAX, LIST_LIMIT_MESSAGE);
const cursorSchema = z.string().max(200, CHAT_MESSAGES.cursorInvalid);

export const conversationPageQuerySchema = z.object({
  cursor: cursorSchema.optional(),
  limit: listLimitSchema.default(30),
});

/**
 * GET /api/conversations/{id}/messages. Without `cursor` and `limit`: the whole active branch, oldest first
 * (the spec's call). With `limit`: the newest `limit` messages of the active branch before `cursor` (a
 * message id; none: from the end), still oldest first. The next (older) page's cursor is the first message's
 * id; a page shorter than `limit` is the beginning of the conversation.
 */
export const messagesQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,10}$/, CHAT_MESSAGES.cursorInvalid)
    .transform(Number)
    .optional(),
  limit: listLimitSchema.optional(),
});

/** POST /api/messages/{id}/activate?limit=: the newest `limit` messages of the branch made active; all without it. */
export const activateQuerySchema = z.object({ limit: listLimitSchema.optional() });

/** GET /api/conversations/search?q=: full-text search of the caller's conversation titles and messages. */
export const conversationSearchQuerySchema = z.object({
  q: z
    .string({ error: CHAT_MESSAGES.searchEmpty })
    .trim()
    .min(1, CHAT_MESSAGES.searchEmpty)
    .max(200, 'Search must be at most 200 characters'),
  limit: listLimitSchema.default(20),
});

/** Text with the matched words marked, to be rendered as text nodes (never as HTML). */
export const highlightedTextSchema = z.array(z.object({ text: z.string(), match: z.boolean() }));
export type HighlightedText = z.infer<typeof highlightedTextSchema>;

/**
 * One conversation that matched, most recently active first. `messageId` is the newest matching message of
 * its active branch (open `/chat/{botId}?c={conversation.id}&m={messageId}`), null when only the title
 * matched; `snippet` is that message's (or the title's) text around the match.
 */
export const conversationSearchResultSchema = z.object({
  conversation: conversationSummarySchema,
  messageId: z.number().int().nullable(),
  snippet: highlightedTextSchema,
});
export const conversationSearchResponseSchema = z.object({ results: z.array(conversationSearchResultSchema) });
export type ConversationSearchResult = z.infer<typeof conversationSearchResultSchema>;

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
/**
 * `streaming`: the reply is being written (its text so far is saved every second); `awaiting_approval`: it waits
 * for the person to approve or deny a tool call (its step, status `awaiting_approval`, names the call); `stopped`:
 * the user stopped it (or left) part-way; `failed`: the model failed part-way; `interrupted`: the server writing it
 * went away.
 */
export const MESSAGE_STATUSES = [
  'complete',
  'streaming',
  'awaiting_approval',
  'stopped',
  'failed',
  'interrupted',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * A numbered source a reply used: a passage of a knowledge file or attachment, a web page, or what a tool of an
 * MCP server returned from a resource with a title or URL (`tool`: `title`, `url` when it has one, `snippet`).
 */
export const sourceSchema = z.object({
  n: z.number().int(),
  kind: z.enum(['file', 'web', 'tool']),
  title: z.string(),
  snippet: z.string(),
  fileId: z.number().int().optional(),
  page: z.number().int().nullable().optional(),
  section: z.string().nullable().optional(),
  url: z.string().optional(),
});
export type Source = z.infer<typeof sourceSchema>;

/**
 * `awaiting_approval`: a tool call that changes things waits for the person chatting (POST
 * /api/conversations/{id}/tool-approvals); `denied`: they said no, or nobody could approve it; `skipped`: the
 * reply ended before it ran.
 */
export const STEP_STATUSES = ['running', 'done', 'failed', 'awaiting_approval', 'denied', 'skipped'] as const;

/**
 * A step a reply took: a web search, a page it read, or a call of an MCP server's tool (`tool`: the server's and
 * the tool's names, the arguments and a short result as text, how long it took).
 */
export const replyStepSchema = z.object({
  kind: z.enum(['search', 'open', 'tool']),
  query: z.string().optional(),
  url: z.string().optional(),
  status: z.enum(STEP_STATUSES),
  error: z.string().optional(),
  /** `tool`: the call's id, which an approval names. */
  callId: z.string().optional(),
  /** `tool`: the MCP server's name as its owner named it. */
  server: z.string().optional(),
  /** `tool`: the tool's name as the server lists it. */
  tool: z.string().optional(),
  /** `tool`: the arguments as JSON text, cut to a few hundred characters. */
  input: z.string().optional(),
  /** `tool`: the start of what the tool answered. */
  result: z.string().optional(),
  durationMs: z.number().int().optional(),
});
export type ReplyStep = z.infer<typeof replyStepSchema>;

/**
 * How a reply's sentences were checked against its sources (decision 0044): `judge`, by the judge model; `lexical`,
 * by word overlap with the sources' passages, when no judge model is configured or it failed.
 */
export const SUPPORT_METHODS = ['judge', 'lexical'] as const;
export type SupportMethod = (typeof SUPPORT_METHODS)[number];

/**
 * One sentence of a reply: where it is in the text (`start`..`end`, UTF-16 offsets), the numbers of the sources that
 * support it; `checkable` false for what states nothing (a question, a heading, a lead-in), which is not counted.
 */
export const supportSentenceSchema = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  sources: z.array(z.number().int()),
  checkable: z.boolean(),
  supported: z.boolean(),
});
export type SupportSentence = z.infer<typeof supportSentenceSchema>;

/**
 * A reply checked against its sources after it ended; `faithfulness`: supported / checkable sentences (1 when none);
 * `checked`: how many sentences were checkable.
 */
export const supportSchema = z.object({
  method: z.enum(SUPPORT_METHODS),
  sentences: z.array(supportSentenceSchema),
  faithfulness: z.number().min(0).max(1),
  checked: z.number().int(),
});
export type Support = z.infer<typeof supportSchema>;

/** A file a user message carried (a document or an image attached in the chat). */
export const attachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mediaType: z.string(),
  size: z.number().int(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const messageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: z.string(),
  sources: z.array(sourceSchema),
  steps: z.array(replyStepSchema),
  attachments: z.array(attachmentSchema),
  /** For a reply: the name of the model that wrote it (as its server calls it); null when unknown or offline. */
  model: z.string().nullable().optional(),
  /**
   * The versions of this message, oldest first: a user message's edits (POST /api/messages/{id}/edit), a reply's
   * regenerations. `ids[index]` is this message; the version switcher (`‹ index+1/count ›`) activates another with
   * POST /api/messages/{ids[i]}/activate.
   */
  versions: z.object({ index: z.number().int(), count: z.number().int(), ids: z.array(z.number().int()) }).optional(),
  /**
   * For a reply with sources: its sentences checked against them, a few seconds after it ended (the `done` event
   * comes before: fetch the message again); null until then, and for replies that were never checked.
   */
  support: supportSchema.nullable().optional(),
});
export type Message = z.infer<typeof messageSchema>;

const conversationIdSchema = bodyIdSchema(CHAT_MESSAGES.conversationRequired);

export const messageContentSchema = z
  .string({ error: CHAT_MESSAGES.messageEmpty })
  .trim()
  .min(1, CHAT_MESSAGES.messageEmpty)
  .max(CHAT_MESSAGE_MAX, CHAT_MESSAGES.messageMax);

export const createConversationBodySchema = z.object({
  botId: bodyIdSchema(CHAT_MESSAGES.botRequired),
  /** Sent by the spec's client (always 1); the owner is the signed-in caller (decisions §1). */
  userId: z.unknown().optional(),
  /** Blank or missing: `Conversation with {bot name}`. */
  title: z
    .string({ error: 'Title must be text' })
    .trim()
    .max(CONVERSATION_TITLE_MAX, CHAT_MESSAGES.titleMax)
    .optional(),
});
export type CreateConversationBody = z.infer<typeof createConversationBodySchema>;

export const renameConversationBodySchema = z.object({
  title: z
    .string({ error: CHAT_MESSAGES.titleRequired })
    .trim()
    .min(1, CHAT_MESSAGES.titleRequired)
    .max(CONVERSATION_TITLE_MAX, CHAT_MESSAGES.titleMax),
});

export const createMessageBodySchema = z.object({
  conversationId: conversationIdSchema,
  content: messageContentSchema,
  // Replies are written by the server from the model's output; letting a client store an 'assistant'
  // message would let it put words in the bot's mouth, which then also reach the model as its own history.
  role: z.literal('user', { error: CHAT_MESSAGES.userRoleOnly }).default('user'),
});

export const botMessageBodySchema = z.object({
  conversationId: conversationIdSchema,
  botId: bodyIdSchema(CHAT_MESSAGES.botRequired),
  userMessageContent: messageContentSchema,
});

export const botMessageResponseSchema = z.object({
  /** The reply's text (spec §7). */
  botResponse: z.string(),
  /** The saved reply; null only when the reply was stopped before the model wrote anything. */
  message: messageSchema.nullable(),
});

export const streamBodySchema = z.object({
  content: messageContentSchema,
  /** Files attached to this conversation (POST /api/conversations/{id}/files) that this message carries. */
  fileIds: z.array(z.number().int().positive()).max(10, 'At most 10 files per message').optional(),
});

/**
 * POST /api/messages/{id}/edit: a new version of a user message. The conversation's active branch is cut at
 * that message (the replaced turns stay, reachable through `versions`), the new version is saved and a reply
 * to it streams exactly as POST /api/conversations/{id}/stream does (`user-message` carries the new version).
 * Its files are carried over. POST /api/messages/{id}/activate makes the branch through that message active
 * (following its most recent replies) and answers the whole active branch, as GET .../messages does.
 */
export const editMessageBodySchema = z.object({ content: messageContentSchema });

export const stopResponseSchema = z.object({
  /** False when no reply was running in that conversation, or Stop could not reach it. */
  stopped: z.boolean(),
  /** Why Stop could not reach the reply (it runs on another server, out of reach): for the person. */
  message: z.string().optional(),
});

/** POST /api/conversations/{id}/tool-approvals: the answer recorded (the reply goes on with it). */
export const toolApprovalResponseSchema = z.object({ decision: z.enum(['approved', 'denied']) });
export type ToolApprovalResponse = z.infer<typeof toolApprovalResponseSchema>;

export const chatStatusSchema = z.object({
  /** True when no language model is configured: replies then explain how to connect one. */
  offline: z.boolean(),
  provider: z.enum(['openai-compatible', 'openai', 'anthropic', 'offline']),
  model: z.string().nullable(),
});
export type ChatStatus = z.infer<typeof chatStatusSchema>;

/**
 * The server-sent events of POST /api/conversations/{id}/stream and /regenerate, in order:
 * `user-message` (stream only), `start`, `sources` and `step` when there are any, any number of `delta`, then
 * exactly one `done` or `error`.
 */
/** The events of a reply that carry neither a message nor sources, whoever receives them (see widget.ts). */
export const replyProgressEventSchemas = [
  /** The reply's message id, saved (status `streaming`) before the model writes: a reload finds it. */
  z.object({ event: z.literal('start'), data: z.object({ messageId: z.number().int() }) }),
  /** A research step starting, ending or failing (the same step is sent again with its new status). */
  z.object({ event: z.literal('step'), data: replyStepSchema.extend({ index: z.number().int() }) }),
  z.object({ event: z.literal('delta'), data: z.object({ text: z.string() }) }),
  /** `messageId` names the partial reply saved with status `failed`, when the model wrote something first. */
  z.object({
    event: z.literal('error'),
    data: z.object({ message: z.string(), messageId: z.number().int().optional() }),
  }),
] as const;

export const chatStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('user-message'), data: messageSchema }),
  /** The numbered sources the reply may cite, before its text. */
  z.object({ event: z.literal('sources'), data: z.object({ sources: z.array(sourceSchema) }) }),
  /** The saved reply (status `complete`, or `stopped`); null when stopped before the model wrote anything. */
  z.object({ event: z.literal('done'), data: messageSchema.nullable() }),
  ...replyProgressEventSchemas,
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;
