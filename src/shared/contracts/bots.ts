import { z } from 'zod';
import { botConfigShape } from '../bots/bot-settings';
import { CAPABILITIES } from '../bots/capabilities';
import { botSharingSchema } from './bot-sharing';
import { boundedText, flag } from './common';
import { ICON_NAMES, FALLBACK_ICON } from '../bots/icons';
import { PURPOSES } from '../bots/purposes';
import {
  BOT_DESCRIPTION_MAX,
  BOT_NAME_MAX,
  EXAMPLE_QUERIES_MAX,
  EXAMPLE_QUERY_MAX,
  EXPECTATION_NOTE_MAX,
} from '../constants';

/** Validation and result messages; the config's are with each setting (bots/bot-settings.ts). */
export const BOT_MESSAGES = {
  nameRequired: 'Name is required',
  nameMax: `Name must be at most ${BOT_NAME_MAX} characters`,
  descriptionRequired: 'Description is required',
  descriptionMax: `Description must be at most ${BOT_DESCRIPTION_MAX} characters`,
  purpose: `Purpose must be one of: ${PURPOSES.join(', ')}`,
  icon: 'Choose one of the available icons',
  capability: `Capabilities must be among: ${CAPABILITIES.join(', ')}`,
  capabilitiesUnique: 'Each capability can be chosen only once',
  exampleQuery: `Each example query must be 1 to ${EXAMPLE_QUERY_MAX} characters`,
  exampleQueries: `At most ${EXAMPLE_QUERIES_MAX} example queries`,
  exampleQueriesUnique: 'Each example query can be listed only once',
  notFound: 'Bot not found',
  deleted: 'Bot deleted',
} as const;

export const botNameSchema = z
  .string({ error: BOT_MESSAGES.nameRequired })
  .trim()
  .min(1, BOT_MESSAGES.nameRequired)
  .max(BOT_NAME_MAX, BOT_MESSAGES.nameMax);

export const botDescriptionSchema = z
  .string({ error: BOT_MESSAGES.descriptionRequired })
  .trim()
  .min(1, BOT_MESSAGES.descriptionRequired)
  .max(BOT_DESCRIPTION_MAX, BOT_MESSAGES.descriptionMax);

export const purposeSchema = z.enum(PURPOSES, { error: BOT_MESSAGES.purpose });
export const iconSchema = z.enum(ICON_NAMES, { error: BOT_MESSAGES.icon });
export const capabilitySchema = z.enum(CAPABILITIES, { error: BOT_MESSAGES.capability });
export const capabilitiesSchema = z
  .array(capabilitySchema, { error: BOT_MESSAGES.capability })
  .refine((list) => new Set(list).size === list.length, BOT_MESSAGES.capabilitiesUnique);

/** The bot's test set and chat starters: the queries the user typed or kept from the generated ones. */
export const exampleQueriesSchema = z
  .array(
    z
      .string({ error: BOT_MESSAGES.exampleQuery })
      .trim()
      .min(1, BOT_MESSAGES.exampleQuery)
      .max(EXAMPLE_QUERY_MAX, BOT_MESSAGES.exampleQuery),
    { error: BOT_MESSAGES.exampleQueries },
  )
  .max(EXAMPLE_QUERIES_MAX, BOT_MESSAGES.exampleQueries)
  .refine((list) => new Set(list).size === list.length, BOT_MESSAGES.exampleQueriesUnique);

export const ANSWER_RATINGS = ['good', 'bad'] as const;

/** What the user thought of the answer to one test query, and what they expected instead. */
export const testNoteSchema = z.object({
  query: z.string().trim().min(1, BOT_MESSAGES.exampleQuery).max(EXAMPLE_QUERY_MAX, BOT_MESSAGES.exampleQuery),
  rating: z.enum(ANSWER_RATINGS, { error: 'Rating must be good or bad' }),
  expected: boundedText('Expected answer', EXPECTATION_NOTE_MAX).default(''),
});
export type TestNote = z.infer<typeof testNoteSchema>;
export const testNotesSchema = z.array(testNoteSchema).max(EXAMPLE_QUERIES_MAX, BOT_MESSAGES.exampleQueries);

/** One optional field per bot setting: the descriptors of bots/bot-settings.ts declare them. */
export const botConfigSchema = z.object(botConfigShape);
export type BotConfig = z.infer<typeof botConfigSchema>;

export const createBotBodySchema = z.object({
  name: botNameSchema,
  description: botDescriptionSchema,
  purpose: purposeSchema,
  icon: iconSchema.default(FALLBACK_ICON),
  capabilities: capabilitiesSchema.default([]),
  active: flag('Active').optional(),
  config: botConfigSchema.default({}),
  exampleQueries: exampleQueriesSchema.default([]),
  testNotes: testNotesSchema.default([]),
  /** Sent by the spec's client; the owner is always the signed-in caller (decisions §1). */
  userId: z.unknown().optional(),
});
/** What the server works with after parsing (defaults applied, text trimmed). */
export type CreateBotBody = z.infer<typeof createBotBodySchema>;
/** What a client may send. */
export type CreateBotRequest = z.input<typeof createBotBodySchema>;

export const updateBotBodySchema = z.object({
  name: botNameSchema.optional(),
  description: botDescriptionSchema.optional(),
  purpose: purposeSchema.optional(),
  icon: iconSchema.optional(),
  capabilities: capabilitiesSchema.optional(),
  active: flag('Active').optional(),
  /** Merged into the stored config: only the fields sent change. */
  config: botConfigSchema.optional(),
  exampleQueries: exampleQueriesSchema.optional(),
  testNotes: testNotesSchema.optional(),
});
export type UpdateBotBody = z.infer<typeof updateBotBodySchema>;
export type UpdateBotRequest = z.input<typeof updateBotBodySchema>;

export const botSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  purpose: purposeSchema,
  icon: iconSchema,
  userId: z.number().int(),
  active: z.boolean(),
  capabilities: z.array(capabilitySchema),
  config: botConfigSchema,
  exampleQueries: z.array(z.string()),
  testNotes: z.array(testNoteSchema),
  /** The number of the bot's current version (1 when created; each change to its prompt or settings adds one). */
  version: z.number().int(),
  /** The version everyone but the owner gets (links, Explore, widget, `/v1`, `/mcp`); null before the first release. */
  publishedVersion: z.number().int().nullable(),
  usageCount: z.number().int(),
  lastUsed: z.string().nullable(),
  createdAt: z.string(),
  /** Who may use the bot besides its owner, and where it may be embedded (owner's view). */
  sharing: botSharingSchema,
});
export type Bot = z.infer<typeof botSchema>;

export const generatePromptBodySchema = z.object({
  name: botNameSchema,
  description: botDescriptionSchema,
  purpose: purposeSchema,
  /** The user's example queries: the model writes the prompt with them in mind. */
  exampleQueries: exampleQueriesSchema.default([]),
});
export type GeneratePromptBody = z.infer<typeof generatePromptBodySchema>;
export type GeneratePromptRequest = z.input<typeof generatePromptBodySchema>;

export const generatePromptResponseSchema = z.object({
  systemPrompt: z.string(),
  exampleQueries: z.array(z.string()),
  /** `template` when the local prompt stood in for the model (offline, failed or unusable answer). */
  source: z.enum(['model', 'template']),
});
export type GeneratePromptResponse = z.infer<typeof generatePromptResponseSchema>;
