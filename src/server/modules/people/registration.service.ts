import { ADMIN_MESSAGES, type RegistrationMode } from '@shared/contracts/admin';
import type { Db, Executor } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import { getAdminSettings } from '../settings/settings.service';
import { findInvitationByHash, useInvitation } from './invitations.repository';

/*
 * Who may sign up (decisions 0033): auth's register asks here, inside its transaction, before it looks at the
 * username or address, so a refusal says nothing about which addresses have accounts (decision 0026).
 */

export const registrationMode = async (deps: { db: Db }): Promise<RegistrationMode> =>
  (await getAdminSettings(deps)).registrationMode;

/** What a sign-up admitted by an invitation does once its account exists: uses the invitation up. */
export type Admitted = (db: Executor, userId: number) => Promise<void>;

/**
 * Throws 403 unless `mode` lets this sign-up in; by invitation, the link's token must name an unused, unexpired
 * invitation (and, when it was made for an address, this one). The answer marks it used in the same transaction.
 */
export async function admitNewcomer(
  db: Executor,
  clock: Clock,
  mode: RegistrationMode,
  body: { invitation?: string; email: string },
): Promise<Admitted | undefined> {
  if (mode === 'open') return undefined;
  if (mode === 'closed') throw new AppError('FORBIDDEN', ADMIN_MESSAGES.registrationClosed);
  if (!body.invitation) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.invitationRequired);
  const invitation = await findInvitationByHash(db, hashToken(body.invitation));
  if (!invitation || invitation.used_at !== null || invitation.expires_at <= isoNow(clock)) {
    throw new AppError('FORBIDDEN', ADMIN_MESSAGES.invitationInvalid);
  }
  if (invitation.email !== null && invitation.email !== body.email.toLowerCase()) {
    throw new AppError('FORBIDDEN', ADMIN_MESSAGES.invitationOtherEmail);
  }
  return async (tx, userId) => {
    if (!(await useInvitation(tx, invitation.id, userId, isoNow(clock)))) {
      throw new AppError('FORBIDDEN', ADMIN_MESSAGES.invitationInvalid);
    }
  };
}
