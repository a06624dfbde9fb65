import multipart from '@fastify/multipart';
import { BOT_TRANSFER_MESSAGES, botExportQuerySchema } from '@shared/contracts/bot-export';
import { botSchema } from '@shared/contracts/bots';
import { FILE_MESSAGES } from '@shared/contracts/files';
import { errorResponseSchema, idParamsSchema } from '@shared/contracts/common';
import { AppError } from '../../lib/errors';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import { attachmentHeader, readMultipartFile } from '../files/multipart-file';
import { exportBot } from './bot-export';
import { importBot, type BotImportDeps } from './bot-import';

export interface BotTransferRoutesOptions {
  deps: BotImportDeps;
}

/** Bots as portable files (decision 0019): export one of yours, import one from anywhere as your own copy. */
export const botTransferRoutes = signedInRoutes<BotTransferRoutesOptions>(async (app, { deps }) => {
  const tags = ['bots'];
  await app.register(multipart, { limits: { fileSize: deps.importMaxBytes, files: 1, fields: 0, parts: 2 } });

  app.get(
    '/bots/:id/export',
    {
      schema: {
        tags,
        description:
          'The bot as a versioned JSON file to download (format botty.bot); with knowledge=1, a .zip holding that ' +
          'file as bot.json and the original bytes of its knowledge files under knowledge/.',
        params: idParamsSchema,
        querystring: botExportQuerySchema,
        // No response schema: the body is a file, written as it is zipped.
      },
    },
    async (request, reply) => {
      const file = await exportBot(deps, currentUserId(request), request.params.id, request.query.knowledge);
      return reply
        .header('content-type', file.mediaType)
        .header('content-disposition', attachmentHeader(file.name))
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );

  app.post(
    '/bots/import',
    {
      schema: {
        tags,
        description:
          'Creates a private copy of the bot in a bot file (.json, or .zip with knowledge files), sent as ' +
          'multipart/form-data in the form field "file".',
        consumes: ['multipart/form-data'],
        response: {
          201: botSchema,
          400: errorResponseSchema,
          413: errorResponseSchema,
          415: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', FILE_MESSAGES.notMultipart);
      const upload = await readMultipartFile(request, BOT_TRANSFER_MESSAGES.tooLarge(deps.importMaxBytes));
      return reply.status(201).send(await importBot(deps, currentUserId(request), upload));
    },
  );
});
