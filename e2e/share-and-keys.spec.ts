import { describe, expect, it } from 'vitest';
import { createConversation, streamChat } from '../tests/support/chat-api';
import { createBot } from '../tests/support/factories';
import { signUp, startTestApp } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap, VIEWPORTS } from './support/browser';

const suite = appInBrowser(startTestApp, { owner: false });

const modelsWith = async (key: string) =>
  (await fetch(`${suite.t.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('API keys in Settings', () => {
  it('creates a key shown once, which works at once, and revokes it after a confirmation', async () => {
    const account = await signUp(suite.t);
    await createBot(suite.t, account.token, { name: 'Meal Planner' });
    const { page, context, close } = await newPage(suite.browser, suite.t.url);
    await context.addInitScript((token) => localStorage.setItem('authToken', token), account.token);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'API keys' }).click();
    await expect.poll(() => page.getByText(`${suite.t.url}/v1`).first().isVisible()).toBe(true);
    await page.getByLabel('Name').fill('My script');
    await page.getByLabel('Botty').selectOption({ label: 'Meal Planner' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New API key');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const key = await shown.inputValue();
    expect(key).toMatch(/^botty_[0-9A-Za-z]{43}$/);
    // Focus follows the key, then comes back to the form: never left on the page's <body>.
    const focusedLabel = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
    await expect.poll(focusedLabel).toBe('New API key');
    await expect.poll(() => page.getByText('It will not be shown again').isVisible()).toBe(true);
    expect(await modelsWith(key)).toBe(200);
    await expectAccessible(page, 'API keys tab with a new key');
    await snap(page, 'settings-api-keys-desktop');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await shown.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement === document.querySelector('form input')))
      .toBe(true);
    const list = page.getByRole('list', { name: 'Your API keys' });
    await expect.poll(() => list.getByText('My script').isVisible()).toBe(true);
    expect(await list.getByText(key.slice(0, 10)).isVisible()).toBe(true);

    await list.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByText('No API keys yet.').isVisible()).toBe(true);
    expect(await modelsWith(key)).toBe(401);

    // On a phone the base URL keeps to one line, and it and its copy button stay inside the page.
    await page.setViewportSize(VIEWPORTS.phone);
    const baseUrl = await page.getByText(`${suite.t.url}/v1`, { exact: true }).boundingBox();
    const copy = await page.getByRole('button', { name: 'Copy base URL' }).boundingBox();
    expect(baseUrl && copy).toBeTruthy();
    expect(baseUrl!.height).toBeLessThan(copy!.height);
    expect(copy!.x + copy!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width - 16);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(VIEWPORTS.phone.width);
    await snap(page, 'settings-api-keys-phone');
    await close();
  });
});

describe('a shared conversation', () => {
  it('opens read-only for a visitor who is signed out, not for search engines, and stops when revoked', async () => {
    const owner = await signUp(suite.t);
    const bot = await createBot(suite.t, owner.token, { name: 'Trip Scout', icon: 'book' });
    const conversation = await createConversation(suite.t, owner.token, bot.id);
    await streamChat(suite.t, `/api/conversations/${conversation.id}/stream`, {
      token: owner.token,
      body: { content: 'Which **museums** open on Mondays?' },
    });
    const link = await suite.t.request('POST', `/api/conversations/${conversation.id}/share`, {
      token: owner.token,
      body: {},
    });
    expect(link.status).toBe(201);

    const { page, close } = await newPage(suite.browser, suite.t.url);
    const response = await page.goto(link.body.url);
    expect(response!.headers()['x-robots-tag']).toBe('noindex');
    await expect.poll(() => page.getByText('A conversation with Trip Scout').isVisible()).toBe(true);
    const messages = page.getByRole('list', { name: 'Messages' });
    expect(await messages.getByText('Which **museums** open on Mondays?').isVisible()).toBe(true);
    expect(await messages.getByText('no language model is connected', { exact: false }).isVisible()).toBe(true);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    // A guest sees no account navigation, and an invitation to make a botty of their own.
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create your botty' }).getAttribute('href')).toBe('/register');
    await expectAccessible(page, 'shared conversation');
    await snap(page, 'shared-conversation-desktop');

    await suite.t.request('DELETE', `/api/conversations/${conversation.id}/share`, { token: owner.token });
    await page.reload();
    await expect.poll(() => page.getByText('This shared conversation is not available').isVisible()).toBe(true);
    await close();
  });
});
