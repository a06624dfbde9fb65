import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import type { Message } from '../src/shared/contracts/chat';
import type { KnowledgeFile } from '../src/shared/contracts/files';
import { createBot } from '../tests/support/factories';
import { systemPromptOf, type ReceivedRequest } from '../tests/support/fake-llm';
import { pdfWithPages } from '../tests/support/files';
import { startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, hidden, signedInPage, snap, VIEWPORTS, visible } from './support/browser';

const FACT = 'The Zephyr widget must be recalibrated every 42 days using the blue dial.';
const QUESTION = 'How often must the Zephyr widget be recalibrated?';
const ANSWER = 'Recalibrate it every 42 days [1].';

/** The fake model cites [1] when it was given numbered sources, as a model told to cite would. */
const citeWhenSourced = (request: ReceivedRequest) =>
  systemPromptOf(request).includes('[1]') ? ANSWER : 'I do not know.';

const filesDir = mkdtempSync(join(tmpdir(), 'botty-e2e-files-'));

afterAll(() => rmSync(filesDir, { recursive: true, force: true }));
const suite = appInBrowser(() =>
  startTestAppWithModel({ model: { reply: citeWhenSourced }, env: { FILES_DIR: filesDir }, fileJobs: { pollMs: 50 } }),
);

const manualPdf = async () =>
  Buffer.from(await pdfWithPages(['Welcome to the Zephyr manual.', FACT, 'Warranty terms apply.']));

const knowledgeList = (page: Page) => page.getByRole('list', { name: 'Knowledge files' });
const fileRow = (page: Page, name: string) => knowledgeList(page).getByRole('listitem').filter({ hasText: name });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
/** Step 2's Knowledge section alone, at full resolution, for a person to look at beside the whole page. */
async function snapKnowledge(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await snap(page, name);
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Knowledge', exact: true }) });
  await section.screenshot({ path: `screenshots/${name}-section.png` });
}
const stepNav = (page: Page) => page.getByRole('navigation', { name: 'Wizard steps' });

/** Chooses files with the "Add files" button, as a person does through the file picker. */
async function addFiles(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, 'Add files').click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(files);
}

async function openKnowledge(page: Page, bot: Bot) {
  await page.goto(`/create-bot?edit=${bot.id}`);
  await visible(page.getByRole('heading', { name: `Edit ${bot.name}` }));
  await button(page, 'Continue').click();
  await visible(page.getByRole('heading', { name: 'Knowledge', exact: true }));
}

const filesOf = async (token: string, bot: Bot) =>
  (await suite.t.request<KnowledgeFile[]>('GET', `/api/bots/${bot.id}/files`, { token })).body;

describe('knowledge files', () => {
  it('adds a PDF in edit mode, shows it ready, and the chat answers from it with [1] and its sources', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, {
      name: 'Zephyr Helper',
      capabilities: ['memory_context'],
      config: { citationGeneration: true, systemPrompt: 'You help people look after their Zephyr widget.' },
    });
    await openKnowledge(page, bot);
    await visible(page.getByText('Drop files or folders here, or'));

    // A type the server never reads is refused at once, without being sent.
    await addFiles(page, [{ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') }]);
    await visible(fileRow(page, 'photo.png').getByText(/This type of file is not supported/));
    await button(page, 'Dismiss photo.png').click();
    await hidden(fileRow(page, 'photo.png'));

    await addFiles(page, [{ name: 'zephyr-manual.pdf', mimeType: 'application/pdf', buffer: await manualPdf() }]);
    const row = fileRow(page, 'zephyr-manual.pdf');
    await visible(row.getByText(/^Ready · \d+ passages?$/), 15_000);
    await visible(page.getByText('Document analysis is on, so your botty reads these files.'));
    const [saved] = await filesOf(token, bot);
    expect(saved).toMatchObject({ name: 'zephyr-manual.pdf', status: 'ready' });
    expect(saved!.chunkCount).toBeGreaterThan(0);
    expect(await row.innerText()).toContain(`Ready · ${saved!.chunkCount} passage`);
    // The server turned Document analysis on with the first file; the form shows it and saves it.
    expect((await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.capabilities).toContain(
      'document_analysis',
    );

    await expectAccessible(page, 'the Knowledge section');
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await snapKnowledge(page, `knowledge-edit-${name}`);
    }
    await page.setViewportSize(VIEWPORTS.desktop);

    await stepNav(page)
      .getByRole('button', { name: /Define Bot/ })
      .click();
    expect(await page.getByRole('checkbox', { name: 'Document analysis' }).isChecked()).toBe(true);
    await button(page, 'Continue').click();
    await button(page, 'Continue').click();
    await button(page, 'Review Botty').click();
    await visible(page.getByRole('heading', { name: 'Finish' }));
    await visible(fileRow(page, 'zephyr-manual.pdf'));
    await button(page, 'Save Changes').click();
    await page.waitForURL('**/dashboard');
    expect((await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.capabilities).toEqual([
      'document_analysis',
      'memory_context',
    ]);

    // The chat: the reply cites [1], and the Sources list under it names the file and its page.
    await page.goto(`/chat/${bot.id}`);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill(QUESTION);
    await message.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await visible(log.getByText(/Recalibrate it every 42 days/), 15_000);
    expect(systemPromptOf(suite.fake.lastRequest())).toContain(FACT);

    const conversations = (
      await suite.t.request<{ id: number }[]>('GET', `/api/bots/${bot.id}/conversations`, { token })
    ).body;
    const messages = (
      await suite.t.request<Message[]>('GET', `/api/conversations/${conversations[0]!.id}/messages`, { token })
    ).body;
    const reply = messages.at(-1)!;
    expect(reply.content).toBe(ANSWER);
    expect(reply.sources[0]).toMatchObject({ n: 1, kind: 'file', title: 'zephyr-manual.pdf', page: 2 });

    const sources = log.getByRole('region', { name: 'Sources' });
    await visible(sources);
    await visible(sources.getByText('zephyr-manual.pdf'));
    await visible(sources.getByText('page 2'));
    await visible(log.getByRole('link', { name: /1/ }));
    await snap(page, 'knowledge-chat-desktop');
    await close();
  });

  it('removes a file after asking', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t, VIEWPORTS.phone);
    const bot = await createBot(suite.t, token, { name: 'Notes Keeper' });
    await openKnowledge(page, bot);
    await addFiles(page, [
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes: the launch moves to May.') },
      { name: 'empty.md', mimeType: 'text/markdown', buffer: Buffer.alloc(0) },
    ]);
    await visible(fileRow(page, 'notes.txt').getByText(/^Ready · 1 passage$/), 15_000);
    // An empty file is kept as failed, with the reason in words.
    await visible(fileRow(page, 'empty.md').getByText('Failed', { exact: true }));
    await visible(fileRow(page, 'empty.md').getByText('The file is empty'));
    // A slow upload shows its progress bar, and can be cancelled: nothing reaches the bot.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 64 * 1024,
    });
    await addFiles(page, [{ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024, 'word ') }]);
    const bar = page.getByRole('progressbar', { name: 'Uploading big.txt' });
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 })
      .toSatisfy((value: number) => value > 0 && value < 100);
    await expectAccessible(page, 'the Knowledge section on a phone');
    await snapKnowledge(page, 'knowledge-rows-phone');
    await button(page, 'Cancel upload of big.txt').click();
    await hidden(fileRow(page, 'big.txt'));
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    await button(page, 'Remove notes.txt').click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove this file?' });
    await visible(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hidden(dialog);
    expect(await filesOf(token, bot)).toHaveLength(2);

    await button(page, 'Remove notes.txt').click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    // Asked of the server until it says so: while the dialog is open the page behind it is hidden from the
    // accessibility tree, so the row counted as gone before the removal had reached the server (a clean-clone CI
    // run on a busy machine).
    await expect.poll(async () => (await filesOf(token, bot)).map((f) => f.name)).toEqual(['empty.md']);
    await hidden(dialog);
    await hidden(fileRow(page, 'notes.txt'));
    await close();
  });

  it('while creating, holds the chosen files and uploads them right after Create Botty', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    await page.goto('/create-bot');
    await page.getByLabel('Name').fill('Manual Reader');
    await page.getByLabel('Description').fill('Answers questions from the Zephyr manual.');
    await button(page, 'Continue').click();
    await addFiles(page, [{ name: 'zephyr-manual.pdf', mimeType: 'application/pdf', buffer: await manualPdf() }]);
    await visible(fileRow(page, 'zephyr-manual.pdf').getByText('Added when created'));
    await visible(page.getByText('Document analysis is on, so your botty reads these files.'));
    await snapKnowledge(page, 'knowledge-create-desktop');

    await button(page, 'Continue').click();
    await visible(page.getByLabel('Example query'));
    await stepNav(page)
      .getByRole('button', { name: /Customize/ })
      .click();
    // The held file survives moving between steps.
    await visible(fileRow(page, 'zephyr-manual.pdf'));
    await button(page, 'Continue').click();
    for (const query of ['How often is recalibration?', 'What does the warranty cover?']) {
      await page.getByLabel('Example query').fill(query);
      await page.getByLabel('Example query').press('Enter');
    }
    suite.fake.enqueue(JSON.stringify({ systemPrompt: 'You answer from the Zephyr manual.', exampleQueries: [] }));
    await button(page, 'Start Training').click();
    await button(page, 'Review Botty').click();
    await visible(page.getByRole('heading', { name: 'Finish' }), 15_000);
    await visible(fileRow(page, 'zephyr-manual.pdf'));
    await page.setViewportSize(VIEWPORTS.phone);
    await expectAccessible(page, 'the finish step with a held file');
    await snap(page, 'knowledge-finish-phone');
    await button(page, 'Create Botty').click();
    await page.waitForURL((url) => url.pathname === '/');

    const [bot] = (await suite.t.request<Bot[]>('GET', '/api/bots', { token })).body;
    expect(bot).toMatchObject({ name: 'Manual Reader' });
    expect(bot!.capabilities).toContain('document_analysis');
    expect((await filesOf(token, bot!)).map((f) => f.name)).toEqual(['zephyr-manual.pdf']);
    await close();
  });
});
