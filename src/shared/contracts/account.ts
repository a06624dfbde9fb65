import { z } from 'zod';
import { PASSWORD_MAX } from '../constants';

export const deleteAccountBodySchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

export const ACCOUNT_MESSAGES = {
  deleted: 'Your account and everything in it have been deleted.',
  wrongPassword: 'Password is incorrect',
} as const;
