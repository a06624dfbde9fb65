import { z } from 'zod';
import { TEST_CASES_MAX } from '../constants';
import { createBotBodySchema } from './bots';
import { formatBytes } from '../format-bytes';
import { TEST_CASE_MESSAGES, testCaseBodySchema } from './test-cases';

/** Names a Botty bot file, whatever its file name; anything else is refused as not a bot. */
export const BOT_EXPORT_FORMAT = 'botty.bot';
/** The version this Botty writes and reads; a file of a newer one is refused rather than half read. */
export const BOT_EXPORT_VERSION = 1;

/** A bot archive (.zip) holds the bot file under this name, and its knowledge files in the folder. */
export const BOT_ARCHIVE_ENTRY = 'bot.json';
export const BOT_ARCHIVE_KNOWLEDGE = 'knowledge/';

export const BOT_TRANSFER_MESSAGES = {
  notBotFile: 'This is not a Botty bot file. Choose a .json or .zip file exported from Botty.',
  notJson: 'This bot file is not valid JSON.',
  wrongFormat: `This JSON file is not a Botty bot: its "format" must be "${BOT_EXPORT_FORMAT}".`,
  version: `The bot file's "version" must be a whole number.`,
  newerVersion: (version: number) =>
    `This bot file has format version ${version}, from a newer Botty; this Botty reads version ${BOT_EXPORT_VERSION}.`,
  tooLarge: (limit: number) => `A bot file can be at most ${formatBytes(limit)}.`,
  damagedArchive: 'This archive is damaged: it is not a readable ZIP file.',
  noBotEntry: `This archive has no ${BOT_ARCHIVE_ENTRY}, so it is not a bot exported from Botty.`,
  unexpectedEntry: (name: string) =>
    `This archive holds "${name}"; a bot archive holds ${BOT_ARCHIVE_ENTRY} and files in ${BOT_ARCHIVE_KNOWLEDGE} only.`,
  tooManyEntries: (limit: number) => `A bot archive can hold at most ${limit} knowledge files.`,
  inflatesTooMuch: 'This archive expands to far more data than it holds (a possible zip bomb), so it was not read.',
} as const;

/**
 * What a bot file carries: the bot's settings, prompts, example queries and test notes, validated exactly as
 * when a bot is created. Never ids, owner, sharing or embedding settings, usage or dates (decision 0019).
 */
export const exportedBotSchema = createBotBodySchema.pick({
  name: true,
  description: true,
  purpose: true,
  icon: true,
  capabilities: true,
  config: true,
  exampleQueries: true,
  testNotes: true,
});

/** Read first, so a file of another kind or a newer version gets that message instead of its fields'. */
export const botExportHeaderSchema = z.object({
  format: z.literal(BOT_EXPORT_FORMAT, { error: BOT_TRANSFER_MESSAGES.wrongFormat }),
  version: z.number({ error: BOT_TRANSFER_MESSAGES.version }).int(BOT_TRANSFER_MESSAGES.version),
});

export const botExportSchema = z.object({
  format: z.literal(BOT_EXPORT_FORMAT),
  version: z.literal(BOT_EXPORT_VERSION),
  /** When the file was made; informative only, so a hand-written file may leave it out. */
  exportedAt: z.string().optional(),
  bot: exportedBotSchema,
  /**
   * The bot's test set (decision 0041). Files written before test cases had their own table have none: the
   * copy's tests are then its example queries with their notes, as they were.
   */
  tests: z
    .array(testCaseBodySchema.pick({ query: true, expected: true, tags: true }))
    .max(TEST_CASES_MAX, TEST_CASE_MESSAGES.tooMany)
    .optional(),
});
export type BotExport = z.infer<typeof botExportSchema>;

/** `knowledge=1` asks for a .zip holding the bot file and its knowledge files. */
export const botExportQuerySchema = z.object({
  knowledge: z.stringbool({ error: 'knowledge must be 1 or 0' }).default(false),
});
