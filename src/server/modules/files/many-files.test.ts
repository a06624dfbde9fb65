import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileProgress, KnowledgeFile } from '@shared/contracts/files';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { pdfWithPages } from '../../../../tests/support/files';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { appsWithFiles, settledFile, uploadFile } from '../../../../tests/support/files-api';
import { signUp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

const FILES = 50;
const PAGES = 3;

const runs = mkdtempSync(join(tmpdir(), 'botty-gates-'));
afterAll(() => rmSync(runs, { recursive: true, force: true }));

/**
 * pdftotext itself, held at a gate per file until the test has seen that file's progress in the API: the real
 * command then reads it. A file is known by its bytes' SHA-256 (what the test uploaded), since the command only
 * gets a temporary path. Without the gate a small PDF is read in milliseconds, between two looks. poppler's
 * `pdfinfo`, beside it as it is installed, counts the pages meanwhile.
 */
function gatedPdftotext(gates: string): string {
  const pdftotext = execFileSync('sh', ['-c', 'command -v pdftotext'], { encoding: 'utf8' }).trim();
  const path = join(gates, 'pdftotext.sh');
  writeFileSync(
    path,
    `#!/bin/sh
for arg; do case "$arg" in *.pdf) pdf="$arg";; esac; done
hash=$(sha256sum "$pdf" | cut -c1-64)
touch '${gates}'/waiting-$hash
while [ ! -f '${gates}'/go-$hash ]; do sleep 0.01; done
exec '${pdftotext}' "$@"
`,
  );
  chmodSync(path, 0o755);
  symlinkSync(execFileSync('sh', ['-c', 'command -v pdfinfo'], { encoding: 'utf8' }).trim(), join(gates, 'pdfinfo'));
  return path;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Issue 26: a bot takes many files in one drop, reads several at once, and the server keeps answering. */
describe.each(databaseKinds)('fifty files dropped at once (%s)', (kind) => {
  const { start } = appsWithFiles(kind);

  it('each reaches ready with its pages read reported on the way, while /api/health answers 200', async () => {
    const gates = mkdtempSync(join(runs, `${kind}-`));
    const t = await start({ env: { FILES_EXTRACTION_WORKERS: '3', FILES_PDFTOTEXT: gatedPdftotext(gates) } });
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const pdfs = await Promise.all(
      Array.from({ length: FILES }, (_, i) =>
        pdfWithPages(Array.from({ length: PAGES }, (_, p) => `File ${i + 1} page ${p + 1}`)),
      ),
    );
    const hashOf = new Map(pdfs.map((pdf, i) => [`part-${i + 1}.pdf`, sha256(pdf)]));

    // All at once, as the browser's queue would if it had no bound.
    const answers = await Promise.all(
      pdfs.map((pdf, i) => uploadFile(t, token, `/api/bots/${bot.id}/files`, `part-${i + 1}.pdf`, pdf)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(FILES).fill(201));

    const progress = new Map<string, FileProgress[]>();
    let health = 0;
    let files: KnowledgeFile[] = [];
    await until(
      async () => {
        const [list, alive] = await Promise.all([
          t.request<KnowledgeFile[]>('GET', `/api/bots/${bot.id}/files`, { token }),
          fetch(`${t.url}/api/health`),
        ]);
        expect(alive.status).toBe(200);
        health += 1;
        files = list.body;
        for (const file of files) {
          if (!file.progress) continue;
          progress.set(file.name, [...(progress.get(file.name) ?? []), file.progress]);
          // Seen: its reading may go on.
          writeFileSync(join(gates, `go-${hashOf.get(file.name)}`), '');
        }
        return files.every((file) => file.status !== 'processing');
      },
      { what: 'every file to be read', timeoutMs: 180_000, intervalMs: 50 },
    );

    expect(files).toHaveLength(FILES);
    expect(files.filter((file) => file.status !== 'ready')).toEqual([]);
    expect(files.every((file) => file.chunkCount === PAGES && file.progress === null)).toBe(true);
    // Each file told of its pages as they were read, and never of more than it has.
    expect(progress.size).toBe(FILES);
    for (const seen of progress.values()) {
      expect(seen[0]).toEqual({ stage: 'pages', done: 0, total: PAGES });
      expect(seen.every((p) => p.stage === 'pages' && p.total === PAGES && p.done <= PAGES)).toBe(true);
    }
    // Every file went through the gate: read by pdftotext, not pdf.js after a timeout.
    for (const hash of hashOf.values()) expect(existsSync(join(gates, `waiting-${hash}`))).toBe(true);
    expect(health).toBeGreaterThan(1);
  }, 240_000);
});

/**
 * A worker reads the next file while the one it read before is stored: embedding and indexing a file's passages
 * (the model's and the database's part) overlap the reading of the next. Seen through the embeddings model: the
 * first file's passages are held there until the second file's arrive, which only happens if the second file was
 * read meanwhile by the one worker.
 */
describe.each(databaseKinds)('a worker free once its file is read (%s)', (kind) => {
  const { start } = appsWithFiles(kind);
  let release = () => {};
  const secondArrived = new Promise<void>((resolve) => (release = resolve));
  /** What ended the first file's hold: the second file's passages arriving, or the wait running out. */
  let firstReleasedBy: string | undefined;
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm({
      beforeEmbedding: async (input) => {
        if (input.some((text) => text.includes('second'))) return release();
        firstReleasedBy = await Promise.race([
          secondArrived.then(() => 'the second file'),
          sleep(5_000).then(() => 'the wait running out'),
        ]);
      },
    });
  });
  afterAll(() => llm.close());

  it('reads the next file while the one before it is embedded and stored', async () => {
    const t = await start({
      env: {
        FILES_EXTRACTION_WORKERS: '1',
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: llm.model,
        LLM_EMBEDDING_MODEL: 'embed',
      },
    });
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const path = `/api/bots/${bot.id}/files`;
    const first = await uploadFile(t, token, path, 'first.txt', new TextEncoder().encode('The first file.'));
    const second = await uploadFile(t, token, path, 'second.txt', new TextEncoder().encode('The second file.'));

    const [a, b] = await Promise.all([settledFile(t, token, first.body.id), settledFile(t, token, second.body.id)]);
    expect([a.status, b.status]).toEqual(['ready', 'ready']);
    expect(llm.embeddingRequests.map((r) => r.input.join(' '))).toEqual(['The first file.', 'The second file.']);
    expect(firstReleasedBy).toBe('the second file');
    const held = await t.db.kysely
      .selectFrom('file_chunks')
      .select('embedding')
      .where('embedding', 'is not', null)
      .execute();
    expect(held).toHaveLength(2);
  }, 30_000);
});
