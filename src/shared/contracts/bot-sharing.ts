import { z } from 'zod';

export const BOT_VISIBILITIES = ['private', 'link', 'public'] as const;
export type BotVisibility = (typeof BOT_VISIBILITIES)[number];

export const EMBED_ORIGINS_MAX = 20;
export const EMBED_DAILY_CAP_MAX = 10_000;

export const BOT_SHARING_MESSAGES = {
  visibility: `Visibility must be one of: ${BOT_VISIBILITIES.join(', ')}`,
  origin: 'Each site must be an origin such as https://example.com (scheme, host and optional port, no path)',
  originsMax: `At most ${EMBED_ORIGINS_MAX} sites`,
  dailyCap: `Daily cap must be a whole number from 0 to ${EMBED_DAILY_CAP_MAX}`,
} as const;

/** `https://example.com` or `http://127.0.0.1:8080`: what a browser sends as Origin and frame-ancestors matches. */
export function normalizeOrigin(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
      return null;
    return url.origin;
  } catch {
    return null;
  }
}

const originSchema = z.string({ error: BOT_SHARING_MESSAGES.origin }).transform((text, ctx) => {
  const origin = normalizeOrigin(text);
  if (!origin) ctx.addIssue({ code: 'custom', message: BOT_SHARING_MESSAGES.origin });
  return origin ?? '';
});

/** Who may use a bot besides its owner, and where it may be embedded. */
export const botSharingSchema = z.object({
  visibility: z.enum(BOT_VISIBILITIES),
  /**
   * Whether the bot has a link. Its slug is stored hashed (decisions §5), so the owner sees it when the link is
   * made and can make a new one, which stops the old.
   */
  hasLink: z.boolean(),
  /** Whether people the bot is shared with may read its prompt and settings. */
  showPrompt: z.boolean(),
  /** Sites (origins) allowed to embed the bot's chat widget; the widget needs visibility link or public. */
  embedOrigins: z.array(z.string()),
  /** Questions the widget's anonymous visitors may ask per day, all together. */
  embedDailyCap: z.number().int(),
});

/** Only the fields sent change. */
export const updateBotSharingBodySchema = z.object({
  visibility: z.enum(BOT_VISIBILITIES, { error: BOT_SHARING_MESSAGES.visibility }).optional(),
  showPrompt: z.boolean({ error: 'Show prompt must be true or false' }).optional(),
  embedOrigins: z
    .array(originSchema, { error: BOT_SHARING_MESSAGES.origin })
    .max(EMBED_ORIGINS_MAX, BOT_SHARING_MESSAGES.originsMax)
    .transform((list) => [...new Set(list)])
    .optional(),
  embedDailyCap: z
    .number({ error: BOT_SHARING_MESSAGES.dailyCap })
    .int(BOT_SHARING_MESSAGES.dailyCap)
    .min(0, BOT_SHARING_MESSAGES.dailyCap)
    .max(EMBED_DAILY_CAP_MAX, BOT_SHARING_MESSAGES.dailyCap)
    .optional(),
});
export type UpdateBotSharingBody = z.infer<typeof updateBotSharingBodySchema>;
export type UpdateBotSharingRequest = z.input<typeof updateBotSharingBodySchema>;
