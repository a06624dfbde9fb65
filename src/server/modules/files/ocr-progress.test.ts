import { describe, expect, it } from 'vitest';
import type { FileProgress, KnowledgeFile } from '@shared/contracts/files';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { scannedPdf } from '../../../../tests/support/files';
import { appsWithFiles, uploadFile } from '../../../../tests/support/files-api';
import { signUp } from '../../../../tests/support/test-app';
import { until } from '../../../../tests/support/wait';

/** Issue 22 item 9: a scanned PDF read by OCR tells, page by page, how far its reading has come. */
describe.each(databaseKinds)('OCR progress (%s)', (kind) => {
  const { start } = appsWithFiles(kind);

  it('is answered with the file while its pages are read, rises page by page, and is cleared when ready', async () => {
    const t = await start();
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const scan = await scannedPdf(['THE FIRST PAGE.'], ['THE SECOND PAGE.'], ['THE THIRD PAGE.']);
    const uploaded = await uploadFile(t, token, `/api/bots/${bot.id}/files`, 'scan.pdf', scan);
    expect(uploaded.body).toMatchObject({ status: 'processing', progress: null });

    // Polled as the knowledge list does, though far more often.
    const seen: FileProgress[] = [];
    let file!: KnowledgeFile;
    await until(
      async () => {
        file = (await t.request<KnowledgeFile>('GET', `/api/files/${uploaded.body.id}`, { token })).body;
        const last = seen.at(-1);
        const { progress } = file;
        if (
          progress &&
          (last?.stage !== progress.stage || last.done !== progress.done || last.total !== progress.total)
        ) {
          seen.push(progress);
        }
        return file.status !== 'processing';
      },
      { what: 'the scan to be read', timeoutMs: 60_000, intervalMs: 20 },
    );

    expect(file).toMatchObject({ status: 'ready', progress: null });
    expect(file.error).toBe('3 pages had no text layer and were read by OCR.');
    // The text layers of its pages are read first (in milliseconds), then the pages without one by OCR.
    const ocr = seen.filter((p) => p.stage === 'ocr');
    expect(seen.slice(0, seen.length - ocr.length).every((p) => p.stage === 'pages' && p.total === 3)).toBe(true);
    expect(ocr.every((p) => p.total === 3 && p.done >= 0 && p.done <= 3)).toBe(true);
    // Rising from the start, with a page between; a quick page may fall between two writes (a few a second).
    const done = ocr.map((p) => p.done);
    expect(done[0]).toBe(0);
    expect(done.every((d, i) => i === 0 || d > done[i - 1]!)).toBe(true);
    expect(done.some((d) => d > 0 && d < 3)).toBe(true);
    // Nothing is left behind in the row once the file is ready.
    const row = await t.db.kysely
      .selectFrom('files')
      .select(['progress_done', 'progress_total'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ progress_done: null, progress_total: null });
  }, 90_000);
});
