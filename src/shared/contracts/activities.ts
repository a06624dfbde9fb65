import { z } from 'zod';
import { ACTIVITIES_LIMIT_DEFAULT, ACTIVITIES_LIMIT_MAX } from '../constants';

const LIMIT_MESSAGE = `Limit must be a whole number from 1 to ${ACTIVITIES_LIMIT_MAX}`;

export const ACTIVITY_TYPES = [
  'bot_created',
  'bot_updated',
  'bot_deleted',
  'bot_activated',
  'bot_deactivated',
  'custom_prompt_saved',
  'chat_started',
  'bot_sharing_changed',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const activitySchema = z.object({
  id: z.number().int(),
  type: z.enum(ACTIVITY_TYPES),
  description: z.string(),
  botId: z.number().int().nullable(),
  botName: z.string().nullable(),
  createdAt: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activitiesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(ACTIVITIES_LIMIT_MAX, LIMIT_MESSAGE)
    .default(ACTIVITIES_LIMIT_DEFAULT),
});
