import { z } from 'zod';
import { PURPOSES } from '../bots/purposes';
import { BOT_VISIBILITIES } from './bot-sharing';
import { botConfigSchema, capabilitySchema, iconSchema, purposeSchema } from './bots';

export const EXPLORE_PAGE_SIZE = 24;
export const EXPLORE_QUERY_MAX = 100;

export const SHARED_BOT_MESSAGES = {
  notFound: 'Bot not found',
  linkNeedsSharing: 'Set the bot to Link or Public before making its link',
  purpose: `Purpose must be one of: ${PURPOSES.join(', ')}`,
  query: `Search must be at most ${EXPLORE_QUERY_MAX} characters`,
  cursor: 'Cursor is not one this list gave out',
} as const;

/** POST /api/bots/{id}/share-link: the only time the plain slug is shown (it is stored hashed). */
export const shareLinkSchema = z.object({
  slug: z.string(),
  /** The page of the link, relative to the app's origin. */
  url: z.string(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** Any text: one that is no link's slug is simply not found. */
export const shareSlugParamsSchema = z.object({ slug: z.string().max(200) });

/**
 * A bot as people it is shared with see it: never its owner's email, files, conversations, test notes or
 * embed settings; its prompt and settings only when the owner chose to show them.
 */
export const sharedBotSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  purpose: purposeSchema,
  icon: iconSchema,
  capabilities: z.array(capabilitySchema),
  greeting: z.string().nullable(),
  exampleQueries: z.array(z.string()),
  active: z.boolean(),
  visibility: z.enum(BOT_VISIBILITIES),
  ownerName: z.string(),
  /** The caller is the bot's owner (their own bot seen through its link or on Explore). */
  isOwner: z.boolean(),
  /** People other than the owner who opened its link or chatted with it. */
  usersCount: z.number().int(),
  /** The prompt and settings, when the owner shows them (always for the owner); null otherwise. */
  settings: botConfigSchema.nullable(),
});
export type SharedBot = z.infer<typeof sharedBotSchema>;

/** GET /api/explore/bots: public bots, most recently shared or changed first. */
export const exploreQuerySchema = z.object({
  q: z.string().trim().max(EXPLORE_QUERY_MAX, SHARED_BOT_MESSAGES.query).optional(),
  purpose: z.enum(PURPOSES, { error: SHARED_BOT_MESSAGES.purpose }).optional(),
  cursor: z.string().max(200, SHARED_BOT_MESSAGES.cursor).optional(),
});
export type ExploreQuery = z.infer<typeof exploreQuerySchema>;

export const explorePageSchema = z.object({
  items: z.array(sharedBotSchema),
  /** Pass back as `cursor` for the next page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type ExplorePage = z.infer<typeof explorePageSchema>;
