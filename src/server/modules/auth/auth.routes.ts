import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBodySchema,
  createAdminBodySchema,
  emailBodySchema,
  loginBodySchema,
  loginResponseSchema,
  messageResponseSchema,
  profileBodySchema,
  registerBodySchema,
  registerResponseSchema,
  resetPasswordBodySchema,
  tokenParamsSchema,
  userSchema,
} from '@shared/contracts/auth';
import { sessionOf } from '../../plugins/auth-guard';
import type { RateLimit } from '../../plugins/rate-limit';
import * as auth from './auth.service';

const errorSchema = z.object({ message: z.string() }).loose();
const secured = [{ bearer: [] }];

export interface AuthRoutesOptions {
  deps: auth.AuthDeps;
  rateLimit: RateLimit;
}

// Signed-in routes check the token onRequest, so a caller without a valid one gets 401 before its body is
// parsed or validated (a preHandler would answer 400 to an anonymous caller's bad body).
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { deps, rateLimit }) => {
  const limited = { config: { rateLimit } };
  const tags = ['auth'];

  app.post(
    '/login',
    {
      ...limited,
      schema: {
        tags,
        body: loginBodySchema,
        response: { 200: loginResponseSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => auth.login(deps, request.body),
  );

  app.post(
    '/register',
    {
      ...limited,
      schema: { tags, body: registerBodySchema, response: { 201: registerResponseSchema, 409: errorSchema } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(deps, request.body)),
  );

  app.get(
    '/user',
    { onRequest: app.requireUser, schema: { tags, security: secured, response: { 200: userSchema } } },
    async (request) => sessionOf(request).user,
  );

  app.post(
    '/logout',
    { onRequest: app.requireUser, schema: { tags, security: secured, response: { 200: messageResponseSchema } } },
    async (request) => auth.logout(deps, request.bearerToken!),
  );

  app.get(
    '/verify-email/:token',
    {
      ...limited,
      schema: { tags, params: tokenParamsSchema, response: { 200: messageResponseSchema, 400: errorSchema } },
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
      schema: { tags, body: resetPasswordBodySchema, response: { 200: messageResponseSchema, 400: errorSchema } },
    },
    async (request) => auth.resetPassword(deps, request.body),
  );

  app.patch(
    '/profile',
    {
      onRequest: app.requireUser,
      schema: { tags, security: secured, body: profileBodySchema, response: { 200: userSchema, 409: errorSchema } },
    },
    async (request) => auth.updateProfile(deps, sessionOf(request), request.body),
  );

  app.post(
    '/change-password',
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        security: secured,
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema, 400: errorSchema },
      },
    },
    async (request) => auth.changePassword(deps, sessionOf(request), request.body),
  );

  app.post(
    '/create-admin',
    {
      onRequest: app.requireUser,
      schema: { tags, security: secured, body: createAdminBodySchema, response: { 201: userSchema, 403: errorSchema } },
    },
    async (request, reply) => reply.status(201).send(await auth.createAdmin(deps, sessionOf(request), request.body)),
  );
};
