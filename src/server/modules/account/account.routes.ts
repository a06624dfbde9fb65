import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteAccountBodySchema } from '@shared/contracts/account';
import { messageResponseSchema } from '@shared/contracts/auth';
import { sessionOf } from '../../plugins/auth-guard';
import { deleteAccount, exportAccount, type AccountDeps } from './account.service';

export const accountRoutes: FastifyPluginAsyncZod<{ deps: AccountDeps }> = async (app, { deps }) => {
  const guarded = { onRequest: app.requireUser };
  const tags = ['account'];
  const security = [{ bearer: [] }];

  app.get('/export', { ...guarded, schema: { tags, security } }, async (request, reply) => {
    const data = await exportAccount(deps, sessionOf(request));
    const day = data.exportedAt.slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="botty-export-${data.user.username}-${day}.json"`)
      .send(data);
  });

  app.delete(
    '/',
    { ...guarded, schema: { tags, security, body: deleteAccountBodySchema, response: { 200: messageResponseSchema } } },
    async (request) => deleteAccount(deps, sessionOf(request), request.body),
  );
};
