import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors';
import { authenticate, type AuthDeps, type Session } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    bearerToken: string | null;
  }
  interface FastifyInstance {
    /** onRequest hook for routes that need a signed-in caller: 401 before the body is even parsed. */
    requireUser(request: FastifyRequest): Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** The signed-in session of a request that passed `requireUser`. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  return request.session;
}

/** The id of the signed-in caller of a route declared inside `signedInRoutes`. */
export const currentUserId = (request: FastifyRequest) => sessionOf(request).user.id;

export const authGuardPlugin = fp(async (app: FastifyInstance, deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions'>) => {
  app.decorateRequest('session', null);
  app.decorateRequest('bearerToken', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const session = token ? await authenticate(deps, token) : null;
    if (!session) throw new AppError('UNAUTHENTICATED', 'Authentication required');
    request.session = session;
    request.bearerToken = token;
  });
});
