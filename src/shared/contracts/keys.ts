import { z } from 'zod';
import { bodyIdSchema } from './common';

export const API_KEY_NAME_MAX = 100;

export const KEY_MESSAGES = {
  nameRequired: 'Give the key a name',
  nameMax: `The name can be at most ${API_KEY_NAME_MAX} characters`,
  botInvalid: 'Choose one of your botties, or all of them',
  expiresAtInvalid: 'The expiry must be a date and time',
  expiresAtPast: 'The expiry must be in the future',
  notFound: 'API key not found',
  revoked: 'API key revoked',
} as const;

/**
 * A key as its owner sees it in the list: never the key itself, which is shown once when created and kept only
 * as a hash. `botId` null means every bot of the owner.
 */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, e.g. `botty_a1B2`, to tell keys apart. */
  prefix: z.string(),
  botId: z.number().int().nullable(),
  botName: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** An optional expiry: an ISO 8601 date and time (with its offset), or null for none. */
export const expiresAtSchema = z.iso
  .datetime({ offset: true, error: KEY_MESSAGES.expiresAtInvalid })
  .nullable()
  .optional();

export const createApiKeyBodySchema = z.object({
  name: z
    .string({ error: KEY_MESSAGES.nameRequired })
    .trim()
    .min(1, KEY_MESSAGES.nameRequired)
    .max(API_KEY_NAME_MAX, KEY_MESSAGES.nameMax),
  /** One bot, or null for all of the caller's bots. */
  botId: bodyIdSchema(KEY_MESSAGES.botInvalid).nullable(),
  expiresAt: expiresAtSchema,
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The answer to creating a key: the only time the key itself is ever sent. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });
