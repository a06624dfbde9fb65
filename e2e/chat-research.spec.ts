import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreateBotRequest } from '../src/shared/contracts/bots';
import type { Message } from '../src/shared/contracts/chat';
import { createConversation, messagesOf, streamChat } from '../tests/support/chat-api';
import { createBot } from '../tests/support/factories';
import { startFakeSearch, type FakeSearch } from '../tests/support/fake-search';
import { startFakeWeb, type FakeWeb } from '../tests/support/fake-web';
import { startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, hidden, signedInPage, VIEWPORTS, visible } from './support/browser';
import { held } from './support/held-reply';

let site: FakeWeb;
let searxng: FakeSearch;

afterAll(async () => {
  await site?.close();
  await searxng?.close();
});
const suite = appInBrowser(async () => {
  site = await startFakeWeb();
  searxng = await startFakeSearch();
  return startTestAppWithModel({
    env: {
      SEARCH_PROVIDER: 'searxng',
      SEARCH_URL: searxng.url,
      // UNSAFE anywhere but tests: lets the page fetch reach the fake sites on loopback.
      WEB_FETCH_ALLOW_HOSTS: '127.0.0.1',
    },
  });
});

type Viewport = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

const WEB_BOT: Partial<CreateBotRequest> = {
  name: 'Health Scout',
  description: 'Looks up health facts on trusted sites.',
  capabilities: ['web_search'],
  config: { webBrowsing: true, citationGeneration: true },
};

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function send(page: Page, text: string) {
  await input(page).fill(text);
  await input(page).press('Enter');
}

/** A 2×2 PNG of one colour, made here. */
function png(rgb: [number, number, number]): Buffer {
  const image = new PNG({ width: 2, height: 2 });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([...rgb, 255], i);
  return PNG.sync.write(image);
}

/** scrollWidth within innerWidth: nothing scrolls sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('chat research and attachments', () => {
  it('shows live research steps, folds them away with the answer, and links [1] to its source', async () => {
    for (const [name, viewport] of Object.entries(VIEWPORTS) as [string, Viewport][]) {
      const { page, token, close } = await signedInPage(suite.browser, suite.t, viewport);
      const bot = await createBot(suite.t, token, WEB_BOT);
      const page1 = `${site.url}/page`;
      searxng.results = [
        { title: 'Vitamin D fact sheet', url: page1, snippet: 'A fact sheet about vitamin D for adults.' },
        { title: 'Iron', url: `${site.url}/other`, snippet: 'Iron carries oxygen in the blood.' },
      ];
      const reading = held({
        toolCalls: [
          { name: 'open_page', arguments: { url: page1 } },
          { name: 'open_page', arguments: { url: `${site.url}/missing-page` } },
        ],
      });
      const answering = held({
        text: 'Adults need about 15 micrograms of vitamin D a day [1]. Iron matters too [2].',
        chunks: ['Adults need about 15 micrograms ', 'of vitamin D a day [1]. ', 'Iron matters too [2].'],
        chunkDelayMs: 50,
      });
      suite.fake.enqueue(
        { toolCalls: [{ name: 'web_search', arguments: { query: 'vitamin d intake' } }] },
        reading.plan,
        answering.plan,
      );

      await page.goto(`/chat/${bot.id}`);
      await send(page, 'How much vitamin D do adults need?');
      const live = page.getByRole('status', { name: 'Research steps' });
      await visible(live.getByText('Searched the web for “vitamin d intake”'), 10_000);
      await visible(page.getByRole('status', { name: 'Botty is typing' }));
      reading.release();
      await visible(live.getByText(/^Could not read 127\.0\.0\.1\/missing-page/), 10_000);
      await visible(live.getByText('Read 127.0.0.1/page'));
      answering.release();

      // The answer arrives: the steps fold into a summary that still opens.
      const log = messages(page);
      await visible(log.getByText('Iron matters too', { exact: false }), 10_000);
      // Ended: the reply's actions are under it, and the list no longer moves to follow it (on a loaded machine a
      // click aimed before that last move landed beside the summary).
      await visible(log.getByRole('button', { name: 'Copy message' }));
      await hidden(live);
      const summary = log.getByText('Researched 2 sources · 1 step failed');
      await visible(summary);
      expect(await log.getByText('Read 127.0.0.1/page').isVisible()).toBe(false);
      await summary.click();
      await visible(log.getByText('Read 127.0.0.1/page'));

      // The Sources list under the reply, with links to the pages in a new tab.
      const sources = log.getByRole('region', { name: 'Sources' });
      await visible(sources);
      const link = sources.getByRole('link', { name: /Vitamin D fact sheet/ });
      expect(await link.getAttribute('href')).toBe(page1);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
      await visible(sources.getByText('A fact sheet about vitamin D for adults.'));

      // [1] is a small link to its source: clicking it brings the source into view and focus.
      const marker = log.getByRole('link', { name: 'Source 1' });
      expect(await marker.textContent()).toBe('[1]');
      await marker.click();
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      expect(focused).toContain('Vitamin D fact sheet');
      expect(await fitsWidth(page)).toBe(true);

      // Copying the reply keeps the markers.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await log.getByRole('button', { name: 'Copy message' }).last().click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('a day [1]. Iron matters too [2].');

      // The viewport, not the full page: the chat fills the screen, and its list draws what is in view.
      await page.screenshot({ path: `screenshots/chat-research-${name}.png` });
      if (name === 'desktop') await expectAccessible(page, 'a reply with steps and sources');

      // A reload shows the saved steps folded the same way, and the sources.
      await page.reload();
      await visible(messages(page).getByText('Researched 2 sources · 1 step failed'), 10_000);
      await visible(messages(page).getByRole('region', { name: 'Sources' }));

      // Rating the reply: thumbs up is pressed, saved with the reply, and can be taken back.
      const up = messages(page).getByRole('button', { name: 'Good reply' }).last();
      await up.click();
      await expect.poll(() => up.getAttribute('aria-pressed')).toBe('true');
      const conversationId = Number(new URL(page.url()).searchParams.get('c'));
      const ratings = async () =>
        (await suite.t.request<{ rating: string }[]>('GET', `/api/conversations/${conversationId}/feedback`, { token }))
          .body;
      await expect.poll(async () => (await ratings()).map((r) => r.rating)).toEqual(['up']);
      await up.click();
      await expect.poll(async () => (await ratings()).length).toBe(0);
      await close();
    }
  });

  it('attaches an image with progress, shows its thumbnail from its own bytes, and sends it with the message', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t, VIEWPORTS.phone);
    const vision = await createBot(suite.t, token, {
      name: 'Picture Pal',
      description: 'Describes pictures.',
      capabilities: ['image_understanding'],
    });
    const plain = await createBot(suite.t, token, { name: 'Plain Pal', description: 'Talks.' });

    // A bot that cannot read files says on the paperclip how to change that.
    await page.goto(`/chat/${plain.id}`);
    // The chat is drawn anew once its conversation exists; a pointer resting on the old paperclip would show nothing.
    await expect.poll(() => new URL(page.url()).searchParams.get('c')).toMatch(/^\d+$/);
    await button(page, 'Attach file').hover();
    await visible(
      page.getByRole('tooltip').getByText("Turn on Document analysis or Image understanding in this botty's settings"),
    );

    await page.goto(`/chat/${vision.id}`);
    await visible(input(page));
    // As a person would: the paperclip works once the conversation has started.
    await expect.poll(() => button(page, 'Attach file').isEnabled()).toBe(true);
    await page.getByTestId('attach-input').setInputFiles({
      name: 'red.png',
      mimeType: 'image/png',
      buffer: png([220, 30, 30]),
    });
    const chips = page.getByRole('list', { name: 'Attached files' });
    await visible(chips.getByRole('img', { name: 'red.png' }), 20_000);
    await visible(chips.getByRole('button', { name: 'Remove red.png' }));

    // A kind of file no botty reads is left out at once, with a word why.
    await page.getByTestId('attach-input').setInputFiles({
      name: 'notes.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ not a document'),
    });
    await visible(page.getByText("notes.exe: this type of file can't be attached."));
    expect(await chips.getByText('notes.exe').count()).toBe(0);
    // A file the server refuses (its bytes are not the image its name says) says why in words, and can be removed.
    await page.getByTestId('attach-input').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('MZ not an image'),
    });
    await visible(chips.getByRole('alert'), 10_000);
    expect(await chips.getByRole('alert').textContent()).not.toMatch(/^\d{3}/);
    await chips.getByRole('button', { name: 'Remove fake.png' }).click();
    await hidden(chips.getByRole('alert'));

    suite.fake.enqueue('A red square.');
    await send(page, 'What is this?');
    await visible(messages(page).getByText('A red square.'), 10_000);
    await hidden(chips);
    const thumb = messages(page).getByRole('img', { name: 'red.png' });
    await visible(thumb);
    expect(await thumb.getAttribute('src')).toMatch(/^blob:/);

    const conversationId = Number(new URL(page.url()).searchParams.get('c'));
    const [question] = await messagesOf(suite.t, token, conversationId);
    expect(question?.attachments).toMatchObject([{ name: 'red.png', mediaType: 'image/png' }]);

    // After a reload the thumbnail comes from Botty's own file endpoint, as a blob, never an outside address.
    await page.reload();
    const reloaded = messages(page).getByRole('img', { name: 'red.png' });
    await visible(reloaded, 10_000);
    expect(await reloaded.getAttribute('src')).toMatch(/^blob:/);
    expect(await reloaded.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page, 'a message with an image attachment');
    await close();
  });

  it('offers Retry on an interrupted reply, and follows a reply still being written when the chat opens', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, { name: 'Steady', description: 'Answers calmly.' });

    // An interrupted reply (its server went away mid-reply) shows what it had and a Retry.
    const first = await createConversation(suite.t, token, bot.id);
    suite.fake.enqueue('Half an ans');
    await streamChat(suite.t, `/api/conversations/${first.id}/stream`, { token, body: { content: 'Tell me' } });
    const reply = (await messagesOf(suite.t, token, first.id)).at(-1) as Message;
    await suite.t.db.kysely.updateTable('messages').set({ status: 'interrupted' }).where('id', '=', reply.id).execute();
    await page.goto(`/chat/${bot.id}?c=${first.id}`);
    await visible(messages(page).getByText('(interrupted)'), 10_000);
    suite.fake.enqueue('The whole answer.');
    await button(page, 'Retry').click();
    await visible(messages(page).getByText('The whole answer.'), 10_000);
    await hidden(messages(page).getByText('Half an ans'));

    // A reply under way when the conversation opens is followed live, not shown as a stale partial.
    const second = await createConversation(suite.t, token, bot.id);
    const slow = held({
      text: 'One two three four five.',
      chunks: ['One ', 'two ', 'three ', 'four ', 'five.'],
      chunkDelayMs: 300,
    });
    suite.fake.enqueue(slow.plan);
    const streaming = streamChat(suite.t, `/api/conversations/${second.id}/stream`, {
      token,
      body: { content: 'Count' },
    });
    await expect.poll(async () => (await messagesOf(suite.t, token, second.id)).length, { timeout: 10_000 }).toBe(2);
    await page.goto(`/chat/${bot.id}?c=${second.id}`);
    slow.release();
    await visible(messages(page).getByText('One two three four five.'), 15_000);
    await streaming;
    expect(await messages(page).getByText('One two three', { exact: false }).count()).toBe(1);
    await close();
  });
});
