import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import { createBot } from '../tests/support/factories';
import { messageText, systemPromptOf, type ReceivedRequest } from '../tests/support/fake-llm';
import { startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, signedInPage, snap, VIEWPORTS, visible } from './support/browser';

/** Answers quote the prompt's first sentence; the judge passes answers that mention soup. */
function playBotAndJudge(r: ReceivedRequest) {
  if (!systemPromptOf(r).startsWith('You judge the answers')) return `Answer by: ${systemPromptOf(r).split('.')[0]}`;
  const user = messageText(r.body.messages.find((m) => m.role === 'user'));
  const pass = /soup/i.test(user.split('Answer:')[1] ?? '');
  return JSON.stringify(
    pass ? { verdict: 'pass', score: 4, reason: 'Mentions soup.' } : { verdict: 'fail', score: 1, reason: 'No soup.' },
  );
}

const suite = appInBrowser(() => startTestAppWithModel({ model: { reply: playBotAndJudge } }));

const PHONE = { width: 360, height: 800 };
const REASON = 'Salads are the new menu';

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('releases in the bot hub', () => {
  it('publishes version 1, blocks a worse version 2 with its reasons, and publishes it anyway with a reason', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, {
      name: 'Soup Chef',
      config: { systemPrompt: 'You are the soup chef. Suggest soups.' },
      exampleQueries: ['Dinner tonight?', 'Something warm?'],
    });

    // From the dashboard's card to the hub, then its Tests & releases tab.
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Soup Chef', exact: true }).click();
    const tabs = page.getByRole('navigation', { name: 'Botty hub' });
    await visible(tabs.getByRole('link', { name: 'Chat', exact: true }));
    expect(await tabs.getByRole('link', { name: 'Chat', exact: true }).getAttribute('aria-current')).toBe('page');
    await snap(page, 'hub-desktop-chat');
    await tabs.getByRole('link', { name: 'Tests & releases' }).click();
    await visible(page.getByRole('heading', { name: 'Tests & releases of Soup Chef' }));
    expect(page.url()).toContain(`/bots/${bot.id}/releases`);

    // Version 1: its tests pass, so it is published.
    await button(page, 'Publish version 1').click();
    await visible(page.getByText('Version 1 is published'), 20_000);
    await visible(page.getByText('Published: version 1').first());

    // The prompt changes so the answers fail: version 2 is a draft, and its release is blocked.
    await suite.t.request<Bot>('PATCH', `/api/bots/${bot.id}`, {
      token,
      body: { config: { systemPrompt: 'You are a chef of salads. Suggest salads.' } },
    });
    // The owner's chat says it answers with a draft, without overflowing a phone's header.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`/chat/${bot.id}`);
    await visible(page.getByTitle('People you share this botty with get version 1').getByText('Draft'));
    expect(await fitsWidth(page)).toBe(true);
    await snap(page, 'chat-phone-draft');
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.goto(`/bots/${bot.id}/releases`);
    await visible(page.getByText('Draft: version 2').first());
    await button(page, 'Publish version 2').click();
    await visible(page.getByText('Version 2 was not published'), 20_000);
    const result = page.getByRole('status').filter({ hasText: 'Version 2 was not published' });
    await visible(result.getByText(/^Version 2 vs version 1: .*regression/));
    await visible(result.getByText('Dinner tonight?'));
    await visible(result.getByText('No soup.').first());
    await expectAccessible(page, 'blocked release at 1280 px');
    await snap(page, 'hub-desktop-releases-blocked');

    // Publish anyway: a reason is required, and the history keeps it.
    await button(page, 'Publish anyway').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Publish anyway' }).click();
    await visible(dialog.getByText('Say why you publish anyway'));
    await dialog.getByLabel('Reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Publish anyway' }).click();
    await visible(page.getByText('Version 2 is published'), 20_000);
    const history = page.getByRole('list', { name: 'Release history' });
    await visible(history.getByText(REASON));
    await visible(page.getByText('Published: version 2').first());
    expect((await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.publishedVersion).toBe(2);

    // The other tabs are routes of their own.
    await tabs.getByRole('link', { name: 'Insights' }).click();
    await visible(page.getByRole('heading', { name: 'Insights for Soup Chef' }));
    expect(await tabs.getByRole('link', { name: 'Insights' }).getAttribute('aria-current')).toBe('page');
    await tabs.getByRole('link', { name: 'Share & embed' }).click();
    await expect.poll(() => page.url()).toContain(`/bots/${bot.id}/widget`);
    for (const [tab, title] of [
      ['Configure', 'Edit Soup Chef'],
      ['Knowledge', 'Knowledge of Soup Chef'],
      ['API', 'API'],
    ] as const) {
      await tabs.getByRole('link', { name: tab, exact: true }).click();
      await visible(page.getByRole('heading', { name: title, exact: true }));
    }
    await snap(page, 'hub-desktop-api');

    // Phones: the tabs scroll inside their strip, the page never sideways.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`/bots/${bot.id}/releases`);
    await visible(history.getByText(REASON));
    await snap(page, 'hub-phone-releases');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page, 'releases tab at 360 px');
    await page.goto(`/bots/${bot.id}/chat`);
    await visible(page.getByRole('textbox', { name: 'Message' }));
    expect(await fitsWidth(page)).toBe(true);
    await page.setViewportSize(VIEWPORTS.phone);
    await snap(page, 'hub-phone-chat');
    await close();
  });
});
