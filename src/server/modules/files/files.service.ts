import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { acceptsUpload, hasCapability } from '@shared/bots/capabilities';
import { FILE_MESSAGES, type KnowledgeFile } from '@shared/contracts/files';
import { CHAT_MESSAGES } from '@shared/contracts/chat';
import type { FilesConfig } from '../../config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { requireOwnedBot, updateBot } from '../bots/bots.service';
import { findConversationForReply } from '../bots/sharing.service';
import { detectType, type DetectedType } from './detect-type';
import type { FileJobs } from './file-jobs';
import {
  countFiles,
  deleteFileRow,
  findKnowledgeFiles,
  findOwnedFile,
  insertFile,
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

/**
 * Type from the bytes, then the limits that depend on it; all before anything is stored. `pendingBytes` are
 * checked uploads not stored yet, which count towards the quota too.
 */
async function checkUpload(deps: FilesDeps, userId: number, upload: Upload, pendingBytes = 0): Promise<DetectedType> {
  const type = await detectType(upload.bytes, upload.name);
  const { limits } = deps;
  if (type.file.kind === 'image' && upload.bytes.length > limits.imageBytes) {
    throw tooLarge(FILE_MESSAGES.imageTooLarge(limits.imageBytes));
  }
  if (type.file.kind === 'document' && upload.bytes.length > limits.documentBytes) {
    throw tooLarge(FILE_MESSAGES.documentTooLarge(limits.documentBytes));
  }
  const used = (await sumBytesOfUser(deps.db.kysely, userId)) + pendingBytes;
  if (used + upload.bytes.length > limits.bytesPerUser) {
    throw tooLarge(FILE_MESSAGES.quotaExceeded(limits.bytesPerUser));
  }
  return type;
}

async function checkKnowledgeUpload(deps: FilesDeps, userId: number, upload: Upload, pendingBytes = 0) {
  const type = await checkUpload(deps, userId, upload, pendingBytes);
  if (type.file.kind === 'image') throw new AppError('UNSUPPORTED_MEDIA_TYPE', FILE_MESSAGES.imagesNotKnowledge);
  return type;
}

/**
 * Stores the bytes, then the row; a document starts `processing` and the job runner reads it. An empty file is
 * kept as `failed` so its owner sees why, and an image needs no reading.
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
  await deps.storage.put(key, upload.bytes, type.mediaType);
  const now = deps.clock.now().toISOString();
  try {
    const row = await insertFile(deps.db.kysely, {
      user_id: target.userId,
      bot_id: target.botId,
      conversation_id: target.conversationId,
      name: upload.name,
      media_type: type.mediaType,
      size: upload.bytes.length,
      storage_key: key,
      status,
      error: empty ? FILE_MESSAGES.empty : null,
      created_at: now,
      updated_at: now,
    });
    if (status === 'processing') deps.jobs.wake();
    return toFile(row);
  } catch (err) {
    await deps.storage.delete(key).catch(() => {});
    throw err;
  }
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
  const bot = await requireOwnedBot(deps.db.kysely, userId, botId);
  const type = await checkKnowledgeUpload(deps, userId, upload);
  if ((await countFiles(deps.db.kysely, { botId })) >= deps.limits.filesPerBot) {
    throw tooLarge(FILE_MESSAGES.tooManyFiles(deps.limits.filesPerBot));
  }
  const file = await storeKnowledgeFile(deps, userId, botId, upload, type);
  if (!hasCapability(bot, 'document_analysis')) {
    await updateBot(deps, userId, botId, { capabilities: [...bot.capabilities, 'document_analysis'] });
  }
  return file;
}

/**
 * The checks of a knowledge upload for the documents of a new bot, all before any is stored, so either all of
 * them can be added or none is; an error names the file it is about.
 */
export async function checkKnowledgeUploads(deps: FilesDeps, userId: number, uploads: Upload[]) {
  if (uploads.length > deps.limits.filesPerBot) throw tooLarge(FILE_MESSAGES.tooManyFiles(deps.limits.filesPerBot));
  const types: DetectedType[] = [];
  let pendingBytes = 0;
  for (const upload of uploads) {
    try {
      types.push(await checkKnowledgeUpload(deps, userId, upload, pendingBytes));
    } catch (err) {
      throw err instanceof AppError ? new AppError(err.code, `${upload.name}: ${err.message}`) : err;
    }
    pendingBytes += upload.bytes.length;
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
  const type = await checkUpload(deps, userId, upload);
  if (!acceptsUpload(bot, type.file.kind)) {
    throw new AppError('FORBIDDEN', type.file.kind === 'image' ? FILE_MESSAGES.imagesOff : FILE_MESSAGES.documentsOff);
  }
  if ((await countFiles(deps.db.kysely, { conversationId })) >= deps.limits.filesPerBot) {
    throw tooLarge(FILE_MESSAGES.tooManyAttachments(deps.limits.filesPerBot));
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
  await requireOwnedFile(deps, userId, fileId);
  await deleteFileRow(deps.db.kysely, fileId);
  deps.jobs.wake();
  return { message: FILE_MESSAGES.deleted };
}
