import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createConversation } from '../tests/support/chat-api';
import { createBot } from '../tests/support/factories';
import { startTestApp } from '../tests/support/test-app';
import { appInBrowser, newPage, signedInPage, snap, VIEWPORTS, visible } from './support/browser';

/** Issue 9: nothing a user types (long words, URLs) makes any page scroll sideways on a 360 px phone. */
const PHONE = { width: 360, height: 740 };
const LONG_WORD = 'Supercalifragilisticexpialidocious'.repeat(4);
const LONG_URL = `https://example.com/${'a-very-long-path-segment-'.repeat(8)}?q=${'x'.repeat(60)}`;

const suite = appInBrowser(startTestApp);

async function expectNoSidewaysScroll(page: Page, label: string) {
  await page.waitForLoadState('networkidle');
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label} is ${scrollWidth} px wide at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

/** A signed-in phone whose bot, conversation and messages are full of long words. */
async function seededPhone() {
  const session = await signedInPage(suite.browser, suite.t, PHONE);
  const bot = await createBot(suite.t, session.token, {
    name: LONG_WORD.slice(0, 50),
    description: `Knows ${LONG_WORD} and ${LONG_URL} by heart`,
  });
  const conversation = await createConversation(suite.t, session.token, bot.id);
  for (const content of [`What is ${LONG_WORD}?`, `Read ${LONG_URL}`]) {
    await suite.t.request('POST', '/api/bot-message', {
      token: session.token,
      body: { conversationId: conversation.id, botId: bot.id, userMessageContent: content },
    });
  }
  await suite.t.request('PATCH', `/api/conversations/${conversation.id}`, {
    token: session.token,
    body: { title: LONG_WORD.slice(0, 100) },
  });
  await session.page.evaluate((id) => localStorage.setItem('pinnedBots', JSON.stringify([id])), bot.id);
  return { ...session, bot, conversation };
}

describe('no sideways scrolling at 360 px', () => {
  it('on every signed-in page, with long words in the data', async () => {
    const { page, close, bot, conversation } = await seededPhone();
    const pages: [string, string][] = [
      ['/', 'home'],
      ['/dashboard', 'dashboard'],
      ['/create-bot', 'create bot'],
      [`/chat/${bot.id}`, 'chat'],
      [`/chat/${bot.id}?c=${conversation.id}`, 'chat with its conversation'],
      ['/history', 'history'],
      ['/settings', 'settings'],
    ];
    for (const [path, label] of pages) {
      await page.goto(path);
      await expectNoSidewaysScroll(page, label);
    }

    await page.goto('/history');
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill(LONG_WORD.slice(0, 30));
    await visible(page.getByRole('list', { name: 'Search results' }));
    await expectNoSidewaysScroll(page, 'history search');

    await page.goto('/create-bot');
    await page.getByLabel(/name/i).first().fill(LONG_WORD);
    await expectNoSidewaysScroll(page, 'create bot with a long name typed');

    await page.goto('/settings');
    for (const tab of await page.getByRole('tab').all()) {
      await tab.click();
      await expectNoSidewaysScroll(page, `settings tab ${await tab.textContent()}`);
    }
    await close();
  });

  it('on the signed-out pages', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url, PHONE);
    for (const path of ['/login', '/register', '/forgot-password', '/reset-password', '/verify-email', '/nowhere']) {
      await page.goto(path);
      await expectNoSidewaysScroll(page, path);
    }
    await page.goto('/login');
    await page.getByLabel('Username').fill(LONG_WORD);
    await expectNoSidewaysScroll(page, 'login with a long username typed');
    await close();
  });
});

describe('History', () => {
  it('lists conversations across bots, searches with highlights and opens the match', async () => {
    for (const viewport of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
      const session = await signedInPage(suite.browser, suite.t, viewport);
      const { page, token } = session;
      const chef = await createBot(suite.t, token, { name: 'Chef', icon: 'utensils' });
      const scout = await createBot(suite.t, token, { name: 'Scout', icon: 'search' });
      for (const [bot, question] of [
        [chef, 'How long should sourdough bread proof overnight?'],
        [scout, 'Find hiking trails near Lake Como'],
      ] as const) {
        const conversation = await createConversation(suite.t, token, bot.id);
        await suite.t.request('POST', '/api/bot-message', {
          token,
          body: { conversationId: conversation.id, botId: bot.id, userMessageContent: question },
        });
      }
      await page.goto('/history');
      const list = page.getByRole('list', { name: 'Conversations' });
      await visible(list.getByText('Find hiking trails near Lake Como'));
      expect(await list.getByRole('listitem').count()).toBe(2);
      await snap(page, `history-${viewport.width}`);

      await page.getByRole('searchbox', { name: 'Search conversations' }).fill('sourdough');
      const results = page.getByRole('list', { name: 'Search results' });
      await visible(results.locator('mark', { hasText: 'sourdough' }));
      await snap(page, `history-search-${viewport.width}`);
      await results.getByRole('link').first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/chat/${chef.id}`);
      expect(new URL(page.url()).searchParams.get('m')).toMatch(/^\d+$/);
      if (viewport === VIEWPORTS.desktop) {
        // The navigation bar's tooltips load after the page's first paint (decision 0052), and show all the same.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).hover();
        await visible(page.getByRole('tooltip').getByText('Account settings'));
      }
      await session.close();
    }
  });
});
