import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authSetupResponseSchema,
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
import { registrationInfoSchema } from '@shared/contracts/admin';
import { errorResponseSchema, messageResponseSchema } from '@shared/contracts/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { sessionOf } from '../../plugins/auth-guard';
import { limitBy, limitKey, limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import * as auth from './auth.service';
import { createSetupCode } from './setup-code';
import { mailSignInLocked, setDeviceCookie, trustedDeviceNonce } from './sign-in-lock.service';

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
  const accountOf = (request: FastifyRequest) =>
    String((request.body as { username?: unknown } | undefined)?.username ?? '')
      .trim()
      .toLowerCase();
  const perAccount = limitBy(app, accountRateLimit, 'signin-account', accountOf);
  // A browser with a valid device cookie has its own budget instead of the account's (decision 0026).
  const devices = new WeakMap<FastifyRequest, string>();
  const perDevice = limitBy(app, accountRateLimit, 'signin-device', (request) => devices.get(request)!);
  // Allows one call per account and lock period: the owner hears of a lock once, not of every refused attempt.
  const lockNotice = app.createRateLimit({
    max: 1,
    timeWindow: accountRateLimit.timeWindow,
    keyGenerator: (request) => `signin-lock-mail:${limitKey(accountOf(request))}`,
  });
  async function signInLimits(request: FastifyRequest, reply: FastifyReply) {
    const nonce = await trustedDeviceNonce(deps, accountOf(request), request.headers.cookie);
    if (nonce) {
      devices.set(request, nonce);
      return perDevice(request, reply);
    }
    try {
      await perAccount(request, reply);
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED') {
        const notice = await lockNotice(request);
        if (!notice.isAllowed && !notice.isExceeded) await mailSignInLocked(deps, accountOf(request));
      }
      throw err;
    }
  }
  const tags = ['auth'];
  const setupCode = createSetupCode(deps);
  app.addHook('onReady', () => setupCode.announce());

  app.post(
    '/login',
    {
      ...limited,
      preHandler: signInLimits,
      schema: {
        tags,
        body: loginBodySchema,
        response: { 200: loginResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { device, ...signedIn } = await auth.login(deps, request.body);
      setDeviceCookie(reply, device, request.protocol === 'https');
      return signedIn;
    },
  );

  app.post(
    '/register',
    {
      ...limited,
      schema: {
        tags,
        body: registerBodySchema,
        response: { 201: registerResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await auth.register(deps, request.body, setupCode)),
  );

  // Public, like the register page that asks it; one indexed read once an account exists.
  app.get('/setup', { schema: { tags, response: { 200: authSetupResponseSchema } } }, async () => ({
    setupCodeRequired: await setupCode.required(),
  }));

  // Public: the register page shows the form, the invitation field or "closed" from it.
  app.get('/registration', { schema: { tags, response: { 200: registrationInfoSchema } } }, async () =>
    auth.registrationInfo(deps),
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
