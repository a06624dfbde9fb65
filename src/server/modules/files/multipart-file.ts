import { basename } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { FILE_MESSAGES } from '@shared/contracts/files';
import { AppError } from '../../lib/errors';
import type { Upload } from './files.service';

const NAME_MAX = 255;

/** The name as the browser sent it, without folders or control characters, short enough to store. */
export function cleanName(raw: string): string {
  const name = basename(raw.replaceAll('\\', '/'))
    // eslint-disable-next-line no-control-regex -- control characters are what is being removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (name || 'file').slice(-NAME_MAX);
}

/** RFC 6266: an ASCII fallback for old clients, the exact name in UTF-8 for the rest. */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const isCode = (err: unknown, code: string) => (err as { code?: string } | null)?.code === code;

/**
 * Reads the one file of a multipart request (form field `file`) into memory, bounded by the `fileSize` limit the
 * route's @fastify/multipart was registered with; past it, 413 with `tooLargeMessage`.
 */
export async function readMultipartFile(request: FastifyRequest, tooLargeMessage: string): Promise<Upload> {
  try {
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw new AppError('BAD_REQUEST', FILE_MESSAGES.fileRequired);
    return { name: cleanName(part.filename), bytes: await part.toBuffer() };
  } catch (err) {
    if (isCode(err, 'FST_REQ_FILE_TOO_LARGE')) throw new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage);
    if (isCode(err, 'FST_INVALID_MULTIPART_CONTENT_TYPE'))
      throw new AppError('BAD_REQUEST', FILE_MESSAGES.notMultipart);
    throw err;
  }
}
