import { sql, type Selectable } from 'kysely';
import { roleSchema, type Role, type User } from '@shared/contracts/auth';
import type { DbScope, Executor, UsersTable } from '../../db/database';

export type UserRow = Selectable<UsersTable>;

/** What a user is answered with (toUser): never the password hash, nor preferences, which have routes of their own. */
export const USER_COLUMNS = [
  'id',
  'username',
  'email',
  'role',
  'full_name',
  'profile_image_url',
  'email_verified',
  'created_at',
] as const satisfies readonly (keyof UserRow)[];

/** Anything unknown in the column reads as the least privileged role. */
export const roleOf = (value: string): Role => roleSchema.catch('user').parse(value);

export function toUser(row: Pick<UserRow, (typeof USER_COLUMNS)[number]>): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: roleOf(row.role),
    fullName: row.full_name,
    profileImageUrl: row.profile_image_url,
    emailVerified: Boolean(row.email_verified),
    createdAt: row.created_at,
  };
}

export const findUserById = (db: Executor, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** Login accepts either the username or the e-mail address (decisions §1), both case-insensitive. */
export const findUserByLogin = (db: Executor, login: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([eb(sql`lower(username)`, '=', login.toLowerCase()), eb(sql`lower(email)`, '=', login.toLowerCase())]),
    )
    .orderBy('id')
    .executeTakeFirst();

export const findUserByUsername = (db: Executor, username: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();

export const findUserByEmail = (db: Executor, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

export async function usernameTaken(db: Executor, username: string, exceptUserId?: number): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Whether the instance has no account yet, decided so that only one of several concurrent sign-ups sees "yes".
 * SQLite runs one write transaction at a time already; PostgreSQL's read-committed transactions would all count
 * zero, so there the first sign-ups queue on a table lock and count again once the earlier ones committed.
 */
export async function isFirstUser({ kysely: db, kind }: DbScope): Promise<boolean> {
  if ((await countUsers(db)) > 0) return false;
  if (kind === 'postgres') await sql`lock table users in share row exclusive mode`.execute(db);
  return (await countUsers(db)) === 0;
}

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  role: Role;
  fullName: string | null;
  emailVerified: boolean;
  now: string;
}

export const insertUser = (db: Executor, u: NewUser) =>
  db
    .insertInto('users')
    .values({
      username: u.username,
      email: u.email,
      password_hash: u.passwordHash,
      role: u.role,
      full_name: u.fullName,
      email_verified: u.emailVerified,
      created_at: u.now,
      updated_at: u.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

export interface UserChanges {
  username?: string;
  email?: string;
  passwordHash?: string;
  role?: Role;
  fullName?: string | null;
  profileImageUrl?: string | null;
  emailVerified?: boolean;
}

export const updateUser = (db: Executor, id: number, changes: UserChanges, now: string) =>
  db
    .updateTable('users')
    .set({
      ...(changes.username !== undefined && { username: changes.username }),
      ...(changes.email !== undefined && { email: changes.email }),
      ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
      ...(changes.role !== undefined && { role: changes.role }),
      ...(changes.fullName !== undefined && { full_name: changes.fullName }),
      ...(changes.profileImageUrl !== undefined && { profile_image_url: changes.profileImageUrl }),
      ...(changes.emailVerified !== undefined && { email_verified: changes.emailVerified }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
