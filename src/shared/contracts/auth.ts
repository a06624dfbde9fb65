import { z } from 'zod';
import {
  EMAIL_MAX,
  FULL_NAME_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PROFILE_IMAGE_URL_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
} from '../constants';

/** Validation messages, word for word from spec §5. */
export const MESSAGES = {
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  usernameMin: `Username must be at least ${USERNAME_MIN} characters`,
  emailInvalid: 'Please enter a valid email address',
  passwordMin: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordsMismatch: 'Passwords do not match',
} as const;

const username = z
  .string({ error: MESSAGES.usernameRequired })
  .trim()
  .min(USERNAME_MIN, MESSAGES.usernameMin)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dots, dashes and underscores');

const email = z
  .string({ error: MESSAGES.emailInvalid })
  .trim()
  .max(EMAIL_MAX, MESSAGES.emailInvalid)
  .pipe(z.email(MESSAGES.emailInvalid));

const newPassword = z
  .string({ error: MESSAGES.passwordMin })
  .min(PASSWORD_MIN, MESSAGES.passwordMin)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

const token = z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200, 'Token is invalid');

export const roleSchema = z.enum(['user', 'admin', 'superadmin']);
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  fullName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const loginBodySchema = z.object({
  username: z.string({ error: MESSAGES.usernameRequired }).trim().min(1, MESSAGES.usernameRequired).max(EMAIL_MAX),
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(PASSWORD_MAX),
  rememberMe: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;
export const loginResponseSchema = z.object({ token: z.string(), user: userSchema });

/** fullName and role are accepted for the spec's payload shape; role is ignored (decisions §1). */
export const registerBodySchema = z.object({
  username,
  email,
  password: newPassword,
  fullName: z.string().trim().max(FULL_NAME_MAX).optional(),
  role: z.string().optional(),
  /** Printed in the server log; needed only for the first account of a public server (decision 0030). */
  setupCode: z.string().max(100, 'Setup code is invalid').optional(),
  /** The token of an invitation link (`/register?invitation=…`), needed when registration is by invitation. */
  invitation: z.string().max(200, 'This invitation link is invalid').optional(),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;
/** `user` only when the account is ready to use: an answer awaiting verification says nothing about the address. */
export const registerResponseSchema = z.object({
  message: z.string(),
  user: userSchema.optional(),
  needsVerification: z.boolean(),
});

/** GET /api/auth/setup: whether the register page must ask for the setup code. */
export const authSetupResponseSchema = z.object({ setupCodeRequired: z.boolean() });
export type AuthSetupResponse = z.infer<typeof authSetupResponseSchema>;

export const registerFormSchema = z
  .object({
    username,
    email,
    password: newPassword,
    confirmPassword: z.string(),
    setupCode: z.string().trim().optional(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsMismatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const emailBodySchema = z.object({ email });
export type EmailBody = z.infer<typeof emailBodySchema>;

export const resetPasswordBodySchema = z.object({ token, newPassword });
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const resetPasswordFormSchema = z
  .object({ password: newPassword, confirmPassword: newPassword })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsMismatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export const tokenParamsSchema = z.object({ token });

export const profileBodySchema = z.object({
  fullName: z.string().trim().max(FULL_NAME_MAX, `Full name must be at most ${FULL_NAME_MAX} characters`).optional(),
  username: username.optional(),
  profileImageUrl: z
    .union([
      z.literal(''),
      z.url({ protocol: /^https?$/, error: 'Profile image must be an http(s) URL' }).max(PROFILE_IMAGE_URL_MAX),
    ])
    .optional(),
});
export type ProfileBody = z.infer<typeof profileBodySchema>;

export const changePasswordBodySchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(PASSWORD_MAX),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const createAdminBodySchema = z.object({
  username,
  email,
  password: newPassword,
  role: z.string().optional(),
});
