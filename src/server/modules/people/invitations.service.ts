import type { z } from 'zod';
import { ADMIN_MESSAGES, type createInvitationBodySchema } from '@shared/contracts/admin';
import { isoIn, isoNow } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newToken } from '../../lib/tokens';
import { invitationMail } from '../../mail/templates';
import { sendInBackground, type AuthDeps } from '../auth/auth.service';
import { deleteInvitation, findInvitations, insertInvitation, toInvitation } from './invitations.repository';

export type InvitationsDeps = Pick<AuthDeps, 'db' | 'clock' | 'config' | 'mailer' | 'log'>;

const DAY = 24 * 60 * 60 * 1000;

export const listInvitations = async (deps: InvitationsDeps) => ({
  invitations: (await findInvitations(deps.db.kysely)).map(toInvitation),
});

/** The link is in this answer only (and in the mail, when an address is given): the token is stored hashed. */
export async function createInvitation(
  deps: InvitationsDeps,
  createdBy: number,
  body: z.output<typeof createInvitationBodySchema>,
) {
  const { token, hash } = newToken();
  const email = body.email?.toLowerCase() ?? null;
  const row = await insertInvitation(deps.db.kysely, {
    tokenHash: hash,
    email,
    createdBy,
    now: isoNow(deps.clock),
    expiresAt: isoIn(deps.clock, body.expiresInDays * DAY),
  });
  const url = `${deps.config.appUrl}/register?invitation=${token}`;
  if (email) sendInBackground(deps, invitationMail(email, url, row.expires_at));
  return { ...toInvitation(row), url };
}

/** Deleting an invitation revokes its link. */
export async function removeInvitation(deps: InvitationsDeps, id: number) {
  const result = await deleteInvitation(deps.db.kysely, id);
  if (!result.numDeletedRows) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.invitationNotFound);
  return { message: ADMIN_MESSAGES.invitationDeleted };
}
