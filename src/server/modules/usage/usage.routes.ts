import type { FastifyReply } from 'fastify';
import { usageQuerySchema, usageReportSchema } from '@shared/contracts/admin';
import { errorResponseSchema } from '@shared/contracts/common';
import { adminRoutes } from '../../plugins/admin-only';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as usage from './usage.service';

const tags = ['usage'];
const description =
  'Replies and tokens per day, person, bot and model (UTC days; from/to default to the last 30 days); ' +
  'format=csv answers a CSV file with the columns day,username,bot,model,replies,input_tokens,output_tokens.';

/** The report as JSON, or every row of its range as a CSV file. */
async function send(
  deps: usage.UsageDeps,
  reply: FastifyReply,
  query: usage.UsageQuery & { format: 'json' | 'csv' },
  name: string,
) {
  const { format, ...range } = query;
  if (format === 'json') return usage.usageReport(deps, range);
  const { from, to, rows } = await usage.usageRows(deps, range);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${from}-${to}.csv"`)
    .header('cache-control', 'private, no-store')
    .send(usage.usageCsv(rows));
}

/** One's own usage, with today's use against one's limits. */
export const usageRoutes = signedInRoutes<{ deps: usage.UsageDeps }>(async (app, { deps }) => {
  app.get(
    '/usage',
    {
      schema: {
        tags,
        summary: 'Your usage, and today’s against your daily limits',
        description,
        querystring: usageQuerySchema.omit({ userId: true }),
        response: { 200: usageReportSchema, 400: errorResponseSchema },
      },
    },
    async (request, reply) => send(deps, reply, { ...request.query, userId: currentUserId(request) }, 'botty-usage'),
  );
});

/** Everyone's usage, or one person's (`userId`, with their today), for admins. */
export const adminUsageRoutes = adminRoutes<{ deps: usage.UsageDeps }>(async (app, { deps }) => {
  app.get(
    '/admin/usage',
    {
      schema: {
        tags: ['admin'],
        summary: 'Everyone’s usage, or one person’s',
        description,
        querystring: usageQuerySchema,
        response: { 200: usageReportSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => send(deps, reply, request.query, 'botty-usage-all'),
  );
});
