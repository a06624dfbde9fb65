import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_MESSAGES } from '@shared/chat/widget-protocol';
import { createBot } from '../tests/support/factories';
import { systemPromptOf } from '../tests/support/fake-llm';
import { uploadSettled } from '../tests/support/files-api';
import { signUp, startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap, VIEWPORTS, visible } from './support/browser';

const ANSWER = 'We ship to every country in the European Union within five days.';
const POLICY = 'Acme ships to every country of the European Union; deliveries take five working days.';
/** A host page's rules that reached the widget before its shadow root (issue 21 item 19). */
const HOSTILE_CSS = `svg{width:100px!important;height:100px}div{margin:30px;padding:30px}[hidden]{display:block!important}
button{display:none!important}*{font-family:serif!important;color:red}iframe{border:10px solid red}`;

// The bot answers from its knowledge file, citing it, so the widget shows its sources.
const filesDir = mkdtempSync(join(tmpdir(), 'botty-embed-'));
const suite = appInBrowser(() =>
  startTestAppWithModel({
    model: { reply: (request) => (systemPromptOf(request).includes('[1]') ? `${ANSWER} [1]` : ANSWER) },
    // Every test opens the widget a few times from the same address.
    env: { FILES_DIR: filesDir, RATE_LIMIT_WIDGET_PER_MINUTE: '200' },
    fileJobs: { pollMs: 50 },
  }),
);
let site: Server;
/** The embedding site: one server, two origins. `localhost` is listed by the bot's owner, `127.0.0.1` is not. */
let listed: string;
let unlisted: string;
let botId: number;
let ownerToken: string;

beforeAll(async () => {
  site = createServer((request, response) => {
    const botty = suite.t.url;
    const embed = `<script src="${botty}/embed.js" data-bot="${botId}" async></script>`;
    // `/framed`: a page that frames the widget page itself, claiming to be the listed site, with no Referer.
    // `/hostile` (and `/hostile-bare`, the same page without the widget): rules that broke the widget (issue 21).
    const body =
      request.url === '/framed'
        ? `<iframe title="Lying frame" referrerpolicy="no-referrer" src="${botty}/embed/${botId}?origin=${encodeURIComponent(listed)}"></iframe>`
        : request.url?.startsWith('/hostile')
          ? `<style>${HOSTILE_CSS}</style><div id="content"><h1>Acme Lamps</h1><p>Lamps for every room.</p></div>` +
            (request.url === '/hostile' ? embed : '')
          : `<h1>Acme Lamps</h1><p>Lamps for every room.</p>${embed}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><title>Acme Lamps</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  listed = `http://localhost:${port}`;
  unlisted = `http://127.0.0.1:${port}`;

  const owner = await signUp(suite.t);
  ownerToken = owner.token;
  const bot = await createBot(suite.t, owner.token, {
    name: 'Acme helper',
    description: 'Answers questions about Acme lamps',
    capabilities: ['document_analysis'],
    config: { citationGeneration: true },
  });
  botId = bot.id;
  const file = await uploadSettled(
    suite.t,
    owner.token,
    `/api/bots/${bot.id}/files`,
    'shipping-policy.txt',
    new TextEncoder().encode(POLICY),
  );
  expect(file.status).toBe('ready');
  const sharing = await suite.t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
    token: owner.token,
    body: { visibility: 'link', embedOrigins: [listed] },
  });
  expect(sharing.status).toBe(200);
});

afterAll(() => {
  site?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const widgetOf = (page: Page) => page.frameLocator('iframe[title="Chat"]');
const background = (locator: Locator) => locator.evaluate((node) => getComputedStyle(node).backgroundColor);

/** What the owner chooses on the widget page, and sees on their site. */
const CUSTOM = {
  color: '#0f766e',
  rgb: 'rgb(15, 118, 110)',
  title: 'Ask Acme',
  offsetX: 32,
  starters: ['Do you ship abroad?', 'Which lamp suits a desk?'],
};

describe('the embedded chat widget', () => {
  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`answers a visitor on a listed site (${label})`, async () => {
      const { page, close } = await newPage(suite.browser, listed, viewport);
      await page.goto('/');
      const bubble = page.getByRole('button', { name: 'Open chat' });
      await visible(bubble);
      expect(await bubble.getAttribute('aria-expanded')).toBe('false');
      await bubble.focus();
      await page.keyboard.press('Enter');
      const widget = widgetOf(page);
      await visible(widget.getByText("Hello! I'm Acme helper.", { exact: false }));
      expect(await page.getByRole('button', { name: 'Close chat' }).getAttribute('aria-expanded')).toBe('true');

      await widget.getByRole('textbox', { name: 'Message Acme helper' }).fill('Do you ship abroad?');
      await widget.getByRole('textbox', { name: 'Message Acme helper' }).press('Enter');
      await visible(widget.getByText(ANSWER), 10_000);
      // What [1] points to: the owner's file by its name, nothing more of it.
      await visible(widget.getByRole('list', { name: 'Sources' }).getByText('shipping-policy.txt'));
      await expectAccessible(page, `host page with the widget open (${label})`);
      await snap(page, `embed-widget-${label}`);

      // The conversation is the visitor's: it is there again after a reload.
      await page.reload();
      await page.getByRole('button', { name: 'Open chat' }).click();
      await visible(widgetOf(page).getByText('Do you ship abroad?'));
      await visible(widgetOf(page).getByText(ANSWER));
      await visible(widgetOf(page).getByRole('list', { name: 'Sources' }).getByText('shipping-policy.txt'));
      // Dark when the visitor's system is.
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(
        await widgetOf(page)
          .locator('body')
          .evaluate((body) => getComputedStyle(body).backgroundColor),
      ).toBe('rgb(24, 24, 27)');
      await expectAccessible(page, `host page with the widget open, dark (${label})`);
      await snap(page, `embed-widget-dark-${label}`);
      // The widget's own close button hands focus back to the bubble.
      await widgetOf(page).getByRole('button', { name: 'Close chat' }).click();
      await visible(page.getByRole('button', { name: 'Open chat' }));
      expect(await page.locator('iframe[title="Chat"]').isVisible()).toBe(false);
      await close();
    });
  }

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`keeps a hostile host page's CSS out, and its own out of the page (${label})`, async () => {
      const { page, close } = await newPage(suite.browser, listed, viewport);
      const layout = () =>
        page.evaluate(() => {
          const box = document.getElementById('content')!.getBoundingClientRect();
          return { box: [box.x, box.y, box.width, box.height], scroll: document.documentElement.scrollHeight };
        });
      await page.goto('/hostile-bare');
      const before = await layout();
      await page.goto('/hostile');
      const bubble = page.getByRole('button', { name: 'Open chat' });
      await visible(bubble);
      expect(await layout()).toEqual(before);
      const box = (await bubble.boundingBox())!;
      expect([box.width, box.height]).toEqual([56, 56]);
      expect((await bubble.locator('svg').boundingBox())!.width).toBe(26);
      // The closed panel takes no room and shows nothing.
      expect(await page.locator('botty-chat .panel').isVisible()).toBe(false);
      expect(await page.locator('botty-chat .panel').boundingBox()).toBeNull();
      await snap(page, `embed-widget-hostile-closed-${label}`);

      await bubble.click();
      const widget = widgetOf(page);
      await widget.getByRole('textbox', { name: 'Message Acme helper' }).fill('Do you ship abroad?');
      await widget.getByRole('textbox', { name: 'Message Acme helper' }).press('Enter');
      await visible(widget.getByText(ANSWER), 10_000);
      const panel = (await page.locator('botty-chat .panel').boundingBox())!;
      expect(panel.width).toBe(Math.min(380, viewport.width - 32));
      expect(await layout()).toEqual(before);
      await snap(page, `embed-widget-hostile-open-${label}`);
      await close();
    });
  }

  it('draws nothing on a site the owner did not list, and says why in one console line', async () => {
    const { page, close } = await newPage(suite.browser, unlisted);
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/');
    await expect.poll(() => warnings.length, { timeout: 5000 }).toBe(1);
    expect(warnings[0]).toContain(`Botty: no chat bubble for bot ${botId} on ${unlisted}`);
    expect(warnings[0]).toContain(WIDGET_MESSAGES.notAvailable);
    expect(await page.locator('botty-chat').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    await snap(page, 'embed-widget-refused');
    await close();
  });

  it('cannot be framed by another site that claims to be a listed one', async () => {
    // Not newPage: the browser's report of the refused frame is the point here, not an error of the page.
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    await page.goto(`${unlisted}/framed`);
    await expect.poll(() => refusals.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(await page.frameLocator('iframe[title="Lying frame"]').getByRole('textbox').count()).toBe(0);
    await context.close();
  });

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the owner the snippet and what visitors asked, and saves the widget's settings (${label})`, async () => {
      const { page, context, close } = await newPage(suite.browser, suite.t.url, viewport);
      await context.addInitScript((token) => localStorage.setItem('authToken', token), ownerToken);
      await page.goto(`/create-bot?edit=${botId}`);
      await visible(page.getByRole('heading', { name: 'Edit Acme helper' }), 15_000);
      await page.getByRole('link', { name: 'Widget' }).click();
      await visible(page.getByRole('heading', { name: 'Widget for Acme helper' }));
      expect(await page.getByLabel('Embed snippet').textContent()).toBe(
        `<script src="${suite.t.url}/embed.js" data-bot="${botId}" async></script>`,
      );
      const conversations = page.getByRole('list', { name: 'Widget conversations' });
      await visible(conversations);
      await conversations.getByRole('button').first().click();
      await visible(page.getByText('Do you ship abroad?').first());
      await visible(page.getByText(ANSWER).first());
      await expectAccessible(page, `widget page (${label})`);
      await snap(page, `bot-widget-page-${label}`);

      // The look, previewed as it is typed; a bad colour is refused with the field's message.
      const preview = page.getByTestId('widget-preview');
      await page.getByLabel('Colour', { exact: true }).fill('teal');
      await page.getByRole('button', { name: 'Save appearance' }).click();
      await visible(page.getByRole('alert').filter({ hasText: 'Colour must be a hex colour' }));
      await page.getByLabel('Colour', { exact: true }).fill(CUSTOM.color);
      await page.getByLabel('Title', { exact: true }).fill(CUSTOM.title);
      await page.getByRole('radio', { name: 'Bottom left' }).click();
      await page.getByLabel('Distance from the side (px)').fill(String(CUSTOM.offsetX));
      await page.getByLabel('Starter questions', { exact: true }).fill(CUSTOM.starters.join('\n'));
      await visible(preview.getByText(CUSTOM.title));
      for (const starter of CUSTOM.starters) await visible(preview.getByText(starter));
      expect(await background(page.getByTestId('preview-launcher'))).toBe(CUSTOM.rgb);
      const launcher = (await page.getByTestId('preview-launcher').boundingBox())!;
      // Half the offset in the preview, inside its 1 px border.
      expect(launcher.x - (await preview.boundingBox())!.x).toBe(CUSTOM.offsetX / 2 + 1);
      await expectAccessible(page, `widget page with the appearance form (${label})`);
      await preview.scrollIntoViewIfNeeded();
      await snap(page, `bot-widget-appearance-${label}`);
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/widget-appearance') && r.request().method() === 'PATCH',
      );
      await page.getByRole('button', { name: 'Save appearance' }).click();
      expect((await saved).status()).toBe(200);
      await expect
        .poll(() =>
          page.getByText('Widget appearance saved').evaluateAll((nodes) => nodes.some((n) => n.checkVisibility())),
        )
        .toBe(true);

      const sites = page.getByLabel('Allowed sites');
      await sites.fill(`${listed}\nnot a site`);
      await page.getByRole('button', { name: 'Save widget settings' }).click();
      await visible(page.getByRole('alert').filter({ hasText: 'Each site must be an origin' }));
      await sites.fill(`${listed}\nhttps://shop.example/`);
      await page.getByLabel('Questions per day').fill('50');
      await page.getByRole('button', { name: 'Save widget settings' }).click();
      await visible(page.getByText('Widget settings saved'));
      await visible(page.getByText('of 50 questions asked today'));
      expect(await sites.inputValue()).toBe(`${listed}\nhttps://shop.example`);
      await close();
    });
  }

  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the owner's colour, title, corner and starters on the site (${label})`, async () => {
      const { page, close } = await newPage(suite.browser, listed, viewport);
      await page.goto('/');
      const bubble = page.getByRole('button', { name: `Open chat with ${CUSTOM.title}` });
      await visible(bubble);
      expect(await background(bubble)).toBe(CUSTOM.rgb);
      const box = (await bubble.boundingBox())!;
      expect([box.x, viewport.height - box.y - box.height]).toEqual([CUSTOM.offsetX, 20]);
      await bubble.click();
      const widget = widgetOf(page);
      await visible(widget.getByRole('heading', { name: CUSTOM.title }));
      expect(await background(widget.locator('header'))).toBe(CUSTOM.rgb);
      const starters = widget.getByRole('list', { name: 'Suggested questions' });
      await visible(starters.getByRole('button', { name: CUSTOM.starters[1] }));
      await expectAccessible(page, `host page with the customised widget (${label})`);
      await snap(page, `embed-widget-custom-${label}`);
      await starters.getByRole('button', { name: CUSTOM.starters[0] }).click();
      await visible(widget.getByText(ANSWER), 10_000);
      expect(await starters.count()).toBe(0);
      await close();
    });
  }
});
