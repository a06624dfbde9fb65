import { sql, type Selectable } from 'kysely';
import type { Limits } from '@shared/contracts/admin';
import type { Executor, UsersTable } from '../../db/database';
import { likePattern } from '../../db/like-pattern';

/** What the admin console shows of an account: never its password hash or preferences. */
const ADMIN_USER_COLUMNS = [
  'id',
  'username',
  'email',
  'role',
  'full_name',
  'email_verified',
  'disabled_at',
  'daily_token_limit',
  'daily_reply_limit',
  'created_at',
] as const satisfies readonly (keyof Selectable<UsersTable>)[];

export type AdminUserRow = Pick<Selectable<UsersTable>, (typeof ADMIN_USER_COLUMNS)[number]>;

/** Accounts whose username, e-mail or full name contains `q` (any case), or every account. */
function matching(db: Executor, q: string | undefined) {
  const query = db.selectFrom('users');
  if (!q) return query;
  const pattern = likePattern(q.toLowerCase());
  return query.where(
    sql<boolean>`(lower(username) like ${pattern} escape '\\' or lower(email) like ${pattern} escape '\\' or lower(coalesce(full_name, '')) like ${pattern} escape '\\')`,
  );
}

/** One page of the matching accounts, oldest first (the first account, the instance's superadmin, leads). */
export async function findUsersPage(db: Executor, f: { q?: string; page: number; pageSize: number }) {
  const [rows, count] = await Promise.all([
    matching(db, f.q)
      .select(ADMIN_USER_COLUMNS)
      .orderBy('id')
      .limit(f.pageSize)
      .offset((f.page - 1) * f.pageSize)
      .execute(),
    matching(db, f.q)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export const findAdminUser = (db: Executor, id: number) =>
  db.selectFrom('users').select(ADMIN_USER_COLUMNS).where('id', '=', id).executeTakeFirst();

export interface AdminUserChanges {
  role?: 'user' | 'admin';
  /** The time it was disabled, or null to enable it again. */
  disabledAt?: string | null;
  limits?: Partial<Limits>;
}

export const updateAdminUser = (db: Executor, id: number, changes: AdminUserChanges, now: string) =>
  db
    .updateTable('users')
    .set({
      ...(changes.role !== undefined && { role: changes.role }),
      ...(changes.disabledAt !== undefined && { disabled_at: changes.disabledAt }),
      ...(changes.limits?.dailyTokens !== undefined && { daily_token_limit: changes.limits.dailyTokens }),
      ...(changes.limits?.dailyReplies !== undefined && { daily_reply_limit: changes.limits.dailyReplies }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returning(ADMIN_USER_COLUMNS)
    .executeTakeFirstOrThrow();
