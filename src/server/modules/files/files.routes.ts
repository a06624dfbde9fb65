import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { FILE_MESSAGES, fileSchema } from '@shared/contracts/files';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as files from './files.service';
import { attachmentHeader, readMultipartFile } from './multipart-file';

export interface FilesRoutesOptions {
  deps: files.FilesDeps;
}

export const filesRoutes = signedInRoutes<FilesRoutesOptions>(async (app, { deps }) => {
  const tags = ['files'];
  const { limits } = deps;
  await app.register(multipart, {
    // The larger of the two per-type limits; the type (and so its own limit) is only known from the bytes.
    limits: { fileSize: Math.max(limits.documentBytes, limits.imageBytes), files: 1, fields: 0, parts: 2 },
  });

  const readUpload = (request: FastifyRequest) =>
    readMultipartFile(request, FILE_MESSAGES.documentTooLarge(limits.documentBytes));

  const uploadSchema = {
    tags,
    params: idParamsSchema,
    consumes: ['multipart/form-data'],
    response: { 201: fileSchema, 404: errorResponseSchema, 413: errorResponseSchema, 415: errorResponseSchema },
  };

  app.post('/bots/:id/files', { schema: uploadSchema }, async (request, reply) => {
    const file = await files.addKnowledgeFile(
      deps,
      currentUserId(request),
      request.params.id,
      await readUpload(request),
    );
    return reply.status(201).send(file);
  });

  app.post('/conversations/:id/files', { schema: uploadSchema }, async (request, reply) => {
    const file = await files.addAttachment(deps, currentUserId(request), request.params.id, await readUpload(request));
    return reply.status(201).send(file);
  });

  app.get(
    '/bots/:id/files',
    { schema: { tags, params: idParamsSchema, response: { 200: z.array(fileSchema), 404: errorResponseSchema } } },
    async (request) => files.listKnowledgeFiles(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/files/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: fileSchema, 404: errorResponseSchema } } },
    async (request) => files.getFile(deps, currentUserId(request), request.params.id),
  );

  app.get(
    '/files/:id/content',
    // No response schema: the body is the file's own bytes, streamed as stored.
    { schema: { tags, params: idParamsSchema } },
    async (request, reply) => {
      const { file, content } = await files.openFileContent(deps, currentUserId(request), request.params.id);
      // Served as a download that the browser never renders: an uploaded HTML file must not run as our page.
      return reply
        .header('content-type', file.mediaType)
        .header('content-length', file.size)
        .header('content-disposition', attachmentHeader(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(content);
    },
  );

  app.delete(
    '/files/:id',
    { schema: { tags, params: idParamsSchema, response: { 200: messageResponseSchema, 404: errorResponseSchema } } },
    async (request) => files.deleteFile(deps, currentUserId(request), request.params.id),
  );
});
