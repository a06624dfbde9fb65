import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingModel } from '../../ai/providers';
import { createConversation } from '../../../../tests/support/chat-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { pdfWithPages, scannedPdf } from '../../../../tests/support/files';
import { appsWithFiles, uploadSettled as upload } from '../../../../tests/support/files-api';
import { docbookXhtml, latex2html } from '../../../../tests/support/html-documents';
import { startS3Server } from '../../../../tests/support/s3-server';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';
import { createEmbeddings } from './embeddings';
import { searchChunks, type RetrievalDeps } from './retrieval';

const text = (s: string) => new TextEncoder().encode(s);

const WARRANTY_PDF = [
  'Welcome to the Kettle 3000.\nUnpack it carefully.',
  'Warranty\nThe warranty lasts 24 months from the day of purchase.',
  'Cleaning\nDescale the kettle every month with vinegar.',
];

describe.each(databaseKinds)('retrieval (%s)', (kind) => {
  let llm: FakeLlm;
  const { start } = appsWithFiles(kind);
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(() => llm.close());

  /** Two users; the first has a bot with knowledge and two conversations with an attachment each. */
  async function world(t: TestApp) {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const bot = await createBot(t, owner.token, { capabilities: ['document_analysis'] });
    const guide = await upload(
      t,
      owner.token,
      `/api/bots/${bot.id}/files`,
      'kettle.pdf',
      await pdfWithPages(WARRANTY_PDF),
    );
    await upload(
      t,
      owner.token,
      `/api/bots/${bot.id}/files`,
      'recipes.md',
      text('# Tea\nSteep green tea for two minutes.'),
    );
    const here = await createConversation(t, owner.token, bot.id);
    // An empty conversation is reused when the chat opens again: this one needs a message to stay its own.
    await t.request('POST', '/api/messages', { token: owner.token, body: { conversationId: here.id, content: 'Hi' } });
    const elsewhere = await createConversation(t, owner.token, bot.id);
    await upload(
      t,
      owner.token,
      `/api/conversations/${here.id}/files`,
      'launch.txt',
      text('The launch code word is falcon.'),
    );
    await upload(
      t,
      owner.token,
      `/api/conversations/${elsewhere.id}/files`,
      'zoo.txt',
      text('The zebra is called Ziggy.'),
    );
    const strangerBot = await createBot(t, stranger.token, { capabilities: ['document_analysis'] });
    await upload(
      t,
      stranger.token,
      `/api/bots/${strangerBot.id}/files`,
      'other.txt',
      text('Our warranty lasts 36 months.'),
    );
    return { owner, stranger, bot, guide, here, elsewhere, strangerBot };
  }

  it("finds the passage that answers, with its page, among the bot's files and this conversation's only", async () => {
    const t = await start();
    const w = await world(t);
    const deps: RetrievalDeps = { db: t.db, embeddings: null };
    const userId = w.owner.user.id as number;

    const warranty = await searchChunks(deps, { userId, botId: w.bot.id, query: 'How long does the warranty last?' });
    expect(warranty[0]).toMatchObject({
      fileId: w.guide.id,
      fileName: 'kettle.pdf',
      page: 2,
      section: null,
      snippet: expect.stringContaining('24 months'),
    });
    expect(warranty.map((p) => p.text).join()).not.toContain('36 months');

    const ask = (query: string, conversationId?: number) =>
      searchChunks(deps, { userId, botId: w.bot.id, conversationId, query });
    expect((await ask('What is the launch code word?', w.here.id))[0]).toMatchObject({ fileName: 'launch.txt' });
    expect((await ask('launch code falcon', w.elsewhere.id)).map((p) => p.fileName)).not.toContain('launch.txt');
    expect((await ask('launch code falcon')).map((p) => p.fileName)).not.toContain('launch.txt');
    expect((await ask('zebra Ziggy', w.here.id)).map((p) => p.fileName)).not.toContain('zoo.txt');
    expect((await ask('How long to steep green tea?'))[0]).toMatchObject({ fileName: 'recipes.md', section: 'Tea' });

    // Someone else's bot id finds nothing, and the stranger's own search never reaches the owner's files.
    const strangerId = w.stranger.user.id as number;
    expect(await searchChunks(deps, { userId: strangerId, botId: w.bot.id, query: 'warranty' })).toEqual([]);
    const theirs = await searchChunks(deps, { userId: strangerId, botId: w.strangerBot.id, query: 'warranty months' });
    expect(theirs.map((p) => p.fileName)).toEqual(['other.txt']);
    // Punctuation and query syntax are words to look for, never operators.
    expect(await ask('"warranty" OR NEAR(* -')).toEqual(expect.any(Array));
    expect(await ask('')).toEqual([]);
  });

  it('finds the passage of the rare words of a question whose common words are in thousands of passages', async () => {
    const t = await start();
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, { capabilities: ['document_analysis'] });
    // Every heading starts a passage: 2,500 about the kettle, 100 of them about its whistle, one about what
    // the whistle is made of.
    const parts = Array.from(
      { length: 2500 },
      (_, i) => `# Part ${i + 1}\nThe kettle ${i % 25 === 0 ? 'whistle sings' : 'boils water'} quickly.`,
    );
    parts[1700] = '# Part 1701\nThe kettle whistle is made of brass.';
    const manual = await upload(t, owner.token, `/api/bots/${bot.id}/files`, 'manual.md', text(parts.join('\n\n')));
    expect(manual).toMatchObject({ status: 'ready', chunkCount: 2500 });
    const deps: RetrievalDeps = { db: t.db, embeddings: null };
    const ask = (query: string) => searchChunks(deps, { userId: owner.user.id as number, botId: bot.id, query });

    const whistle = await ask('What is the kettle whistle made of?');
    expect(whistle[0]).toMatchObject({ section: 'Part 1701' });
    expect(whistle.every((p) => p.text.includes('whistle'))).toBe(true);
    // Only common words: their passages are still found.
    expect(await ask('Does the kettle boil water?')).toHaveLength(5);
    // Two words in over 2,000 passages each: ranked by the less common one (water), not by the first (kettle).
    const water = await ask('kettle water');
    expect(water).toHaveLength(5);
    expect(water.every((p) => p.text.includes('water'))).toBe(true);
    // Another bot holds few of the passages the index counts for its rarest word: every word ranks then.
    const travel = await createBot(t, owner.token, { capabilities: ['document_analysis'] });
    const notes = Array.from({ length: 9 }, (_, i) => `# Trip ${i + 1}\nThe travel kettle boils water.`);
    notes[4] = '# Trip 5\nThe travel kettle has no whistle.';
    await upload(t, owner.token, `/api/bots/${travel.id}/files`, 'travel.md', text(notes.join('\n\n')));
    const trip = await searchChunks(deps, {
      userId: owner.user.id as number,
      botId: travel.id,
      query: 'kettle whistle',
    });
    expect(trip).toHaveLength(5);
    expect(trip[0]).toMatchObject({ section: 'Trip 5' });

    await t.request('DELETE', `/api/files/${manual.id}`, { token: owner.token });
    expect(await ask('kettle whistle')).toEqual([]);
    // On SQLite the words' passages are counted once per knowledge generation: a file added since is counted.
    const spare = text('# Spare parts\nA spare whistle comes in the box.');
    await upload(t, owner.token, `/api/bots/${bot.id}/files`, 'spare.md', spare);
    expect((await ask('kettle whistle'))[0]).toMatchObject({ fileName: 'spare.md' });
  });

  it('finds the content of XHTML manual pages, LaTeX2HTML pages with footnotes, fragments and scanned PDFs', async () => {
    const t = await start();
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, { capabilities: ['document_analysis'] });
    const add = (name: string, bytes: Uint8Array) => upload(t, owner.token, `/api/bots/${bot.id}/files`, name, bytes);
    const files = [
      await add('frobnicate.html', text(docbookXhtml('The level option sets how hard the widgets are frobbed.'))),
      await add(
        'fit.html',
        text(
          latex2html({
            body: 'The fit command fits an expression to data points.',
            cell: 'via names the adjusted parameters',
            footnote: 'Marquardt-Levenberg is the algorithm behind the fit.',
          }),
        ),
      ),
      await add(
        'rota.html',
        text('<table><tr><th>Day</th><th>Chore</th></tr><tr><td>Monday</td><td>Water the ferns</td></tr></table>'),
      ),
      await add('scan.pdf', await scannedPdf(['THE SPARE KEY IS IN THE BLUE FLOWERPOT.'])),
    ];
    expect(files.map((f) => [f.name, f.status, f.error])).toEqual([
      ['frobnicate.html', 'ready', null],
      ['fit.html', 'ready', null],
      ['rota.html', 'ready', null],
      ['scan.pdf', 'ready', '1 page had no text layer and was read by OCR.'],
    ]);
    const deps: RetrievalDeps = { db: t.db, embeddings: null };
    const ask = async (query: string) =>
      (await searchChunks(deps, { userId: owner.user.id as number, botId: bot.id, query }))[0];
    expect(await ask('How hard are the widgets frobbed?')).toMatchObject({
      fileName: 'frobnicate.html',
      section: 'Options',
    });
    expect(await ask('Which algorithm is behind the fit?')).toMatchObject({ fileName: 'fit.html' });
    expect(await ask('When do I water the ferns?')).toMatchObject({
      text: expect.stringContaining('Monday | Water the ferns'),
    });
    expect(await ask('Where is the spare key?')).toMatchObject({ fileName: 'scan.pdf', page: 1 });
  }, 60_000);

  it('stores embeddings and fuses them with full-text ranking when LLM_EMBEDDING_MODEL is set', async () => {
    const t = await start({
      env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: llm.model, LLM_EMBEDDING_MODEL: 'fake-embed' },
    });
    const w = await world(t);
    const stored = await t.db.kysely.selectFrom('file_chunks').select('embedding').execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((c) => c.embedding && c.embedding.length > 0)).toBe(true);
    expect(llm.embeddingRequests.flatMap((r) => r.input).join('\n')).toContain('24 months');

    const model = (await createEmbeddingModel(t.config.llm, t.config.files.embeddingModel))!;
    const deps: RetrievalDeps = {
      db: t.db,
      embeddings: { current: async () => createEmbeddings(model, '0/fake-embed') },
    };
    const found = await searchChunks(deps, {
      userId: w.owner.user.id as number,
      botId: w.bot.id,
      query: 'warranty months purchase',
      limit: 2,
    });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ fileName: 'kettle.pdf', page: 2 });
    expect(llm.embeddingRequests.at(-1)!.input).toEqual(['warranty months purchase']);
  });
});

describe('files in S3-compatible storage', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.close());

  it('uploads, reads, downloads and deletes through the S3 server', async () => {
    const t = await startTestApp({ env: s3.env, fileJobs: { pollMs: 100 } });
    try {
      const { token } = await signUp(t);
      const bot = await createBot(t, token);
      const bytes = await pdfWithPages(WARRANTY_PDF);
      const file = await upload(t, token, `/api/bots/${bot.id}/files`, 'kettle.pdf', bytes);
      expect(file).toMatchObject({ status: 'ready', chunkCount: 3 });
      const res = await fetch(`${t.url}/api/files/${file.id}/content`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);

      const key = (await t.db.kysely.selectFrom('files').select('storage_key').executeTakeFirstOrThrow()).storage_key;
      const objectUrl = `${s3.endpoint}/${s3.bucket}/${key}`;
      expect((await fetch(objectUrl)).status).toBe(200);
      await t.request('DELETE', `/api/files/${file.id}`, { token });
      await until(async () => (await fetch(objectUrl)).status === 404, { what: 'the object to be deleted' });
    } finally {
      await t.close();
    }
  });
});
