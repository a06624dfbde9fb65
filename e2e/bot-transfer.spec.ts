import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import type { KnowledgeFile } from '../src/shared/contracts/files';
import { createBot } from '../tests/support/factories';
import { settledFile, uploadSettled } from '../tests/support/files-api';
import { startTestApp } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, signedInPage, snap, toastWith, VIEWPORTS, visible } from './support/browser';

const dir = mkdtempSync(join(tmpdir(), 'botty-e2e-transfer-'));
const NOTES = 'Leeks are in season from October to March.';

afterAll(() => rmSync(dir, { recursive: true, force: true }));
const suite = appInBrowser(() => startTestApp({ env: { FILES_DIR: join(dir, 'files') }, fileJobs: { pollMs: 50 } }));

/** Picks `path` in the file chooser the Import button opens, as a person would. */
async function importFile(page: Page, path: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import Botty' }).click();
  await (await chooser).setFiles(path);
}

describe('bots as files', () => {
  it('one user exports a bot with its knowledge, another imports the file and has the bot', async () => {
    const owner = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, owner.token, {
      name: 'Meal Planner',
      config: { tone: 'friendly', systemPrompt: 'You plan meals.', greeting: 'Hungry?' },
      exampleQueries: ['Dinner with leeks?'],
    });
    await uploadSettled(
      suite.t,
      owner.token,
      `/api/bots/${bot.id}/files`,
      'season.txt',
      new TextEncoder().encode(NOTES),
    );

    await owner.page.goto('/dashboard');
    await owner.page.getByRole('button', { name: 'Actions for Meal Planner' }).click();
    await owner.page.getByRole('menuitem', { name: 'Export Botty' }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Export Meal Planner' });
    await visible(dialog);
    await dialog.getByRole('checkbox', { name: 'Include knowledge files' }).check();
    await expectAccessible(owner.page, 'export dialog');
    await snap(owner.page, 'export-bot-dialog-desktop');
    const downloading = owner.page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('meal-planner.botty.zip');
    const zipPath = join(dir, download.suggestedFilename());
    await download.saveAs(zipPath);
    await visible(toastWith(owner.page, 'Saved as meal-planner.botty.zip.'));
    const entries = unzipSync(readFileSync(zipPath));
    expect(Object.keys(entries)).toEqual(['bot.json', 'knowledge/season.txt']);
    expect(strFromU8(entries['knowledge/season.txt']!)).toBe(NOTES);
    await owner.close();

    const other = await signedInPage(suite.browser, suite.t);
    await other.page.goto('/dashboard');
    await visible(other.page.getByText('No botties yet'));
    await expectAccessible(other.page, 'dashboard with the import button');
    await snap(other.page, 'dashboard-import-desktop');
    await other.page.setViewportSize(VIEWPORTS.phone);
    await snap(other.page, 'dashboard-import-phone');
    await other.page.setViewportSize(VIEWPORTS.desktop);

    await importFile(other.page, zipPath);
    await visible(toastWith(other.page, '"Meal Planner" is now one of your botties, private to you.'));
    await visible(other.page.getByRole('heading', { name: 'Meal Planner' }));
    await snap(other.page, 'dashboard-imported-desktop');

    const [copy] = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: other.token })).body;
    expect(copy).toMatchObject({
      name: 'Meal Planner',
      config: { tone: 'friendly', systemPrompt: 'You plan meals.', greeting: 'Hungry?' },
      exampleQueries: ['Dinner with leeks?'],
      // Its first version, and the second recording the knowledge file it came with.
      version: 2,
      sharing: { visibility: 'private' },
    });
    const files = await suite.t.request<KnowledgeFile[]>('GET', `/api/bots/${copy!.id}/files`, { token: other.token });
    expect(files.body.map((f) => f.name)).toEqual(['season.txt']);
    expect(await settledFile(suite.t, other.token, files.body[0]!.id)).toMatchObject({ status: 'ready' });
    await other.close();
  });

  it('says clearly why a file cannot be imported, on a phone too', async () => {
    const user = await signedInPage(suite.browser, suite.t, VIEWPORTS.phone);
    const notABot = join(dir, 'shopping.json');
    writeFileSync(notABot, '{"items": ["leeks"]}');
    await user.page.goto('/dashboard');
    await importFile(user.page, notABot);
    await visible(toastWith(user.page, 'Could not import shopping.json'));
    await visible(toastWith(user.page, 'This JSON file is not a Botty bot: its "format" must be "botty.bot".'));
    await snap(user.page, 'dashboard-import-error-phone');
    expect((await suite.t.request<Bot[]>('GET', '/api/bots', { token: user.token })).body).toEqual([]);
    await user.close();
  });
});
