import { z } from 'zod';
import { MESSAGE_ROLES, sourceSchema, supportSchema } from './chat';
import { iconSchema } from './bots';
import { expiresAtSchema } from './keys';

export const SHARE_MESSAGES = {
  notFound: 'This link does not exist, has expired or was revoked',
  revoked: 'Share link revoked',
  nothingToShare: 'There is nothing to share yet: send a message first',
  expiresAtPast: 'The expiry must be in the future',
} as const;

export const shareBodySchema = z.object({ expiresAt: expiresAtSchema });
export type ShareBody = z.infer<typeof shareBodySchema>;

/** The answer to sharing: the only time the token is sent (only its hash is kept). */
export const shareLinkSchema = z.object({
  token: z.string(),
  /** The page's path, `/s/{token}`; the client puts its own origin in front. */
  url: z.string(),
  sharedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** Whether a conversation has a live link, for its owner (the link itself cannot be shown again). */
export const shareStatusSchema = z.object({
  share: z.object({ sharedAt: z.string(), expiresAt: z.string().nullable() }).nullable(),
});
export type ShareStatus = z.infer<typeof shareStatusSchema>;

/** A source as visitors see it: no file ids. */
export const snapshotSourceSchema = sourceSchema.omit({ fileId: true });

export const snapshotMessageSchema = z.object({
  role: z.enum(MESSAGE_ROLES),
  content: z.string(),
  sources: z.array(snapshotSourceSchema),
  /** The reply's sentences checked against its sources, when they were checked by the time it was shared. */
  support: supportSchema.nullable().optional(),
  createdAt: z.string(),
});

/**
 * What anyone with the link sees: the conversation as it was when shared, with no ids, e-mail addresses or
 * anything of other users.
 */
export const snapshotSchema = z.object({
  botName: z.string(),
  botIcon: iconSchema,
  title: z.string(),
  messages: z.array(snapshotMessageSchema),
  sharedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** Any token is looked up (by its hash); one that matches nothing is a 404 like an expired one. */
export const shareTokenParamsSchema = z.object({ token: z.string().max(200) });
