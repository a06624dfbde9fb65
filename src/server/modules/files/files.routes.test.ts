import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KnowledgeFile } from '@shared/contracts/files';
import { UNSUPPORTED_TYPE_MESSAGE } from './detect-type';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import {
  appsWithFiles,
  settledFile as settled,
  uploadFile as upload,
  uploadSettled as uploadFileSettled,
} from '../../../../tests/support/files-api';
import { createBot } from '../../../../tests/support/factories';
import {
  corruptPdf,
  docxWith,
  encryptedPdf,
  pdfWithoutText,
  pdfWithPages,
  png,
  zipBombDocx,
} from '../../../../tests/support/files';
import { signUp, type TestApp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

const text = (s: string) => new TextEncoder().encode(s);

const uploadSettled = (t: TestApp, token: string, botId: number, name: string, bytes: Uint8Array) =>
  uploadFileSettled(t, token, `/api/bots/${botId}/files`, name, bytes);

const storedBlobs = (dir: string) =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];

describe.each(databaseKinds)('knowledge files API (%s)', (kind) => {
  /** Each server keeps its files in a directory of its own, unless told to share one. */
  const { start, closed } = appsWithFiles(kind);

  it(
    'reads every document format into chunks, and the first file turns on Document analysis',
    { timeout: 60_000 },
    async () => {
      const t = await start();
      const { token } = await signUp(t);
      const bot = await createBot(t, token, { capabilities: ['memory_context'] });

      const pdf = await upload(
        t,
        token,
        `/api/bots/${bot.id}/files`,
        'guide.pdf',
        await pdfWithPages(['One', 'Two', 'Three']),
      );
      expect(pdf.status).toBe(201);
      expect(pdf.body).toEqual({
        id: expect.any(Number),
        botId: bot.id,
        conversationId: null,
        name: 'guide.pdf',
        mediaType: 'application/pdf',
        size: expect.any(Number),
        status: 'processing',
        error: null,
        chunkCount: 0,
        progress: null,
        createdAt: expect.any(String),
      });
      expect((await t.request('GET', `/api/bots/${bot.id}`, { token })).body.capabilities).toEqual([
        'memory_context',
        'document_analysis',
      ]);
      expect(await settled(t, token, pdf.body.id)).toMatchObject({ status: 'ready', chunkCount: 3, error: null });

      const cases: [string, Uint8Array, string, number][] = [
        [
          'notes.docx',
          await docxWith(['# Hours', 'Open at nine.', '# Prices', 'Tea is two euros.']),
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          2,
        ],
        ['notes.txt', text('Plain words about the garden.'), 'text/plain', 1],
        ['readme.md', text('# Setup\nRun it.\n\n## Use\nAsk it.'), 'text/markdown', 2],
        ['prices.csv', text('item,price\ntea,2\ncake,3\n'), 'text/csv', 1],
        ['page.html', text('<!doctype html><html><body><h1>Menu</h1><p>Soup.</p></body></html>'), 'text/html', 1],
        ['data.json', text('{"opening":"nine"}'), 'application/json', 1],
      ];
      for (const [name, bytes, mediaType, chunkCount] of cases) {
        const file = await uploadSettled(t, token, bot.id, name, bytes);
        expect(file, name).toMatchObject({ name, mediaType, size: bytes.length, status: 'ready', chunkCount });
      }
      const list = await t.request<KnowledgeFile[]>('GET', `/api/bots/${bot.id}/files`, { token });
      expect(list.body.map((f) => f.name)).toEqual(['guide.pdf', ...cases.map(([name]) => name)]);
    },
  );

  it('keeps unreadable files as failed with a reason a person understands', { timeout: 60_000 }, async () => {
    const t = await start();
    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const cases: [string, Uint8Array, string][] = [
      ['empty.txt', new Uint8Array(), 'The file is empty'],
      ['locked.pdf', await encryptedPdf(), 'This PDF is password-protected'],
      ['scan.pdf', await pdfWithoutText(), 'This PDF has no text layer (scanned?)'],
      ['broken.pdf', corruptPdf(), 'This PDF could not be read: it is damaged or incomplete.'],
      [
        'bomb.docx',
        await zipBombDocx(),
        'This DOCX file expands to far more data than it holds (a possible zip bomb), so it was not read.',
      ],
    ];
    for (const [name, bytes, error] of cases) {
      const file = await uploadSettled(t, token, bot.id, name, bytes);
      expect(file, name).toMatchObject({ status: 'failed', error, chunkCount: 0 });
    }
  });

  it('answers 415 for a type the bytes do not support or the name contradicts, 413 over each limit', async () => {
    const t = await start({
      env: {
        FILES_MAX_DOCUMENT_BYTES: '2048',
        FILES_MAX_IMAGE_BYTES: '100',
        FILES_MAX_PER_BOT: '2',
        FILES_MAX_BYTES_PER_USER: '3072',
      },
    });
    const { token } = await signUp(t);
    const bot = await createBot(t, token);
    const path = `/api/bots/${bot.id}/files`;
    const refused = async (name: string, bytes: Uint8Array, status: number, message: string) => {
      const res = await upload(t, token, path, name, bytes);
      expect([res.status, res.body.message], name).toEqual([status, message]);
    };
    await refused('photo.pdf', png(), 415, "This file's content is a PNG image, but its name ends in .pdf.");
    await refused('report.pdf', text('just text'), 415, 'This file is named .pdf but its content is not a PDF.');
    await refused('data.json', text('{not json'), 415, 'This file is named .json but is not valid JSON.');
    await refused('page.html', text('hello there'), 415, 'This file is named .html but does not look like HTML.');
    await refused('bin.txt', new Uint8Array([104, 105, 0, 1]), 415, 'This file is named .txt but is not UTF-8 text.');
    await refused(
      'tool.exe',
      new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]),
      415,
      UNSUPPORTED_TYPE_MESSAGE,
    );
    await refused('photo.png', png(), 415, "Images can be attached in a chat; a bot's knowledge holds documents.");
    await refused('big.txt', text('x'.repeat(2049)), 413, 'Documents can be at most 2 KB.');

    await uploadSettled(t, token, bot.id, 'a.txt', text('a'.repeat(1500)));
    await refused(
      'b.txt',
      text('b'.repeat(1600)),
      413,
      'Your files can take at most 3 KB in total. Delete some first.',
    );
    await uploadSettled(t, token, bot.id, 'b.txt', text('b'));
    await refused('c.txt', text('c'), 413, 'A bot can have at most 2 files.');

    const viewer = await createBot(t, token, { capabilities: ['image_understanding'] });
    const conversation = await createConversation(t, token, viewer.id);
    const bigImage = await upload(t, token, `/api/conversations/${conversation.id}/files`, 'big.png', png(40, 40));
    expect([bigImage.status, bigImage.body.message]).toEqual([413, 'Images can be at most 100 bytes.']);

    const noFile = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { message: string }).message).toBe(
      'Send the file as multipart/form-data in the form field "file"',
    );
  });

  it("serves the original bytes only to their owner, as a download, and another user's file is 404", async () => {
    const t = await start();
    const owner = await signUp(t);
    const other = await signUp(t);
    const bot = await createBot(t, owner.token);
    const html = text('<!doctype html><html><body><script>alert(1)</script><p>Hi</p></body></html>');
    const file = await uploadSettled(t, owner.token, bot.id, 'évènement page.html', html);

    const res = await fetch(`${t.url}/api/files/${file.id}/content`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(html);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_v_nement page.html"; filename*=UTF-8''${encodeURIComponent('évènement page.html')}`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);

    for (const [method, path] of [
      ['GET', `/api/files/${file.id}`],
      ['GET', `/api/files/${file.id}/content`],
      ['DELETE', `/api/files/${file.id}`],
      ['GET', `/api/bots/${bot.id}/files`],
    ] as const) {
      expect((await t.request(method, path, { token: other.token })).status, `${method} ${path}`).toBe(404);
    }
    expect((await upload(t, other.token, `/api/bots/${bot.id}/files`, 'x.txt', text('x'))).status).toBe(404);
    const conversation = await createConversation(t, owner.token, bot.id);
    expect(
      (await upload(t, other.token, `/api/conversations/${conversation.id}/files`, 'x.txt', text('x'))).status,
    ).toBe(404);
    expect((await t.request('GET', `/api/files/${file.id}`)).status).toBe(401);
  });

  it('attaches documents and images to a conversation when the bot has the capability', async () => {
    const t = await start();
    const { token } = await signUp(t);
    const reader = await createBot(t, token, { capabilities: ['document_analysis', 'image_understanding'] });
    const plain = await createBot(t, token, { capabilities: [] });
    const conversation = await createConversation(t, token, reader.id);
    const path = `/api/conversations/${conversation.id}/files`;

    const image = await upload(t, token, path, 'chart.png', png());
    expect(image.status).toBe(201);
    expect(image.body).toMatchObject({
      botId: reader.id,
      conversationId: conversation.id,
      mediaType: 'image/png',
      status: 'ready',
      chunkCount: 0,
    });
    const doc = await upload(t, token, path, 'brief.md', text('# Brief\nThe launch is on Friday.'));
    expect(await settled(t, token, doc.body.id)).toMatchObject({
      conversationId: conversation.id,
      status: 'ready',
      chunkCount: 1,
    });
    // Attachments belong to the conversation, not to the bot's knowledge.
    expect((await t.request('GET', `/api/bots/${reader.id}/files`, { token })).body).toEqual([]);

    const plainConversation = await createConversation(t, token, plain.id);
    const plainPath = `/api/conversations/${plainConversation.id}/files`;
    expect((await upload(t, token, plainPath, 'chart.png', png())).body.message).toBe(
      "This botty cannot see images. Turn on Image understanding in the bot's settings.",
    );
    const refusedDoc = await upload(t, token, plainPath, 'brief.md', text('# Brief'));
    expect([refusedDoc.status, refusedDoc.body.message]).toEqual([
      403,
      "This botty cannot read documents. Turn on Document analysis in the bot's settings.",
    ]);
  });

  it('removes the bytes and the chunks when a file, its bot, its conversation or the account is deleted', async () => {
    const t = await start();
    const account = await signUp(t);
    const { token } = account;
    const filesDir = t.config.files.dir;
    const chunkCount = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('file_chunks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const bytesGone = () => until(() => storedBlobs(filesDir).length === 0, { what: 'stored bytes to be removed' });

    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const file = await uploadSettled(t, token, bot.id, 'a.txt', text('alpha'));
    expect(storedBlobs(filesDir)).toHaveLength(1);
    expect(await chunkCount()).toBe(1);
    expect((await t.request('DELETE', `/api/files/${file.id}`, { token })).body).toEqual({ message: 'File deleted' });
    expect((await t.request('GET', `/api/files/${file.id}`, { token })).status).toBe(404);
    expect(await chunkCount()).toBe(0);
    await bytesGone();

    await uploadSettled(t, token, bot.id, 'b.txt', text('beta'));
    const conversation = await createConversation(t, token, bot.id);
    await settled(
      t,
      token,
      (await upload(t, token, `/api/conversations/${conversation.id}/files`, 'c.txt', text('gamma'))).body.id,
    );
    expect(storedBlobs(filesDir)).toHaveLength(2);
    expect((await t.request('DELETE', `/api/conversations/${conversation.id}`, { token })).status).toBe(200);
    await until(() => storedBlobs(filesDir).length === 1, { what: 'the attachment bytes to be removed' });
    expect((await t.request('DELETE', `/api/bots/${bot.id}`, { token })).status).toBe(200);
    await bytesGone();
    expect(await chunkCount()).toBe(0);

    const other = await createBot(t, token);
    const kept = await uploadSettled(t, token, other.id, 'd.txt', text('delta'));
    const exported = await t.request('GET', '/api/account/export', { token });
    expect(exported.body.files).toEqual([kept]);
    const deleted = await t.request('DELETE', '/api/account', { token, body: { password: account.password } });
    expect(deleted.status).toBe(200);
    await bytesGone();
    expect(await chunkCount()).toBe(0);
  });

  it('finishes a job left unfinished when the server stopped, after a restart', async () => {
    const first = await start({ fileJobs: { start: false } });
    const { token } = await signUp(first);
    const bot = await createBot(first, token);
    const res = await upload(first, token, `/api/bots/${bot.id}/files`, 'guide.pdf', await pdfWithPages(['a', 'b']));
    expect(res.body.status).toBe('processing');
    // A crashed instance also leaves its lease behind; it has expired by the time anyone looks again.
    await first.db.kysely
      .updateTable('files')
      .set({ lease_until: new Date(Date.now() - 1000).toISOString(), attempts: 1 })
      .where('id', '=', res.body.id)
      .execute();
    await first.close({ keepDb: true });
    closed(first);

    const second = await start({ testDb: first.testDb, env: { FILES_DIR: first.config.files.dir } });
    expect(await settled(second, token, res.body.id)).toMatchObject({ status: 'ready', chunkCount: 2 });
  });
});
