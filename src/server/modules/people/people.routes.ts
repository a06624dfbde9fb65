import {
  adminUserListSchema,
  adminUserQuerySchema,
  adminUserSchema,
  createdInvitationSchema,
  createInvitationBodySchema,
  invitationListSchema,
  patchAdminUserBodySchema,
} from '@shared/contracts/admin';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { adminRoutes } from '../../plugins/admin-only';
import { currentUserId, sessionOf } from '../../plugins/auth-guard';
import * as invitations from './invitations.service';
import * as people from './people.service';

/** The admin console's people: accounts (roles, disabling, limits, deletion) and invitation links. */
export const peopleRoutes = adminRoutes<{ deps: people.PeopleDeps }>(async (app, { deps }) => {
  const tags = ['admin'];
  app.get(
    '/admin/users',
    {
      schema: {
        tags,
        summary: 'Accounts matching `q` (username, e-mail or full name), a page at a time, with today’s usage',
        querystring: adminUserQuerySchema,
        response: { 200: adminUserListSchema, 400: errorResponseSchema },
      },
    },
    async (request) => people.listUsers(deps, request.query),
  );
  app.patch(
    '/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'Change an account’s role (superadmins only), disable or enable it, or set its daily limits',
        params: idParamsSchema,
        body: patchAdminUserBodySchema,
        response: {
          200: adminUserSchema,
          400: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => people.patchUser(deps, sessionOf(request), request.params.id, request.body),
  );
  app.delete(
    '/admin/users/:id',
    {
      schema: {
        tags,
        summary: 'Delete an account and everything it owns',
        params: idParamsSchema,
        response: {
          200: messageResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => people.deleteUser(deps, sessionOf(request), request.params.id),
  );
  app.post(
    '/admin/users/:id/resend-verification',
    {
      schema: {
        tags,
        summary: 'Mail the account a new verification link',
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request) => people.resendVerification(deps, request.params.id),
  );

  app.get(
    '/admin/invitations',
    { schema: { tags, summary: 'Invitation links, newest first', response: { 200: invitationListSchema } } },
    async () => invitations.listInvitations(deps),
  );
  app.post(
    '/admin/invitations',
    {
      schema: {
        tags,
        summary: 'Create an invitation link (in this answer only), mailed too when an address is given',
        body: createInvitationBodySchema,
        response: { 201: createdInvitationSchema, 400: errorResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invitations.createInvitation(deps, currentUserId(request), request.body)),
  );
  app.delete(
    '/admin/invitations/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an invitation link',
        params: idParamsSchema,
        response: { 200: messageResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => invitations.removeInvitation(deps, request.params.id),
  );
});
