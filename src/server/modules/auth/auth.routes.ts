import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  createAdminBodySchema,
  emailBodySchema,
  loginBodySchema,
  loginResponseSchema,
  profileBodySchema,
  registerBodySchema,
  registerResponseSchema,
  resetPasswordBodySchema,
  tokenParamsSchema,
  userSchema,
} from '@shared/contracts/auth';
import { errorResponseSchema, messageResponseSchema } from '@shared/contracts/common';
import { sessionOf } from '../../plugins/auth-guard';
import { limitBy, limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as auth from './auth.service';

export interface AuthRoutesOptions {
  deps: auth.AuthDeps;
  /** Per address on the anonymous routes; per user on the routes that check a signed-in user's password. */
  rateLimit: RateLimit;
  /** Sign-in attempts per account, whatever the address. */
  accountRateLimit: RateLimit;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { deps, rateLimit, accountRateLimit },
) => {
  const limited = { config: { rateLimit } };
  const perAccount = limitBy(app, accountRateLimit, 'signin-account', (request) =>
    String((request.body as { username?: unknown } | undefined)?.username ?? '')
      .trim()
      .toLowerCase(),
  );
  const tags = ['auth'];

  app.post(
    '/login',
    {
      ...limited,
      preHandler: perAccount,
      schema: {
        tags,
        body: loginBodySchema,
        response: { 200: loginResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => auth.login(deps, request.body),
  );

  app.post(
    '/register',
    {
      ...limited,
      schema: { tags, body: registerBodySchema, response: { 201: registerResponseSchema, 409: errorResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(deps, request.body)),
  );

  app.get(
    '/verify-email/:token',
    {
      ...limited,
      schema: { tags, params: tokenParamsSchema, response: { 200: messageResponseSchema, 400: errorResponseSchema } },
    },
    async (request) => auth.verifyEmail(deps, request.params.token),
  );

  app.post(
    '/resend-verification',
    { ...limited, schema: { tags, body: emailBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => auth.resendVerification(deps, request.body.email),
  );

  app.post(
    '/forgot-password',
    { ...limited, schema: { tags, body: emailBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => auth.forgotPassword(deps, request.body.email),
  );

  app.post(
    '/reset-password',
    {
      ...limited,
      schema: {
        tags,
        body: resetPasswordBodySchema,
        response: { 200: messageResponseSchema, 400: errorResponseSchema },
      },
    },
    async (request) => auth.resetPassword(deps, request.body),
  );

  await app.register(
    signedInRoutes(async (app) => {
      app.get('/user', { schema: { tags, response: { 200: userSchema } } }, async (request) => sessionOf(request).user);

      app.post('/logout', { schema: { tags, response: { 200: messageResponseSchema } } }, async (request) =>
        auth.logout(deps, sessionOf(request), request.bearerToken!),
      );

      app.patch(
        '/profile',
        {
          schema: { tags, body: profileBodySchema, response: { 200: userSchema, 409: errorResponseSchema } },
        },
        async (request) => auth.updateProfile(deps, sessionOf(request), request.body),
      );

      app.post(
        '/change-password',
        {
          preHandler: limitPerUser(app, rateLimit, 'password-check'),
          schema: {
            tags,
            body: changePasswordBodySchema,
            response: { 200: messageResponseSchema, 400: errorResponseSchema },
          },
        },
        async (request) => auth.changePassword(deps, sessionOf(request), request.body),
      );

      app.post(
        '/create-admin',
        {
          schema: { tags, body: createAdminBodySchema, response: { 201: userSchema, 403: errorResponseSchema } },
        },
        async (request, reply) =>
          reply.status(201).send(await auth.createAdmin(deps, sessionOf(request), request.body)),
      );
    }),
  );
};
