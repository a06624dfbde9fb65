import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { acceptsUpload, hasCapability } from '@shared/bots/capabilities';
import type { Bot } from '@shared/contracts/bots';
import { FILE_MESSAGES, type KnowledgeFile } from '@shared/contracts/files';
import { CHAT_MESSAGES } from '@shared/contracts/chat';
import type { FilesConfig } from '../../config';
import type { Db } from '../../db/database';
import { writeAtomically } from '../../db/write-atomically';
import { isoIn, isoNow, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireOwnedBot, updateBot } from '../bots/bots.service';
import { findConversationForReply } from '../bots/sharing.service';
import { detectType, type DetectedType } from './detect-type';
import type { FileJobs } from './file-jobs';
import {
  deleteFileRow,
  findKnowledgeFiles,
  findOwnedFile,
  insertFileWithin,
  releaseFile,
  sumBytesOfUser,
  toFile,
} from './files.repository';
import type { FileStorage } from './storage';

export interface FilesDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  limits: FilesConfig['limits'];
  jobs: Pick<FileJobs, 'wake'>;
}

export interface Upload {
  name: string;
  bytes: Uint8Array;
}

const tooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

/** Type from the bytes, then the size limit of that type; the limits on what is stored are counted when storing. */
async function checkUpload(deps: FilesDeps, upload: Upload): Promise<DetectedType> {
  const type = await detectType(upload.bytes, upload.name);
  const { limits } = deps;
  if (type.file.kind === 'image' && upload.bytes.length > limits.imageBytes) {
    throw tooLarge(FILE_MESSAGES.imageTooLarge(limits.imageBytes));
  }
  if (type.file.kind === 'document' && upload.bytes.length > limits.documentBytes) {
    throw tooLarge(FILE_MESSAGES.documentTooLarge(limits.documentBytes));
  }
  return type;
}

async function checkKnowledgeUpload(deps: FilesDeps, upload: Upload) {
  const type = await checkUpload(deps, upload);
  if (type.file.kind === 'image') throw new AppError('UNSUPPORTED_MEDIA_TYPE', FILE_MESSAGES.imagesNotKnowledge);
  return type;
}

/**
 * How long a file's row keeps the job runner away while its bytes are being stored: a server that stops
 * meanwhile leaves a document that is read once this passes, and fails as missing, so its owner sees it.
 */
const STORING_LEASE_MS = 15 * 60_000;

/**
 * Reserves the file's row within the user's quota and its place's file limit (atomically, so simultaneous
 * uploads cannot pass them together), then stores the bytes; a refused upload stores nothing. A document starts
 * `processing` and the job runner reads it once its bytes are there. An empty file is kept as `failed` so its
 * owner sees why, and an image needs no reading.
 */
async function storeUpload(
  deps: FilesDeps,
  target: { userId: number; botId: number; conversationId: number | null },
  upload: Upload,
  type: DetectedType,
): Promise<KnowledgeFile> {
  const key = `u${target.userId}/${randomUUID()}`;
  const empty = upload.bytes.length === 0;
  const status = empty ? 'failed' : type.file.kind === 'image' ? 'ready' : 'processing';
  const now = isoNow(deps.clock);
  const { limits } = deps;
  const row = await writeAtomically(deps.db, (scope) =>
    insertFileWithin(
      scope,
      {
        user_id: target.userId,
        bot_id: target.botId,
        conversation_id: target.conversationId,
        name: upload.name,
        media_type: type.mediaType,
        size: upload.bytes.length,
        storage_key: key,
        content_hash: createHash('sha256').update(upload.bytes).digest('hex'),
        status,
        error: empty ? FILE_MESSAGES.empty : null,
        lease_until: isoIn(deps.clock, STORING_LEASE_MS),
        created_at: now,
        updated_at: now,
      },
      { bytesPerUser: limits.bytesPerUser, filesHere: limits.filesPerBot },
    ),
  );
  if (row === 'quota') throw tooLarge(FILE_MESSAGES.quotaExceeded(limits.bytesPerUser));
  if (row === 'count') {
    throw tooLarge(
      target.conversationId === null
        ? FILE_MESSAGES.tooManyFiles(limits.filesPerBot)
        : FILE_MESSAGES.tooManyAttachments(limits.filesPerBot),
    );
  }
  try {
    await deps.storage.put(key, upload.bytes, type.mediaType);
  } catch (err) {
    await deleteFileRow(deps.db.kysely, row.id).catch(() => {});
    throw err;
  }
  const [released] = await releaseFile(deps.db.kysely, row.id);
  if (!released?.numUpdatedRows) {
    // Deleted while its bytes were on their way: they may have arrived after the deletion removed the key.
    await deps.storage.delete(key).catch(() => {});
    throw new AppError('NOT_FOUND', FILE_MESSAGES.notFound);
  }
  if (status === 'processing') deps.jobs.wake();
  return toFile(row);
}

/** Stores a document that passed `checkKnowledgeUploads` as knowledge of the caller's bot, read like any upload. */
export const storeKnowledgeFile = (
  deps: FilesDeps,
  userId: number,
  botId: number,
  upload: Upload,
  type: DetectedType,
) => storeUpload(deps, { userId, botId, conversationId: null }, upload, type);

/** Adds a document to a bot's knowledge; the first one turns on its Document analysis capability. */
export async function addKnowledgeFile(
  deps: FilesDeps,
  userId: number,
  botId: number,
  upload: Upload,
): Promise<KnowledgeFile> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  const type = await checkKnowledgeUpload(deps, upload);
  const file = await storeKnowledgeFile(deps, userId, botId, upload, type);
  // A new version records the knowledge set with this file (and the first file turns document analysis on),
  // decided on the bot as it is under the update's lock: a simultaneous upload may have done either already.
  const withDocuments = (current: Bot) =>
    hasCapability(current, 'document_analysis')
      ? {}
      : { capabilities: [...current.capabilities, 'document_analysis' as const] };
  await updateBot(deps, userId, botId, withDocuments).catch(async (err: unknown) => {
    // The answer is an error, so the file must not stay as if the upload had worked.
    await deleteFileRow(deps.db.kysely, file.id).catch(() => {});
    throw err;
  });
  return file;
}

/**
 * The checks of a knowledge upload for the documents of a new bot, all before any is stored, so either all of
 * them can be added or none is; an error names the file it is about.
 */
export async function checkKnowledgeUploads(deps: FilesDeps, userId: number, uploads: Upload[]) {
  if (uploads.length > deps.limits.filesPerBot) throw tooLarge(FILE_MESSAGES.tooManyFiles(deps.limits.filesPerBot));
  const types: DetectedType[] = [];
  // Counted again as each is stored (storeUpload), when a simultaneous upload may have taken the room.
  let usedBytes = await sumBytesOfUser(deps.db.kysely, userId);
  for (const upload of uploads) {
    try {
      types.push(await checkKnowledgeUpload(deps, upload));
      usedBytes += upload.bytes.length;
      if (usedBytes > deps.limits.bytesPerUser) throw tooLarge(FILE_MESSAGES.quotaExceeded(deps.limits.bytesPerUser));
    } catch (err) {
      throw err instanceof AppError ? new AppError(err.code, `${upload.name}: ${err.message}`) : err;
    }
  }
  return types;
}

/** Attaches a document or an image to one conversation; the bot must have the matching capability. */
export async function addAttachment(
  deps: FilesDeps,
  userId: number,
  conversationId: number,
  upload: Upload,
): Promise<KnowledgeFile> {
  const found = await findConversationForReply(deps.db.kysely, userId, conversationId);
  if (!found) throw new AppError('NOT_FOUND', CHAT_MESSAGES.conversationNotFound);
  const { bot } = found;
  const type = await checkUpload(deps, upload);
  if (!acceptsUpload(bot, type.file.kind)) {
    throw new AppError('FORBIDDEN', type.file.kind === 'image' ? FILE_MESSAGES.imagesOff : FILE_MESSAGES.documentsOff);
  }
  return storeUpload(deps, { userId, botId: bot.id, conversationId }, upload, type);
}

/** A knowledge file as a bot's export carries it: its name, its type and its bytes, read from storage on `open`. */
export interface KnowledgeContent {
  name: string;
  mediaType: string;
  open: () => Promise<Readable>;
}

/** The bot's knowledge files, oldest first, with their bytes to read; the caller has checked who may have them. */
export async function knowledgeContents(deps: FilesDeps, botId: number): Promise<KnowledgeContent[]> {
  return (await findKnowledgeFiles(deps.db.kysely, botId)).map((row) => ({
    name: row.name,
    mediaType: row.media_type,
    open: () => deps.storage.get(row.storage_key),
  }));
}

export async function listKnowledgeFiles(deps: FilesDeps, userId: number, botId: number): Promise<KnowledgeFile[]> {
  await requireOwnedBot(deps.db.kysely, userId, botId);
  return (await findKnowledgeFiles(deps.db.kysely, botId)).map(toFile);
}

async function requireOwnedFile(deps: FilesDeps, userId: number, fileId: number) {
  const row = await findOwnedFile(deps.db.kysely, userId, fileId);
  if (!row) throw new AppError('NOT_FOUND', FILE_MESSAGES.notFound);
  return row;
}

export const getFile = async (deps: FilesDeps, userId: number, fileId: number) =>
  toFile(await requireOwnedFile(deps, userId, fileId));

export async function openFileContent(
  deps: FilesDeps,
  userId: number,
  fileId: number,
): Promise<{ file: KnowledgeFile; content: Readable }> {
  const row = await requireOwnedFile(deps, userId, fileId);
  return { file: toFile(row), content: await deps.storage.get(row.storage_key) };
}

/** The row and its chunks go now; the bytes go with the runner's next pass (queued by the delete trigger). */
export async function deleteFile(deps: FilesDeps, userId: number, fileId: number) {
  const row = await requireOwnedFile(deps, userId, fileId);
  await deleteFileRow(deps.db.kysely, fileId);
  // A bot's knowledge without it is a new version of the bot.
  if (row.bot_id !== null && row.conversation_id === null) await updateBot(deps, userId, row.bot_id, {});
  deps.jobs.wake();
  return { message: FILE_MESSAGES.deleted };
}
