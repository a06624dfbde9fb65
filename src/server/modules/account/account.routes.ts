import { deleteAccountBodySchema } from '@shared/contracts/account';
import { messageResponseSchema } from '@shared/contracts/common';
import { sessionOf } from '../../plugins/auth-guard';
import { limitPerUser, type RateLimit } from '../../plugins/rate-limit';
import { signedInRoutes } from '../../plugins/signed-in';
import { deleteAccount, exportAccount, type AccountDeps } from './account.service';

export interface AccountRoutesOptions {
  deps: AccountDeps;
  /** Per user on deletion, which checks the password. */
  passwordCheckLimit: RateLimit;
}

export const accountRoutes = signedInRoutes<AccountRoutesOptions>(async (app, { deps, passwordCheckLimit }) => {
  const tags = ['account'];

  app.get('/export', { schema: { tags } }, async (request, reply) => {
    const data = await exportAccount(deps, sessionOf(request));
    const day = data.exportedAt.slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="botty-export-${data.user.username}-${day}.json"`)
      .send(data);
  });

  app.delete(
    '/',
    {
      preHandler: limitPerUser(app, passwordCheckLimit, 'password-check'),
      schema: { tags, body: deleteAccountBodySchema, response: { 200: messageResponseSchema } },
    },
    async (request) => deleteAccount(deps, sessionOf(request), request.body),
  );
});
