import type { FastifyPluginOptions, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ADMIN_MESSAGES } from '@shared/contracts/admin';
import type { Role } from '@shared/contracts/auth';
import { AppError } from '../lib/errors';
import { sessionOf } from './auth-guard';
import { signedInRoutes } from './signed-in';

export const isAdminRole = (role: Role) => role === 'admin' || role === 'superadmin';

/**
 * Wraps the admin console's routes: signed in (401) and an admin or superadmin (403), checked onRequest so a
 * non-admin learns nothing about the bodies these routes accept.
 */
export function adminRoutes<Options extends FastifyPluginOptions>(
  routes: FastifyPluginAsyncZod<Options>,
): FastifyPluginAsyncZod<Options> {
  return signedInRoutes<Options>(async (app, options) => {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (!isAdminRole(sessionOf(request).user.role)) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.adminOnly);
    });
    await routes(app, options);
  });
}
