import { ConfigError } from '../../config';
import { isoNow } from '../../lib/clock';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { findUserByEmail, findUserByUsername, insertUser, updateUser } from '../users/users.service';
import type { AuthDeps } from './auth.service';
import { deleteUserSessions } from './sessions.repository';

/**
 * ADMIN_* variables create that superadmin, or bring an existing account of that name up to date. A changed
 * password signs that account out everywhere, as a reset does; an unchanged one is left alone, so a restart
 * does not sign the administrator out.
 */
export async function ensureBootstrapAdmin(
  deps: Pick<AuthDeps, 'db' | 'clock'>,
  admin: { username: string; email: string; password: string },
) {
  const db = deps.db.kysely;
  const email = admin.email.toLowerCase();
  const existing = await findUserByUsername(db, admin.username);
  const emailOwner = await findUserByEmail(db, email);
  if (emailOwner && emailOwner.id !== existing?.id) {
    throw new ConfigError(`ADMIN_EMAIL: ${email} already belongs to the account "${emailOwner.username}"`);
  }
  if (!existing) {
    const passwordHash = await hashPassword(admin.password);
    await insertUser(db, {
      username: admin.username,
      email,
      passwordHash,
      role: 'superadmin',
      fullName: null,
      emailVerified: true,
      now: isoNow(deps.clock),
    });
    return;
  }
  const passwordHash = (await verifyPassword(existing.password_hash, admin.password))
    ? undefined
    : await hashPassword(admin.password);
  await db.transaction().execute(async (tx) => {
    await updateUser(
      tx,
      existing.id,
      { email, passwordHash, role: 'superadmin', emailVerified: true },
      isoNow(deps.clock),
    );
    if (passwordHash) await deleteUserSessions(tx, existing.id);
  });
}
