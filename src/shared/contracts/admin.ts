import { z } from 'zod';
import { boundedText, flag } from './common';

/**
 * The admin console's calls (issue 23, decisions §1): AI connections and the models people may pick, instance
 * settings, people and their limits, usage. Every `/api/admin` route answers 403 to anyone but an admin.
 */

export const ADMIN_MESSAGES = {
  adminOnly: 'Only an administrator can do this',
  superadminOnly: 'Only a superadmin can make or unmake administrators',
  connectionNotFound: 'Connection not found',
  connectionReadOnly: 'This connection comes from the server’s environment variables and cannot be changed here',
  userNotFound: 'User not found',
  modelUnknown: 'Choose one of the enabled models, or Default',
  registrationClosed: 'Registration is closed. Ask an administrator for an invitation.',
  invitationRequired: 'Registration is by invitation only. Open the invitation link you received.',
  invitationInvalid: 'This invitation link is invalid, used or expired. Ask for a new one.',
  accountDisabled: 'This account is disabled. Contact your administrator.',
  invitationOtherEmail: 'This invitation is for another e-mail address. Register with the address it was sent to.',
  notYourself: 'You cannot disable or delete your own account here',
  superadminProtected: 'Only a superadmin can disable or delete a superadmin',
  superadminRoleFixed: 'A superadmin’s role cannot be changed here',
  alreadyVerified: 'This e-mail address is already verified',
  verificationSent: 'Verification e-mail sent',
  userDeleted: 'User deleted, with everything they owned',
  invitationNotFound: 'Invitation not found',
  invitationDeleted: 'Invitation deleted',
} as const;

export const CONNECTION_KINDS = ['openai-compatible', 'openai', 'anthropic'] as const;
export const connectionKindSchema = z.enum(CONNECTION_KINDS, {
  error: 'Kind must be openai-compatible, openai or anthropic',
});
export type ConnectionKind = z.infer<typeof connectionKindSchema>;

/** The id of the read-only connection made from the environment's LLM_* variables. */
export const ENV_CONNECTION_ID = 0;

/** A connection as admins see it: never its API key, only whether one is set and its last four characters. */
export const connectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: connectionKindSchema,
  baseUrl: z.string().nullable(),
  hasApiKey: z.boolean(),
  apiKeyLast4: z.string().nullable(),
  allowPrivateAddress: z.boolean(),
  /** Model names (as the server lists them) people may use. */
  enabledModels: z.array(z.string()),
  /** The environment's connection: shown, never changed here. */
  readOnly: z.boolean(),
  createdAt: z.string().nullable(),
});
export type Connection = z.infer<typeof connectionSchema>;
/** A connection's id in a path; 0 is the environment's (answered 409 on change). */
export const connectionIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, 'Id must be a whole number')
    .transform(Number)
    .pipe(z.number().int().max(2_147_483_647, 'Id must be a whole number')),
});
export const connectionListSchema = z.object({ connections: z.array(connectionSchema) });

const baseUrl = z
  .string({ error: 'Base URL must be text' })
  .trim()
  .max(2000, 'Base URL must be at most 2000 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'Base URL must be an http or https address' }));
const apiKey = z.string({ error: 'API key must be text' }).trim().max(1000, 'API key must be at most 1000 characters');
const modelName = z.string().trim().min(1).max(250, 'Model names must be at most 250 characters');

export const createConnectionBodySchema = z.object({
  name: boundedText('Name', 100).min(1, 'Give the connection a name'),
  kind: connectionKindSchema,
  /** Required for openai-compatible; OpenAI and Anthropic default to their public APIs. */
  baseUrl: baseUrl.optional(),
  apiKey: apiKey.optional(),
  allowPrivateAddress: flag('Allow private address').optional(),
});
export type CreateConnectionBody = z.infer<typeof createConnectionBodySchema>;

export const patchConnectionBodySchema = z.object({
  name: boundedText('Name', 100).min(1, 'Give the connection a name').optional(),
  baseUrl: baseUrl.nullable().optional(),
  /** A new key; an empty string or null removes the stored one. */
  apiKey: apiKey.nullable().optional(),
  allowPrivateAddress: flag('Allow private address').optional(),
  enabledModels: z.array(modelName).max(500, 'At most 500 models can be enabled').optional(),
});
export type PatchConnectionBody = z.infer<typeof patchConnectionBodySchema>;

/** What a connection's server offers; `sizeBytes` when it is an Ollama that says so. */
export const offeredModelSchema = z.object({ model: z.string(), sizeBytes: z.number().nullable() });
export const connectionTestSchema = z.object({
  ok: z.boolean(),
  models: z.array(offeredModelSchema),
  error: z.string().nullable(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/** An enabled model as anyone signed in may pick it: `id` is `connectionId/model`. */
export const modelSchema = z.object({
  id: z.string(),
  label: z.string(),
  connectionId: z.number().int(),
  model: z.string(),
});
export type ModelChoice = z.infer<typeof modelSchema>;
export const modelListSchema = z.object({
  models: z.array(modelSchema),
  /** What "Default" means for chat today; null in offline mode. */
  defaultModel: modelSchema.nullable(),
});

export const MODEL_TASKS = ['chat', 'promptGeneration', 'titles', 'judge', 'embeddings'] as const;
export type ModelTask = (typeof MODEL_TASKS)[number];
const modelIdOrDefault = z.string().max(600).nullable();
export const defaultModelsSchema = z.object({
  chat: modelIdOrDefault,
  promptGeneration: modelIdOrDefault,
  titles: modelIdOrDefault,
  judge: modelIdOrDefault,
  embeddings: modelIdOrDefault,
});
export type DefaultModels = z.infer<typeof defaultModelsSchema>;

export const REGISTRATION_MODES = ['open', 'closed', 'invitation'] as const;
export const registrationModeSchema = z.enum(REGISTRATION_MODES, {
  error: 'Registration must be open, closed or invitation',
});
export type RegistrationMode = z.infer<typeof registrationModeSchema>;
/**
 * GET /api/auth/registration (anyone): how the sign-up page behaves. With `invitation`, POST /api/auth/register
 * takes the link's token as `invitation`.
 */
export const registrationInfoSchema = z.object({ mode: registrationModeSchema });

/** Daily limits; null means no limit. */
const limitValue = (label: string) =>
  z
    .number({ error: `${label} must be a whole number or empty` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(1e12, `${label} is too large`)
    .nullable();
export const limitsSchema = z.object({
  dailyTokens: limitValue('Daily tokens'),
  dailyReplies: limitValue('Daily replies'),
});
export type Limits = z.infer<typeof limitsSchema>;
export const ROLES = ['user', 'admin', 'superadmin'] as const;
export const roleLimitsSchema = z.object({ user: limitsSchema, admin: limitsSchema, superadmin: limitsSchema });

export const adminSettingsSchema = z.object({
  registrationMode: registrationModeSchema,
  defaultModels: defaultModelsSchema,
  defaultLimits: roleLimitsSchema,
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;
export const patchAdminSettingsBodySchema = z.object({
  registrationMode: registrationModeSchema.optional(),
  defaultModels: defaultModelsSchema.partial().optional(),
  defaultLimits: z
    .object({ user: limitsSchema.partial(), admin: limitsSchema.partial(), superadmin: limitsSchema.partial() })
    .partial()
    .optional(),
});
export type PatchAdminSettingsBody = z.infer<typeof patchAdminSettingsBodySchema>;

/** Today's use against the limits that apply, and when the day (UTC) ends. */
export const usageTodaySchema = z.object({
  tokens: z.number(),
  replies: z.number(),
  limits: limitsSchema,
  resetsAt: z.string(),
});
export type UsageToday = z.infer<typeof usageTodaySchema>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  fullName: z.string().nullable(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  /** This account's own limits; a null field follows the role's default. */
  limits: limitsSchema,
  today: usageTodaySchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export const adminUserQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export const patchAdminUserBodySchema = z.object({
  role: z.enum(['user', 'admin'], { error: 'Role must be user or admin' }).optional(),
  disabled: flag('Disabled').optional(),
  limits: limitsSchema.partial().optional(),
});
export type PatchAdminUserBody = z.infer<typeof patchAdminUserBodySchema>;

export const invitationSchema = z.object({
  id: z.number().int(),
  email: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });
export const createInvitationBodySchema = z.object({
  email: z.email('Please enter a valid email address').max(255).optional(),
  expiresInDays: z.number().int().min(1, 'At least 1 day').max(30, 'At most 30 days').default(7),
});
/** The link is in this answer only; the token is stored hashed. */
export const createdInvitationSchema = invitationSchema.extend({ url: z.string() });

/** Usage of a person with a bot (null: none or deleted) and a model, over a report's range. */
export const usageTotalSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  botId: z.number().int().nullable(),
  botName: z.string().nullable(),
  model: z.string(),
  replies: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});
export type UsageTotal = z.infer<typeof usageTotalSchema>;
/** One row of the CSV export: a day, a person, a bot and a model. */
export type UsageRow = UsageTotal & { day: string };
export const usageDaySchema = z.object({
  day: z.string(),
  replies: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
});
export const usageQuerySchema = z.object({
  from: z.iso.date('From must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('To must be a date (YYYY-MM-DD)').optional(),
  userId: z.coerce.number().int().min(1).optional(),
  format: z.enum(['json', 'csv']).default('json'),
});
export const USAGE_TOTALS_MAX = 500;
/** GET /api/usage (one's own) and GET /api/admin/usage (everyone's, or one user's). */
export const usageReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Per day, for the chart; days without use are left out. */
  days: z.array(usageDaySchema),
  /** Per person, bot and model over the range, most tokens first; at most USAGE_TOTALS_MAX of them. */
  totals: z.array(usageTotalSchema),
  /** More combinations than `totals` holds used the range: the CSV export has them all. */
  truncated: z.boolean(),
  today: usageTodaySchema.nullable(),
});
export type UsageReport = z.infer<typeof usageReportSchema>;
