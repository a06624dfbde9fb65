import { z } from 'zod';
import { messageContentSchema, messageSchema } from './chat';
import { idParamSchema } from './common';

/** What a widget visitor sees of a message: no ids of files, versions or attachments of the owner's account. */
export const widgetMessageSchema = messageSchema.pick({
  id: true,
  role: true,
  content: true,
  status: true,
  createdAt: true,
});
export type WidgetMessage = z.infer<typeof widgetMessageSchema>;

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
