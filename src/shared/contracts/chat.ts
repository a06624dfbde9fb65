import { z } from 'zod';
import { CHAT_MESSAGE_MAX, CONVERSATION_TITLE_MAX } from '../constants';
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
  nothingToRegenerate: 'There is no message to reply to yet.',
  conversationDeleted: 'Conversation deleted',
} as const;

/** Spec §9: the title every new conversation gets unless the client names it. */
export const conversationTitle = (botName: string) => `Conversation with ${botName}`;

export const conversationSchema = z.object({
  id: z.number().int(),
  botId: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
/** `stopped`: the user stopped the reply (or left) part-way; `failed`: the model failed part-way. */
export const MESSAGE_STATUSES = ['complete', 'stopped', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const messageSchema = z.object({
  id: z.number().int(),
  conversationId: z.number().int(),
  role: z.enum(MESSAGE_ROLES),
  content: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  createdAt: z.string(),
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
export type RenameConversationBody = z.infer<typeof renameConversationBodySchema>;

export const createMessageBodySchema = z.object({
  conversationId: conversationIdSchema,
  content: messageContentSchema,
  // Replies are written by the server from the model's output; letting a client store an 'assistant'
  // message would let it put words in the bot's mouth, which then also reach the model as its own history.
  role: z.literal('user', { error: CHAT_MESSAGES.userRoleOnly }).default('user'),
});
export type CreateMessageBody = z.infer<typeof createMessageBodySchema>;

export const botMessageBodySchema = z.object({
  conversationId: conversationIdSchema,
  botId: bodyIdSchema(CHAT_MESSAGES.botRequired),
  userMessageContent: messageContentSchema,
});
export type BotMessageBody = z.infer<typeof botMessageBodySchema>;

export const botMessageResponseSchema = z.object({
  /** The reply's text (spec §7). */
  botResponse: z.string(),
  /** The saved reply; null only when the reply was stopped before the model wrote anything. */
  message: messageSchema.nullable(),
});
export type BotMessageResponse = z.infer<typeof botMessageResponseSchema>;

export const streamBodySchema = z.object({ content: messageContentSchema });
export type StreamBody = z.infer<typeof streamBodySchema>;

export const stopResponseSchema = z.object({
  /** False when no reply was running in that conversation. */
  stopped: z.boolean(),
});

export const chatStatusSchema = z.object({
  /** True when no language model is configured: replies then explain how to connect one. */
  offline: z.boolean(),
  provider: z.enum(['openai-compatible', 'openai', 'anthropic', 'offline']),
  model: z.string().nullable(),
});
export type ChatStatus = z.infer<typeof chatStatusSchema>;

/**
 * The server-sent events of POST /api/conversations/{id}/stream and /regenerate, in order:
 * `user-message` (stream only), any number of `delta`, then exactly one `done` or `error`.
 */
export const chatStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('user-message'), data: messageSchema }),
  z.object({ event: z.literal('delta'), data: z.object({ text: z.string() }) }),
  /** The saved reply (status `complete`, or `stopped`); null when stopped before the model wrote anything. */
  z.object({ event: z.literal('done'), data: messageSchema.nullable() }),
  /** `messageId` names the partial reply saved with status `failed`, when the model wrote something first. */
  z.object({
    event: z.literal('error'),
    data: z.object({ message: z.string(), messageId: z.number().int().optional() }),
  }),
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;
