import { basename } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorResponseSchema, idParamsSchema, messageResponseSchema } from '@shared/contracts/common';
import { FILE_MESSAGES, fileSchema } from '@shared/contracts/files';
import { AppError } from '../../lib/errors';
import { currentUserId } from '../../plugins/auth-guard';
import { signedInRoutes } from '../../plugins/signed-in';
import * as files from './files.service';

export interface FilesRoutesOptions {
  deps: files.FilesDeps;
}

const NAME_MAX = 255;

/** The name as the browser sent it, without folders or control characters, short enough to store. */
function cleanName(raw: string): string {
  const name = basename(raw.replaceAll('\\', '/'))
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (name || 'file').slice(-NAME_MAX);
}

/** RFC 6266: an ASCII fallback for old clients, the exact name in UTF-8 for the rest. */
function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const isCode = (err: unknown, code: string) => (err as { code?: string } | null)?.code === code;

export const filesRoutes = signedInRoutes<FilesRoutesOptions>(async (app, { deps }) => {
  const tags = ['files'];
  const { limits } = deps;
  await app.register(multipart, {
    // The larger of the two per-type limits; the type (and so its own limit) is only known from the bytes.
    limits: { fileSize: Math.max(limits.documentBytes, limits.imageBytes), files: 1, fields: 0, parts: 2 },
  });

  /** Reads the one file of a multipart request into memory (bounded by the limit above). */
  async function readUpload(request: FastifyRequest): Promise<files.Upload> {
    try {
      const part = await request.file();
      if (!part || part.fieldname !== 'file') throw new AppError('BAD_REQUEST', FILE_MESSAGES.fileRequired);
      return { name: cleanName(part.filename), bytes: await part.toBuffer() };
    } catch (err) {
      if (isCode(err, 'FST_REQ_FILE_TOO_LARGE')) {
        throw new AppError('PAYLOAD_TOO_LARGE', FILE_MESSAGES.documentTooLarge(limits.documentBytes));
      }
      if (isCode(err, 'FST_INVALID_MULTIPART_CONTENT_TYPE'))
        throw new AppError('BAD_REQUEST', FILE_MESSAGES.notMultipart);
      throw err;
    }
  }

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
