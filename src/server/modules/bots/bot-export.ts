import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import {
  BOT_ARCHIVE_ENTRY,
  BOT_ARCHIVE_KNOWLEDGE,
  BOT_EXPORT_FORMAT,
  BOT_EXPORT_VERSION,
  type BotExport,
} from '@shared/contracts/bot-export';
import type { Bot } from '@shared/contracts/bots';
import type { TestCase } from '@shared/contracts/test-cases';
import { isoNow } from '../../lib/clock';
import { readTestSet } from '../test-cases/test-set';
import { knowledgeContents, type FilesDeps, type KnowledgeContent } from '../files/files.service';
import { requireOwnedBot } from './bots.service';

/** A bot file to download: its name and its bytes, at once (JSON) or as they are zipped (archive). */
interface BotFile {
  name: string;
  mediaType: string;
  body: string | Readable;
}

/** Only what shapes the bot's answers, spelled out so a field added to bots is never exported by accident. */
const botExportOf = (bot: Bot, tests: readonly TestCase[], exportedAt: string): BotExport => ({
  format: BOT_EXPORT_FORMAT,
  version: BOT_EXPORT_VERSION,
  exportedAt,
  bot: {
    name: bot.name,
    description: bot.description,
    purpose: bot.purpose,
    icon: bot.icon,
    capabilities: bot.capabilities,
    config: bot.config,
    exampleQueries: bot.exampleQueries,
    testNotes: bot.testNotes,
  },
  tests: tests.map((test) => ({ query: test.query, expected: test.expected, tags: test.tags })),
});

/** "Meal Planner!" → "meal-planner": a file name that survives every file system. */
function fileStem(name: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem || 'bot';
}

/** Knowledge files may share a name; in the archive each needs its own, so later ones get " (2)", " (3)"… */
function uniqueNames(files: KnowledgeContent[]): string[] {
  const taken = new Set<string>();
  return files.map(({ name }) => {
    const dot = name.lastIndexOf('.');
    const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${extension}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Formats that are compressed already: deflating them again costs time and saves nothing. */
const STORED_AS_IS = new Set([
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);

/**
 * Zips the bot file and the knowledge files as they are read from storage, one at a time and never more than the
 * response can take (the files together may be far larger than memory). A failure, or the client going away,
 * ends the stream.
 */
function zipStream(json: string, files: KnowledgeContent[]): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) out.destroy(err);
    else if (!out.destroyed) {
      out.write(chunk);
      if (final) out.end();
    }
  });
  const writable = () =>
    new Promise<void>((resolve) => {
      if (!out.writableNeedDrain || out.destroyed) return resolve();
      out.once('drain', resolve);
      out.once('close', resolve);
    });
  void (async () => {
    const head = new ZipDeflate(BOT_ARCHIVE_ENTRY, { level: 6 });
    zip.add(head);
    head.push(new TextEncoder().encode(json), true);
    const names = uniqueNames(files);
    for (const [i, file] of files.entries()) {
      const path = BOT_ARCHIVE_KNOWLEDGE + names[i]!;
      const entry = STORED_AS_IS.has(file.mediaType) ? new ZipPassThrough(path) : new ZipDeflate(path, { level: 6 });
      zip.add(entry);
      const content = await file.open();
      for await (const chunk of content) {
        entry.push(chunk as Uint8Array);
        await writable();
        // Leaving the loop closes the file being read.
        if (out.destroyed) return;
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
  })().catch((err: unknown) => out.destroy(err as Error));
  return out;
}

/**
 * The caller's bot as a bot file (decision 0019): JSON, or with `knowledge` a .zip holding it and the original
 * bytes of its knowledge files. Another user's bot is 404, as everywhere.
 */
export async function exportBot(deps: FilesDeps, userId: number, botId: number, knowledge: boolean): Promise<BotFile> {
  const bot = await requireOwnedBot(deps.db.kysely, userId, botId);
  const tests = await readTestSet(deps.db.kysely, bot.id);
  const json = `${JSON.stringify(botExportOf(bot, tests, isoNow(deps.clock)), null, 2)}\n`;
  const stem = `${fileStem(bot.name)}.botty`;
  if (!knowledge) return { name: `${stem}.json`, mediaType: 'application/json; charset=utf-8', body: json };
  const files = await knowledgeContents(deps, bot.id);
  return { name: `${stem}.zip`, mediaType: 'application/zip', body: zipStream(json, files) };
}
