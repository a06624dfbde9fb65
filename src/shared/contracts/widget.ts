import { z } from 'zod';
import { messageContentSchema, messageSchema, replyProgressEventSchemas, sourceSchema } from './chat';
import { idParamSchema } from './common';

/** What a widget visitor sees of a reply's source: what and where it is, not the owner's file ids or passages. */
export const widgetSourceSchema = sourceSchema.pick({ n: true, kind: true, title: true, url: true, page: true });
export type WidgetSource = z.infer<typeof widgetSourceSchema>;

/** What a widget visitor sees of a message: no ids of files, versions or attachments of the owner's account. */
export const widgetMessageSchema = messageSchema
  .pick({ id: true, role: true, content: true, status: true, createdAt: true })
  .extend({ sources: z.array(widgetSourceSchema) });
export type WidgetMessage = z.infer<typeof widgetMessageSchema>;

/** A widget reply's events: the chat's, with its messages and sources as a visitor sees them. */
export const widgetStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('user-message'), data: widgetMessageSchema }),
  z.object({ event: z.literal('sources'), data: z.object({ sources: z.array(widgetSourceSchema) }) }),
  z.object({ event: z.literal('done'), data: widgetMessageSchema.nullable() }),
  ...replyProgressEventSchemas,
]);
export type WidgetStreamEvent = z.infer<typeof widgetStreamEventSchema>;

export const widgetMessagesSchema = z.object({ messages: z.array(widgetMessageSchema) });

export const widgetReplyBodySchema = z.object({ content: messageContentSchema });

export const widgetParamsSchema = z.object({ botId: idParamSchema });

/** The widget page's query: the embedding page's origin, which frame-ancestors then holds it to. */
export const widgetPageQuerySchema = z.object({ origin: z.string().max(300).optional() });

/** A widget conversation as the bot's owner sees it in the list. */
export const widgetConversationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int(),
});
export type WidgetConversation = z.infer<typeof widgetConversationSchema>;

export const widgetConversationsSchema = z.object({
  conversations: z.array(widgetConversationSchema),
  /** Widget questions since midnight UTC, next to the bot's daily cap. */
  questionsToday: z.number().int(),
  dailyCap: z.number().int(),
});
export type WidgetConversations = z.infer<typeof widgetConversationsSchema>;

export const widgetConversationParamsSchema = z.object({ id: idParamSchema, conversationId: idParamSchema });
