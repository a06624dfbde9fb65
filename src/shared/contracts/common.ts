import { z } from 'zod';

/** Ids are PostgreSQL `integer`s; anything larger could never match and would make the query fail. */
const ID_MAX = 2_147_483_647;
const ID_MESSAGE = 'Id must be a positive whole number';

/** A numeric id in a path; malformed ids answer 400 so they never reach the database. */
export const idParamSchema = z
  .string()
  .regex(/^\d{1,10}$/, ID_MESSAGE)
  .transform(Number)
  .pipe(z.number().int().min(1, ID_MESSAGE).max(ID_MAX, ID_MESSAGE));

export const idParamsSchema = z.object({ id: idParamSchema });

/** A numeric id in a JSON body, with the caller's message for anything that is not one. */
export const bodyIdSchema = (message: string) =>
  z.number({ error: message }).int(message).min(1, message).max(ID_MAX, message);

/** Every error body (decisions §3); extra fields such as `errors` or `needsVerification` ride along. */
export const errorResponseSchema = z.object({ message: z.string() }).loose();

/** The answer of actions that have nothing to return but a sentence for the user. */
export const messageResponseSchema = z.object({ message: z.string() });

/** Trimmed text with a length limit; the messages name the field. */
export const boundedText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

export const flag = (label: string) => z.boolean({ error: `${label} must be true or false` });
