import type { z } from 'zod';
import {
  ADMIN_MESSAGES,
  type adminUserQuerySchema,
  type AdminUser,
  type PatchAdminUserBody,
  type UsageToday,
} from '@shared/contracts/admin';
import { isoNow } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { eraseAccount } from '../account/account.service';
import { endUserSessions, sendVerification, type AuthDeps, type Session } from '../auth/auth.service';
import { roleOf } from '../users/users.service';
import { usageTodayFor } from '../usage/usage.service';
import { findAdminUser, findUsersPage, updateAdminUser, type AdminUserRow } from './people.repository';

/** Everything the admin's user actions reach: auth's mail and sessions, account deletion, usage. */
export type PeopleDeps = AuthDeps;

const toAdminUser = (row: AdminUserRow, today: UsageToday): AdminUser => ({
  id: row.id,
  username: row.username,
  email: row.email,
  role: roleOf(row.role),
  fullName: row.full_name,
  emailVerified: Boolean(row.email_verified),
  disabled: row.disabled_at !== null,
  createdAt: row.created_at,
  limits: {
    dailyTokens: row.daily_token_limit === null ? null : Number(row.daily_token_limit),
    dailyReplies: row.daily_reply_limit,
  },
  today,
});

async function withUsage(deps: PeopleDeps, rows: AdminUserRow[]): Promise<AdminUser[]> {
  const usage = await usageTodayFor(deps, rows);
  return rows.map((row) => toAdminUser(row, usage.get(row.id)!));
}

export async function listUsers(deps: PeopleDeps, query: z.infer<typeof adminUserQuerySchema>) {
  const { rows, total } = await findUsersPage(deps.db.kysely, query);
  return { users: await withUsage(deps, rows), total, page: query.page, pageSize: query.pageSize };
}

async function requireUser(deps: PeopleDeps, id: number) {
  const row = await findAdminUser(deps.db.kysely, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
  return row;
}

/**
 * Disabling or deleting: never one's own account (the console would lock its user out), and a superadmin's only by
 * a superadmin, so an admin cannot take the instance from its owner.
 */
function assertMayRemove(caller: Session, target: AdminUserRow) {
  if (target.id === caller.user.id) throw new AppError('CONFLICT', ADMIN_MESSAGES.notYourself);
  if (roleOf(target.role) === 'superadmin' && caller.user.role !== 'superadmin') {
    throw new AppError('FORBIDDEN', ADMIN_MESSAGES.superadminProtected);
  }
}

export async function patchUser(deps: PeopleDeps, caller: Session, id: number, body: PatchAdminUserBody) {
  const target = await requireUser(deps, id);
  if (body.role !== undefined) {
    if (caller.user.role !== 'superadmin') throw new AppError('FORBIDDEN', ADMIN_MESSAGES.superadminOnly);
    if (roleOf(target.role) === 'superadmin') throw new AppError('CONFLICT', ADMIN_MESSAGES.superadminRoleFixed);
  }
  if (body.disabled !== undefined && body.disabled !== (target.disabled_at !== null)) assertMayRemove(caller, target);
  const now = isoNow(deps.clock);
  const disabledAt = body.disabled === undefined ? undefined : body.disabled ? (target.disabled_at ?? now) : null;
  const row = await deps.db.kysely.transaction().execute(async (tx) => {
    const updated = await updateAdminUser(tx, id, { role: body.role, disabledAt, limits: body.limits }, now);
    if (disabledAt) await endUserSessions(tx, id);
    return updated;
  });
  // Sessions cached on any instance carry the role, and must stop for a disabled account.
  if (body.role !== undefined || body.disabled !== undefined) await deps.sessions.forgetUser(id);
  return (await withUsage(deps, [row]))[0]!;
}

export async function deleteUser(deps: PeopleDeps, caller: Session, id: number) {
  assertMayRemove(caller, await requireUser(deps, id));
  await eraseAccount(deps, id);
  return { message: ADMIN_MESSAGES.userDeleted };
}

export async function resendVerification(deps: PeopleDeps, id: number) {
  const target = await requireUser(deps, id);
  if (target.email_verified) throw new AppError('CONFLICT', ADMIN_MESSAGES.alreadyVerified);
  await sendVerification(deps, target);
  return { message: ADMIN_MESSAGES.verificationSent };
}
