import { randomBytes } from 'node:crypto';
import { strFromU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Activity } from '@shared/contracts/activities';
import type { Bot, CreateBotRequest } from '@shared/contracts/bots';
import type { KnowledgeFile } from '@shared/contracts/files';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { appsWithFiles, settledFile, uploadSettled } from '../../../../tests/support/files-api';
import { docxWith, png } from '../../../../tests/support/files';
import { signUp, type TestApp } from '../../../../tests/support/test-app';

const text = (s: string) => new TextEncoder().encode(s);

/** A bot with every kind of setting filled in, so a round trip that drops one shows. */
const FULL_BOT = {
  name: 'Meal Planner!',
  description: 'Plans a week of dinners from what is in the fridge',
  purpose: 'planning',
  icon: 'utensils',
  capabilities: ['memory_context', 'web_search'],
  config: {
    tone: 'enthusiastic',
    writingStyle: 'detailed',
    greeting: 'What is in your fridge?',
    webBrowsing: true,
    useKnowledgeCutoff: false,
    trustedSources: 'bbcgoodfood.com, seriouseats.com',
    conversationMemory: true,
    maxContextMessages: 12,
    citationGeneration: true,
    systemPrompt: 'You plan meals. Ask about allergies first.',
    customPrompt: 'Prefer vegetables in season.',
  },
  exampleQueries: ['Dinner with leeks?', 'A week without meat'],
  testNotes: [{ query: 'Dinner with leeks?', rating: 'good', expected: '' }],
} satisfies CreateBotRequest;

/** The fields a copy has of its own: who owns it, when it was made, how it is shared and used. */
const portable = (bot: Bot) => {
  const {
    id: _id,
    userId: _userId,
    createdAt: _createdAt,
    usageCount: _usage,
    lastUsed: _used,
    sharing: _sharing,
    // The copy's own history: its first version, and one recording the files when it came with any.
    version: _version,
    ...rest
  } = bot;
  return rest;
};

describe.each(databaseKinds)('bot export and import (%s)', (kind) => {
  const { start } = appsWithFiles(kind, 'botty-transfer-');

  const download = async (t: TestApp, token: string, path: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  const importFile = async (t: TestApp, token: string, name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${t.url}/api/bots/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Bot & { message: string; errors?: unknown } };
  };

  const botFile = (bot: object, extra: object = {}) =>
    text(JSON.stringify({ format: 'botty.bot', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', bot, ...extra }));

  it('exports a bot as a JSON download without ids, owner, sharing or usage; only to its owner', async () => {
    const t = await start();
    const owner = await signUp(t);
    const other = await signUp(t);
    const bot = await createBot(t, owner.token, FULL_BOT);

    const res = await download(t, owner.token, `/api/bots/${bot.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="meal-planner.botty.json"; filename*=UTF-8''meal-planner.botty.json`,
    );
    const json = strFromU8(res.bytes);
    expect(JSON.parse(json)).toEqual({
      format: 'botty.bot',
      version: 1,
      exportedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      bot: FULL_BOT,
      // Its test set, seeded from the example queries (decision 0041).
      tests: FULL_BOT.exampleQueries.map((query) => ({ query, expected: null, tags: [] })),
    });
    for (const leak of ['"id"', 'userId', owner.username, owner.email, 'sharing', 'visibility', 'usage', 'createdAt']) {
      expect(json).not.toContain(leak);
    }

    for (const path of [`/api/bots/${bot.id}/export`, `/api/bots/${bot.id}/export?knowledge=1`]) {
      const foreign = await t.request('GET', path, { token: other.token });
      expect([foreign.status, foreign.body.message]).toEqual([404, 'Bot not found']);
    }
    expect((await t.request('GET', '/api/bots/999999/export', { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', `/api/bots/${bot.id}/export`)).status).toBe(401);
    expect((await t.request('POST', '/api/bots/import')).status).toBe(401);
  });

  it('imports an exported bot as an equal private copy of the caller, version 1', async () => {
    const t = await start();
    const owner = await signUp(t);
    const other = await signUp(t);
    const bot = await createBot(t, owner.token, FULL_BOT);
    const exported = await download(t, owner.token, `/api/bots/${bot.id}/export`);

    const copy = await importFile(t, other.token, 'meal-planner.botty.json', exported.bytes);
    expect(copy.status).toBe(201);
    expect(portable(copy.body)).toEqual(portable(bot));
    expect(copy.body).toMatchObject({
      userId: other.user.id,
      version: 1,
      usageCount: 0,
      lastUsed: null,
      sharing: { visibility: 'private', hasLink: false },
    });
    expect(copy.body.id).not.toBe(bot.id);

    const list = await t.request<Bot[]>('GET', '/api/bots', { token: other.token });
    expect(list.body.map((b) => b.id)).toEqual([copy.body.id]);
    const versions = await t.request('GET', `/api/bots/${copy.body.id}/versions`, { token: other.token });
    expect(versions.body).toHaveLength(1);
    const history = await t.request<Activity[]>('GET', `/api/users/${other.user.id}/activities`, {
      token: other.token,
    });
    expect(history.body.map((a) => [a.type, a.description])).toEqual([['bot_created', 'Created Meal Planner!']]);
    // The original is untouched and still only its owner's.
    expect((await t.request('GET', `/api/bots/${bot.id}`, { token: other.token })).status).toBe(404);

    // Importing the same file again makes another copy; a hand-written file without exportedAt is fine too.
    const again = await importFile(t, other.token, 'bot.json', botFile({ ...FULL_BOT, name: 'Second' }));
    expect([again.status, again.body.name]).toEqual([201, 'Second']);
  });

  it('exports knowledge files in a zip with their original bytes, and an import has them read again', async () => {
    const t = await start();
    const owner = await signUp(t);
    const other = await signUp(t);
    const bot = await createBot(t, owner.token, { ...FULL_BOT, capabilities: ['document_analysis'] });
    const files: [string, Uint8Array][] = [
      ['notes.txt', text('Leeks are in season from October to March.')],
      ['recipes.docx', await docxWith(['# Leek soup', 'Sweat the leeks slowly.'])],
      ['notes.txt', text('Second file with the same name.')],
    ];
    for (const [name, bytes] of files) await uploadSettled(t, owner.token, `/api/bots/${bot.id}/files`, name, bytes);

    const res = await download(t, owner.token, `/api/bots/${bot.id}/export?knowledge=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain('filename="meal-planner.botty.zip"');
    const entries = unzipSync(res.bytes);
    expect(Object.keys(entries)).toEqual([
      'bot.json',
      'knowledge/notes.txt',
      'knowledge/recipes.docx',
      'knowledge/notes (2).txt',
    ]);
    expect(JSON.parse(strFromU8(entries['bot.json']!)).bot.name).toBe('Meal Planner!');
    expect(entries['knowledge/notes.txt']).toEqual(files[0]![1]);
    expect(entries['knowledge/recipes.docx']).toEqual(files[1]![1]);
    expect(entries['knowledge/notes (2).txt']).toEqual(files[2]![1]);

    const copy = await importFile(t, other.token, 'meal-planner.botty.zip', res.bytes);
    expect(copy.status).toBe(201);
    expect(portable(copy.body)).toEqual(portable(await getBot(t, owner.token, bot.id)));
    expect(copy.body.version).toBe(2);
    const list = await t.request<KnowledgeFile[]>('GET', `/api/bots/${copy.body.id}/files`, { token: other.token });
    expect(list.body.map((f) => [f.name, f.size])).toEqual([
      ['notes.txt', files[0]![1].length],
      ['recipes.docx', files[1]![1].length],
      ['notes (2).txt', files[2]![1].length],
    ]);
    for (const file of list.body) {
      expect(await settledFile(t, other.token, file.id), file.name).toMatchObject({ status: 'ready', error: null });
    }
    const settled = await t.request<KnowledgeFile[]>('GET', `/api/bots/${copy.body.id}/files`, { token: other.token });
    expect(settled.body.every((f) => f.chunkCount > 0)).toBe(true);
    // The owner's files stay theirs: the copy's are new files of the importer.
    const original = await t.request<KnowledgeFile[]>('GET', `/api/bots/${bot.id}/files`, { token: owner.token });
    expect(original.body.map((f) => f.id)).not.toContain(list.body[0]!.id);
  });

  it('refuses malformed bot files with the message of what is wrong, and creates nothing', async () => {
    const t = await start();
    const { token } = await signUp(t);
    const refused = async (bytes: Uint8Array, status: number, message: string, name = 'bot.json') => {
      const res = await importFile(t, token, name, bytes);
      expect([res.status, res.body.message], strFromU8(bytes.subarray(0, 80))).toEqual([status, message]);
      return res.body;
    };
    await refused(text('{"format": "botty.bot", '), 400, 'This bot file is not valid JSON.');
    await refused(
      text('{"format": "other", "version": 1}'),
      400,
      'This JSON file is not a Botty bot: its "format" must be "botty.bot".',
    );
    await refused(
      botFile(FULL_BOT, { version: 2 }),
      400,
      'This bot file has format version 2, from a newer Botty; this Botty reads version 1.',
    );
    await refused(botFile(FULL_BOT, { version: '1' }), 400, `The bot file's "version" must be a whole number.`);
    const body = await refused(botFile({ ...FULL_BOT, name: '' }), 400, 'Name is required');
    expect(body.errors).toEqual([{ path: 'bot.name', message: 'Name is required' }]);
    await refused(
      botFile({ ...FULL_BOT, purpose: 'world domination' }),
      400,
      'Purpose must be one of: answering, creating, analyzing, planning',
    );
    await refused(
      botFile({ ...FULL_BOT, config: { ...FULL_BOT.config, maxContextMessages: 500 } }),
      400,
      'Number of previous messages to consider for context (1-20)',
    );
    await refused(
      botFile(FULL_BOT).subarray(1),
      415,
      'This is not a Botty bot file. Choose a .json or .zip file exported from Botty.',
    );
    await refused(
      png(),
      415,
      'This is not a Botty bot file. Choose a .json or .zip file exported from Botty.',
      'x.png',
    );

    const raw = await t.request('POST', '/api/bots/import', { token, body: JSON.parse(strFromU8(botFile(FULL_BOT))) });
    expect([raw.status, raw.body.message]).toEqual([
      415,
      'Send the file as multipart/form-data in the form field "file"',
    ]);
    expect((await t.request('GET', '/api/bots', { token })).body).toEqual([]);
  });

  it('refuses files over the size limit with 413', async () => {
    const t = await start({ env: { BOT_IMPORT_MAX_BYTES: '2048' } });
    const { token } = await signUp(t);
    const big = botFile({ ...FULL_BOT, description: 'x'.repeat(3000) });
    const res = await importFile(t, token, 'bot.json', big);
    expect([res.status, res.body.message]).toEqual([413, 'A bot file can be at most 2 KB.']);
  });

  it('refuses archives with unexpected paths, too many files, bombs or refused knowledge, and creates nothing', async () => {
    const t = await start({ env: { FILES_MAX_PER_BOT: '2', FILES_MAX_DOCUMENT_BYTES: '100000' } });
    const { token, user } = await signUp(t);
    const botJson = botFile(FULL_BOT);
    const refused = async (entries: Zippable, status: number, message: string) => {
      const res = await importFile(t, token, 'bot.zip', zipSync(entries));
      expect([res.status, res.body.message], Object.keys(entries).join()).toEqual([status, message]);
    };
    const unexpected = (name: string) =>
      `This archive holds "${name}"; a bot archive holds bot.json and files in knowledge/ only.`;
    await refused(
      { 'bot.json': botJson, 'knowledge/../../etc/passwd': text('x') },
      400,
      unexpected('knowledge/../../etc/passwd'),
    );
    await refused({ '../bot.json': botJson }, 400, unexpected('../bot.json'));
    await refused({ 'bot.json': botJson, '/etc/cron.d/x': text('x') }, 400, unexpected('/etc/cron.d/x'));
    await refused({ 'bot.json': botJson, 'knowledge/a/b.txt': text('x') }, 400, unexpected('knowledge/a/b.txt'));
    await refused(
      { 'knowledge/a.txt': text('x') },
      400,
      'This archive has no bot.json, so it is not a bot exported from Botty.',
    );
    await refused(
      { 'bot.json': botJson, 'knowledge/a.txt': text('a'), 'knowledge/b.txt': text('b'), 'knowledge/c.txt': text('c') },
      413,
      'A bot archive can hold at most 2 knowledge files.',
    );
    await refused(
      { 'bot.json': botJson, 'knowledge/zeros.txt': new Uint8Array(5 * 1024 * 1024) },
      413,
      'This archive expands to far more data than it holds (a possible zip bomb), so it was not read.',
    );
    await refused(
      // Random text: it barely compresses, so only the size limit refuses it.
      { 'bot.json': botJson, 'knowledge/big.txt': text(randomBytes(50_001).toString('hex')) },
      413,
      'big.txt: Documents can be at most 97.7 KB.',
    );
    await refused(
      { 'bot.json': botJson, 'knowledge/ok.txt': text('fine'), 'knowledge/photo.png': png() },
      415,
      "photo.png: Images can be attached in a chat; a bot's knowledge holds documents.",
    );
    await refused(
      { 'bot.json': botFile({ ...FULL_BOT, icon: 'unicorn' }), 'knowledge/ok.txt': text('fine') },
      400,
      'Choose one of the available icons',
    );
    const damaged = zipSync({ 'bot.json': botJson }).subarray(0, 40);
    const res = await importFile(t, token, 'bot.zip', damaged);
    expect([res.status, res.body.message]).toEqual([400, 'This archive is damaged: it is not a readable ZIP file.']);

    expect((await t.request('GET', '/api/bots', { token })).body).toEqual([]);
    expect((await t.request('GET', `/api/users/${user.id}/activities`, { token })).body).toEqual([]);
  });
});

const getBot = async (t: TestApp, token: string, id: number) =>
  (await t.request<Bot>('GET', `/api/bots/${id}`, { token })).body;
