import { unzipSync } from 'fflate';
import type { z } from 'zod';
import {
  BOT_ARCHIVE_ENTRY,
  BOT_ARCHIVE_KNOWLEDGE,
  BOT_EXPORT_VERSION,
  BOT_TRANSFER_MESSAGES as MESSAGES,
  botExportHeaderSchema,
  botExportSchema,
  type BotExport,
} from '@shared/contracts/bot-export';
import type { Bot } from '@shared/contracts/bots';
import { FILE_MESSAGES } from '@shared/contracts/files';
import type { ModelCatalog } from '../../ai/model-catalog';
import { AppError } from '../../lib/errors';
import { checkKnowledgeUploads, storeKnowledgeFile, type FilesDeps, type Upload } from '../files/files.service';
import { cleanName } from '../files/multipart-file';
import { exceedsBounds, listZipEntries, type ZipBounds } from '../files/zip-bounds';
import { checkBotTools } from '../tools/mcp-servers.service';
import { createBot, updateBot, deleteBot } from './bots.service';

export interface BotImportDeps extends FilesDeps {
  /** The largest bot file accepted, JSON or archive. */
  importMaxBytes: number;
  /** A bot file's model is kept when it is enabled here (it may come from another instance). */
  models: ModelCatalog;
}

interface BotFileContent {
  document: BotExport;
  knowledge: Upload[];
}

const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_REQUEST', message, details);
const tooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

/** The first problem as the message, and all of them by field, as a refused request body answers. */
function validationError(error: z.ZodError, prefix: (string | number)[] = []) {
  const errors = error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join('.'),
    message: issue.message,
  }));
  return new AppError('VALIDATION', errors[0]!.message, { errors });
}

/** JSON text to a checked bot document: not a bot, a newer version, or a field's own message, in that order. */
function parseBotJson(bytes: Uint8Array): BotExport {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    throw badRequest(MESSAGES.notJson);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(MESSAGES.notBotFile);
  const header = botExportHeaderSchema.safeParse(value);
  if (!header.success) throw validationError(header.error);
  if (header.data.version !== BOT_EXPORT_VERSION) throw badRequest(MESSAGES.newerVersion(header.data.version));
  const parsed = botExportSchema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** A knowledge entry's file name, or null when the entry is not one (a folder, or a path that leaves the folder). */
function knowledgeName(entry: string): string | null {
  const rest = entry.slice(BOT_ARCHIVE_KNOWLEDGE.length);
  if (!entry.startsWith(BOT_ARCHIVE_KNOWLEDGE) || !rest || rest.includes('/') || rest.includes('\\')) return null;
  if (rest === '.' || rest === '..') return null;
  return cleanName(rest);
}

const isFolder = (entry: string) => entry.endsWith('/');

/**
 * Reads a bot archive: bot.json and the files of knowledge/, nothing else. Names and declared sizes are checked
 * before anything is inflated (entry count, each file's and the total size, the ratio to the compressed size),
 * and inflating never allocates more than the sizes declared.
 */
function readArchive(bytes: Uint8Array, deps: BotImportDeps): BotFileContent {
  const entries = listZipEntries(bytes);
  if (!entries) throw badRequest(MESSAGES.damagedArchive);
  for (const { name } of entries) {
    if (name !== BOT_ARCHIVE_ENTRY && name !== BOT_ARCHIVE_KNOWLEDGE && !knowledgeName(name)) {
      throw badRequest(MESSAGES.unexpectedEntry(name));
    }
  }
  const { filesPerBot, documentBytes } = deps.limits;
  const files = entries.filter((e) => knowledgeName(e.name) && !isFolder(e.name));
  if (files.length > filesPerBot) throw tooLarge(MESSAGES.tooManyEntries(filesPerBot));
  const bounds: ZipBounds = { maxInflatedBytes: 4 * deps.importMaxBytes, maxRatio: 100 };
  if (exceedsBounds(entries, bounds)) throw tooLarge(MESSAGES.inflatesTooMuch);
  const oversized = files.find((e) => e.originalSize > documentBytes);
  if (oversized) throw tooLarge(`${knowledgeName(oversized.name)}: ${FILE_MESSAGES.documentTooLarge(documentBytes)}`);
  if (!entries.some((e) => e.name === BOT_ARCHIVE_ENTRY)) throw badRequest(MESSAGES.noBotEntry);

  let contents: Record<string, Uint8Array>;
  try {
    contents = unzipSync(bytes, {
      filter: (e) => e.name === BOT_ARCHIVE_ENTRY || files.some((f) => f.name === e.name),
    });
  } catch {
    throw badRequest(MESSAGES.damagedArchive);
  }
  return {
    document: parseBotJson(contents[BOT_ARCHIVE_ENTRY]!),
    // In the archive's order, which is the order the files were added to the exported bot.
    knowledge: files.map((e) => ({ name: knowledgeName(e.name)!, bytes: contents[e.name]! })),
  };
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const isZip = (bytes: Uint8Array) => ZIP_SIGNATURE.every((byte, i) => bytes[i] === byte);

/** A bot file is an archive (by its signature) or JSON (text opening with `{`); anything else is 415. */
function readBotFile(bytes: Uint8Array, deps: BotImportDeps): BotFileContent {
  if (isZip(bytes)) return readArchive(bytes, deps);
  const start = new TextDecoder()
    .decode(bytes.subarray(0, 64))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (!start.startsWith('{')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.notBotFile);
  return { document: parseBotJson(bytes), knowledge: [] };
}

/**
 * Creates a private copy of the bot in a bot file for the caller: version 1, active, with the knowledge files of
 * an archive added as uploads are (type from the bytes, the limits, then read by the job runner). Everything is
 * checked before anything is created, so a refused file leaves nothing behind.
 */
export async function importBot(deps: BotImportDeps, userId: number, upload: Upload): Promise<Bot> {
  const { document, knowledge } = readBotFile(upload.bytes, deps);
  const types = await checkKnowledgeUploads(deps, userId, knowledge);
  const { model } = document.bot.config;
  const enabled = !model || (await deps.models.list()).some((m) => m.id === model);
  // Tools on servers this instance's owner cannot use (another instance's ids) are left out rather than refused.
  const tools =
    document.bot.config.tools && (await checkBotTools(deps.db.kysely, userId, document.bot.config.tools, 'drop'));
  const config = { ...document.bot.config, ...(enabled ? {} : { model: null }), ...(tools ? { tools } : {}) };
  const tests = document.tests?.map((test) => ({ ...test, expected: test.expected ?? null, tags: test.tags ?? [] }));
  const bot = await createBot(deps, userId, { ...document.bot, config }, tests);
  try {
    for (const [i, file] of knowledge.entries()) await storeKnowledgeFile(deps, userId, bot.id, file, types[i]!);
  } catch (err) {
    // Storage failed part way: a copy missing some of its knowledge would pass for a whole one.
    await deleteBot(deps, userId, bot.id);
    throw err;
  }
  // With files, a second version records the knowledge set they make (the first was written before them).
  return knowledge.length ? updateBot(deps, userId, bot.id, {}) : bot;
}
