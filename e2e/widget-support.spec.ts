import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBot } from '../tests/support/factories';
import { systemPromptOf, type ReceivedRequest } from '../tests/support/fake-llm';
import { uploadSettled } from '../tests/support/files-api';
import { signUp, startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap, visible } from './support/browser';

const POLICY = 'Acme ships to every country of the European Union; deliveries take five working days.';
const INVENTED = 'Every parcel comes with a free lamp.';
/** The site the owner lists; the widget page is opened at the top (no frame), as it claims to be embedded there. */
const SITE = 'http://localhost:4321';

/** The bot cites the policy by its number, then says something no passage says. */
function citeAndInvent(request: ReceivedRequest) {
  const n = /\[(\d+)\] \(shipping\.txt/.exec(systemPromptOf(request))?.[1];
  return n ? `We ship to every country of the European Union [${n}]. ${INVENTED}` : 'I do not know.';
}

const filesDir = mkdtempSync(join(tmpdir(), 'botty-widget-support-'));
const suite = appInBrowser(() =>
  startTestAppWithModel({ model: { reply: citeAndInvent }, env: { FILES_DIR: filesDir }, fileJobs: { pollMs: 50 } }),
);
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

describe('the widget’s support check', () => {
  it('marks the sentence no source supports, and says why when the mark is pressed', async () => {
    const { token } = await signUp(suite.t);
    const bot = await createBot(suite.t, token, {
      name: 'Acme helper',
      capabilities: ['document_analysis'],
      config: { citationGeneration: true },
    });
    const file = await uploadSettled(
      suite.t,
      token,
      `/api/bots/${bot.id}/files`,
      'shipping.txt',
      new TextEncoder().encode(POLICY),
    );
    expect(file.status).toBe('ready');
    await suite.t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token,
      body: { visibility: 'link', embedOrigins: [SITE] },
    });

    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.goto(`/embed/${bot.id}?origin=${encodeURIComponent(SITE)}`);
    const input = page.getByRole('textbox', { name: 'Message Acme helper' });
    await visible(input);
    await input.fill('Where do you ship?');
    await input.press('Enter');
    await visible(page.getByText(INVENTED));

    // The check comes a few seconds after the reply; the widget fetches the reply again until it has it.
    const mark = page.getByRole('button', { name: 'No source supports this sentence' });
    await visible(mark, 20_000);
    expect(await mark.count()).toBe(1);
    await visible(page.getByText('1 of 2 sentences supported', { exact: false }));
    // The mark follows the invented sentence, not the cited one.
    const before = await mark.evaluate((node) => node.previousSibling?.textContent ?? '');
    expect(before.trimEnd().endsWith(INVENTED)).toBe(true);

    const note = page.getByText('It may still be right', { exact: false });
    expect(await note.isVisible()).toBe(false);
    await mark.click();
    await visible(note);
    expect(await mark.getAttribute('aria-expanded')).toBe('true');
    expect(await note.innerText()).toContain('Checked by the judge');
    await expectAccessible(page, 'widget with an unsupported sentence');
    await snap(page, 'widget-support-mark');
    await mark.click();
    expect(await note.isVisible()).toBe(false);
    await close();
  });
});
