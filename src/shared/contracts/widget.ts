import { z } from 'zod';
import { messageContentSchema, messageSchema, replyProgressEventSchemas, sourceSchema } from './chat';
import { idParamSchema } from './common';

/** What a widget visitor sees of a reply's source: what and where it is, not the owner's file ids or passages. */
export const widgetSourceSchema = sourceSchema.pick({ n: true, kind: true, title: true, url: true, page: true });
export type WidgetSource = z.infer<typeof widgetSourceSchema>;

/** What a widget visitor sees of a message: no ids of files, versions or attachments of the owner's account. */
export const widgetMessageSchema = messageSchema
  .pick({ id: true, role: true, content: true, status: true, createdAt: true, support: true })
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

export const WIDGET_TITLE_MAX = 60;
export const WIDGET_GREETING_MAX = 500;
export const WIDGET_STARTERS_MAX = 4;
export const WIDGET_STARTER_MAX = 120;
export const WIDGET_OFFSET_MAX = 200;

export const WIDGET_APPEARANCE_MESSAGES = {
  color: 'Colour must be a hex colour such as #6d28d9',
  position: 'Position must be left or right',
  offset: `Offsets must be whole numbers of pixels from 0 to ${WIDGET_OFFSET_MAX}`,
  title: `Title must be at most ${WIDGET_TITLE_MAX} characters`,
  greeting: `Greeting must be at most ${WIDGET_GREETING_MAX} characters`,
  starters: `At most ${WIDGET_STARTERS_MAX} starter questions`,
  starter: `Each starter question must be 1 to ${WIDGET_STARTER_MAX} characters`,
} as const;

const offsetSchema = z
  .number({ error: WIDGET_APPEARANCE_MESSAGES.offset })
  .int(WIDGET_APPEARANCE_MESSAGES.offset)
  .min(0, WIDGET_APPEARANCE_MESSAGES.offset)
  .max(WIDGET_OFFSET_MAX, WIDGET_APPEARANCE_MESSAGES.offset);

/**
 * How the widget looks on the owner's site (issue 21 item 21, decision 0028). An empty title or greeting
 * stands for the bot's own name or greeting.
 */
export const widgetAppearanceSchema = z.object({
  color: z
    .string({ error: WIDGET_APPEARANCE_MESSAGES.color })
    .toLowerCase()
    .regex(/^#[0-9a-f]{6}$/, WIDGET_APPEARANCE_MESSAGES.color),
  position: z.enum(['left', 'right'], { error: WIDGET_APPEARANCE_MESSAGES.position }),
  offsetX: offsetSchema,
  offsetY: offsetSchema,
  title: z
    .string({ error: WIDGET_APPEARANCE_MESSAGES.title })
    .trim()
    .max(WIDGET_TITLE_MAX, WIDGET_APPEARANCE_MESSAGES.title),
  greeting: z
    .string({ error: WIDGET_APPEARANCE_MESSAGES.greeting })
    .trim()
    .max(WIDGET_GREETING_MAX, WIDGET_APPEARANCE_MESSAGES.greeting),
  starters: z
    .array(
      z
        .string({ error: WIDGET_APPEARANCE_MESSAGES.starter })
        .trim()
        .min(1, WIDGET_APPEARANCE_MESSAGES.starter)
        .max(WIDGET_STARTER_MAX, WIDGET_APPEARANCE_MESSAGES.starter),
      { error: WIDGET_APPEARANCE_MESSAGES.starters },
    )
    .max(WIDGET_STARTERS_MAX, WIDGET_APPEARANCE_MESSAGES.starters),
});
export type WidgetAppearance = z.output<typeof widgetAppearanceSchema>;

export const DEFAULT_WIDGET_APPEARANCE: WidgetAppearance = {
  color: '#6d28d9',
  position: 'right',
  offsetX: 20,
  offsetY: 20,
  title: '',
  greeting: '',
  starters: [],
};

/** Only the fields sent change. */
export const updateWidgetAppearanceBodySchema = widgetAppearanceSchema.partial();
export type UpdateWidgetAppearanceRequest = z.input<typeof updateWidgetAppearanceBodySchema>;

/**
 * GET /api/widget/{botId}/config, what embed.js asks before it draws anything: the launcher's look on a site
 * that may embed the bot (the title already the bot's name when the owner left it empty).
 */
export const widgetConfigSchema = widgetAppearanceSchema.omit({ greeting: true, starters: true });
export type WidgetConfig = z.output<typeof widgetConfigSchema>;
