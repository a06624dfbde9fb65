import { deleteAccountBodySchema } from '@shared/contracts/account';
import { messageResponseSchema } from '@shared/contracts/common';
import { sessionOf } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import { deleteAccount, exportAccount, type AccountDeps } from './account.service';

export const accountRoutes = signedInRoutes<{ deps: AccountDeps }>(async (app, { deps }) => {
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
    { schema: { tags, body: deleteAccountBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => deleteAccount(deps, sessionOf(request), request.body),
  );
});
