import { z } from 'zod';
import { idParamSchema } from './common';
import { botConfigSchema, capabilitySchema, iconSchema, purposeSchema } from './bots';

/** One knowledge file as a version records it: which file, and its content's SHA-256 (null: uploaded before hashes). */
export const knowledgeEntrySchema = z.object({
  fileId: z.number().int(),
  name: z.string(),
  hash: z.string().nullable(),
});
export type KnowledgeEntry = z.infer<typeof knowledgeEntrySchema>;

/** Everything about a bot that shapes its answers, as one version keeps it. */
export const botSnapshotSchema = z.object({
  name: z.string(),
  description: z.string(),
  purpose: purposeSchema,
  icon: iconSchema,
  capabilities: z.array(capabilitySchema),
  config: botConfigSchema,
  exampleQueries: z.array(z.string()),
  /** The knowledge files it answered from, oldest first; absent in versions written before they were recorded. */
  knowledge: z.array(knowledgeEntrySchema).optional(),
});
export type BotSnapshot = z.infer<typeof botSnapshotSchema>;

export const botVersionSummarySchema = z.object({
  number: z.number().int(),
  /** The fields that differ from the version before: snapshot keys, and config keys for config changes. */
  changed: z.array(z.string()),
  /** Set when this version was written by restoring that one. */
  restoredFrom: z.number().int().nullable(),
  createdAt: z.string(),
});
export type BotVersionSummary = z.infer<typeof botVersionSummarySchema>;

export const botVersionSchema = botVersionSummarySchema.extend({ snapshot: botSnapshotSchema });
export type BotVersion = z.infer<typeof botVersionSchema>;

export const versionParamsSchema = z.object({ id: idParamSchema, n: idParamSchema });

export const VERSION_MESSAGES = { notFound: 'Version not found' } as const;
