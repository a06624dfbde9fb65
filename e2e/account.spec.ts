import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBot } from '../tests/support/factories';
import { signUp, startTestApp } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap } from './support/browser';

const suite = appInBrowser(startTestApp, { owner: false });

describe('the Account tab', () => {
  it('shows the plan, exports the data as a file and deletes the account after the password', async () => {
    const account = await signUp(suite.t);
    await createBot(suite.t, account.token, { name: 'Export Me' });
    const { page, context, close } = await newPage(suite.browser, suite.t.url);
    await context.addInitScript((token) => localStorage.setItem('authToken', token), account.token);

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'View Details' }).click();
    await expect
      .poll(() => page.getByRole('dialog').getByText('All features included during beta').isVisible())
      .toBe(true);
    await expectAccessible(page, 'plan details dialog');
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Request Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^botty-export-${account.username}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
    );
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(exported.user.username).toBe(account.username);
    expect(exported.bots.map((b: { name: string }) => b.name)).toEqual(['Export Me']);

    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Confirm with your password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect.poll(() => dialog.getByText('Password is incorrect').isVisible()).toBe(true);
    await expectAccessible(page, 'delete account dialog');
    await snap(page, 'settings-delete-account-desktop');

    await dialog.getByLabel('Confirm with your password').fill(account.password);
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByText('Account deleted').first().isVisible()).toBe(true);
    const login = await suite.t.request('POST', '/api/auth/login', {
      body: { username: account.username, password: account.password },
    });
    expect(login.status).toBe(401);
    await close();
  });
});
