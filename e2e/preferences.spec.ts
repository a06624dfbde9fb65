import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBot } from '../tests/support/factories';
import { signUp, startTestApp } from '../tests/support/test-app';
import { appInBrowser, newPage, routeRequests, visible } from './support/browser';

const suite = appInBrowser(() => startTestApp());

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

const storedTokens = (page: Page) =>
  page.evaluate(() => [localStorage.getItem('authToken'), sessionStorage.getItem('authToken')]);

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

describe('preferences that follow the account (decisions §1)', () => {
  it('switches dark mode at once, and another device signing in gets it with the pinned botties', async () => {
    const account = await signUp(suite.t);
    const bot = await createBot(suite.t, account.token, { name: 'Travel Scout' });

    const laptop = await newPage(suite.browser, suite.t.url);
    await laptop.page.emulateMedia({ colorScheme: 'light' });
    await signIn(laptop.page, account.username, account.password);
    // Straight on, while the home page may still be checking the session it was handed.
    await laptop.page.goto('/settings');
    const toggle = laptop.page.getByRole('switch', { name: 'Dark mode' });
    await visible(toggle);
    expect(await isDark(laptop.page)).toBe(false);
    await toggle.click();
    await expect.poll(() => isDark(laptop.page)).toBe(true);
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    // Saved with the account without pressing Save Changes: the switch applies at once.
    const saved = () => suite.t.request('GET', '/api/auth/preferences', { token: account.token });
    await expect.poll(async () => (await saved()).body.darkMode).toBe(true);

    // Pinned on the laptop (through the API, as the dashboard's pin does), then read on a phone.
    await suite.t.request('PUT', '/api/auth/preferences', {
      token: account.token,
      body: { pinnedBots: [bot.id], darkMode: true },
    });
    await laptop.close();

    const phone = await newPage(suite.browser, suite.t.url, { width: 390, height: 844 });
    await phone.page.emulateMedia({ colorScheme: 'light' });
    await signIn(phone.page, account.username, account.password);
    await expect.poll(() => isDark(phone.page)).toBe(true);
    await phone.page.goto('/');
    const top = phone.page.getByRole('complementary', { name: 'Your Top Botties' });
    await visible(top.getByText('Travel Scout'));
    await phone.close();
  });
});

describe('a choice the account has not saved yet', () => {
  it('is kept by a reload and saved then, not replaced by the account’s older copy', async () => {
    const account = await signUp(suite.t);
    const bot = await createBot(suite.t, account.token, { name: 'Travel Scout' });
    await suite.t.request('PUT', '/api/auth/preferences', {
      token: account.token,
      body: { pinnedBots: [bot.id], darkMode: false },
    });
    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.emulateMedia({ colorScheme: 'light' });
    await signIn(page, account.username, account.password);
    await page.goto('/settings');
    const toggle = page.getByRole('switch', { name: 'Dark mode' });
    await visible(toggle);

    // The save does not reach the server before the page is reloaded (here it fails; a reload can also cut it off).
    let refused = 0;
    await routeRequests(page, '**/api/auth/preferences', 'PUT', (route) => {
      refused += 1;
      return route.abort();
    });
    await toggle.click();
    await expect.poll(() => refused).toBe(1);
    await page.unroute('**/api/auth/preferences');

    await page.reload();
    await visible(page.getByRole('switch', { name: 'Dark mode' }));
    expect(await isDark(page)).toBe(true);
    const saved = () => suite.t.request('GET', '/api/auth/preferences', { token: account.token });
    await expect.poll(async () => (await saved()).body).toEqual({ pinnedBots: [bot.id], darkMode: true });
    await close();
  });
});

describe('the session check on load (spec §4)', () => {
  it('keeps the session when the page is left while its check is under way', async () => {
    const account = await signUp(suite.t);
    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.goto('/login');
    await visible(page.getByRole('button', { name: 'Sign in' }));
    // Not remembered: the token is in session storage, which the next page of this tab shares.
    await page.evaluate((token) => sessionStorage.setItem('authToken', token), account.token);

    // The first check gets no answer; the page is left while it waits, which fails the request.
    let held = false;
    await page.route('**/api/auth/user', async (route) => {
      if (held) return route.continue();
      held = true;
    });
    await page.goto('/');
    await expect.poll(() => held).toBe(true);
    await page.goto('/settings');

    await visible(page.getByRole('switch', { name: 'Dark mode' }));
    expect(await storedTokens(page)).toEqual([null, account.token]);
    await close();
  });

  it('clears both tokens when the server does not know the token', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.goto('/login');
    await visible(page.getByRole('button', { name: 'Sign in' }));
    await page.evaluate(() => {
      localStorage.setItem('authToken', 'revoked-token');
      sessionStorage.setItem('authToken', 'revoked-token');
    });
    await page.goto('/settings');
    await page.waitForURL('**/login');
    await visible(page.getByRole('button', { name: 'Sign in' }));
    expect(await storedTokens(page)).toEqual([null, null]);
    await close();
  });
});
