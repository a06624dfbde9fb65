import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { KnowledgeFile } from '../src/shared/contracts/files';
import { createBot } from '../tests/support/factories';
import { pdfWithPages } from '../tests/support/files';
import { startTestApp } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, signedInPage, VIEWPORTS, visible } from './support/browser';

const FILES = 50;
const filesDir = mkdtempSync(join(tmpdir(), 'botty-e2e-queue-'));
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));
const suite = appInBrowser(() =>
  startTestApp({
    env: { FILES_DIR: join(filesDir, 'store'), FILES_EXTRACTION_WORKERS: '2' },
    fileJobs: { pollMs: 50 },
  }),
);

const knowledgeList = (page: Page) => page.getByRole('list', { name: 'Knowledge files' });
const rowsWith = (page: Page, text: RegExp) => knowledgeList(page).getByRole('listitem').filter({ hasText: text });
const queue = (page: Page) => page.getByRole('region', { name: 'Upload queue' });

async function openKnowledge(page: Page, botId: number) {
  await page.goto(`/bots/${botId}/knowledge`);
  await visible(page.getByText('Drop files or folders here, or'));
}

const filesOf = async (token: string, botId: number) =>
  (await suite.t.request<KnowledgeFile[]>('GET', `/api/bots/${botId}/files`, { token })).body;

/** Issue 26: a bot's knowledge takes many files in one go, and a queue shows where each one is. */
describe('the knowledge upload queue', () => {
  it('takes 50 files at once, uploads them a few at a time with a queue, and shows every one ready', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, { name: 'Library' });
    await openKnowledge(page, bot.id);
    const pdfs = await Promise.all(
      Array.from({ length: FILES }, async (_, i) => ({
        name: `chapter-${String(i + 1).padStart(2, '0')}.pdf`,
        mimeType: 'application/pdf',
        buffer: Buffer.from(await pdfWithPages([`Chapter ${i + 1} opens.`, `Chapter ${i + 1} ends.`])),
      })),
    );

    // Uploads slowed down, so the queue can be seen (and looked at) while it moves.
    const cdp = await page.context().newCDPSession(page);
    const throttle = (uploadThroughput: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput,
      });
    await throttle(4 * 1024);
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Add files', exact: true }).click(),
    ]);
    await chooser.setFiles(pdfs);

    await visible(queue(page));
    await visible(queue(page).getByText(/\d+ queued/));
    // At most three on their way at once; the others wait their turn.
    await visible(rowsWith(page, /Queued/).first());
    const uploading = await rowsWith(page, /Uploading/).count();
    expect(uploading).toBeGreaterThan(0);
    expect(uploading).toBeLessThanOrEqual(3);
    mkdirSync('screenshots', { recursive: true });
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await queue(page).scrollIntoViewIfNeeded();
      // The screen as a person sees it, the queue and the first rows.
      await page.screenshot({ path: `screenshots/knowledge-queue-${name}.png` });
    }
    await expectAccessible(page, 'the knowledge upload queue');
    await page.setViewportSize(VIEWPORTS.desktop);
    await throttle(-1);

    await expect.poll(() => rowsWith(page, /Ready · 2 passages/).count(), { timeout: 120_000 }).toBe(FILES);
    await expect.poll(() => queue(page).count()).toBe(0);
    const saved = await filesOf(token, bot.id);
    expect(saved).toHaveLength(FILES);
    expect(saved.every((file) => file.status === 'ready')).toBe(true);
    await expectAccessible(page, 'the knowledge files once read');
    await close();
  }, 180_000);

  it('takes a whole folder with its subfolders, leaving hidden files out', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t, VIEWPORTS.phone);
    const bot = await createBot(suite.t, token, { name: 'Handbook' });
    await openKnowledge(page, bot.id);
    const folder = join(filesDir, 'handbook');
    mkdirSync(join(folder, 'policies'), { recursive: true });
    writeFileSync(join(folder, 'welcome.md'), '# Welcome\n\nThe office opens at nine.');
    writeFileSync(join(folder, 'policies', 'leave.txt'), 'Leave is booked two weeks ahead.');
    writeFileSync(join(folder, '.DS_Store'), 'not a document');

    await page.locator('input[webkitdirectory]').setInputFiles(folder);
    await expect.poll(() => rowsWith(page, /Ready · 1 passage/).count(), { timeout: 30_000 }).toBe(2);
    expect((await filesOf(token, bot.id)).map((file) => file.name).sort()).toEqual(['leave.txt', 'welcome.md']);
    await close();
  });
});
