import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import { createBot } from '../tests/support/factories';
import {
  appInBrowser,
  expectAccessible,
  hidden,
  signedInPage,
  snap,
  toastWith,
  VIEWPORTS,
  visible,
} from './support/browser';
import { startTestAppWithModel } from '../tests/support/test-app';

const suite = appInBrowser(startTestAppWithModel);

const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const me = async (token: string) =>
  (await suite.t.request<{ username: string }>('GET', '/api/auth/user', { token })).body.username;

/** Screenshots at both widths, then back to the desktop. */
async function snapBoth(page: Page, name: string) {
  await snap(page, `${name}-desktop`);
  await page.setViewportSize(VIEWPORTS.phone);
  await snap(page, `${name}-phone`);
  await page.setViewportSize(VIEWPORTS.desktop);
}

describe('bot sharing', () => {
  it('owner shares a bot by link; a second user chats with it and adds a copy; private again ends the link', async () => {
    const owner = await signedInPage(suite.browser, suite.t);
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.t.url });
    await createBot(suite.t, owner.token, {
      name: 'Trip Planner',
      description: 'Plans weekend trips by train',
      config: { greeting: 'Where to?', systemPrompt: 'You plan train trips.' },
      exampleQueries: ['A weekend in Lyon'],
    });

    await owner.page.goto('/dashboard');
    await owner.page.getByRole('button', { name: 'Actions for Trip Planner' }).click();
    await owner.page.getByRole('menuitem', { name: 'Share Botty' }).click();
    const dialog = owner.page.getByRole('dialog', { name: 'Share Trip Planner' });
    await visible(dialog);
    // Choosing (by click or arrow keys) shares nothing until Save.
    await dialog.getByRole('radio', { name: /^Link/ }).click();
    expect(await dialog.getByRole('textbox', { name: 'Link to Trip Planner' }).count()).toBe(0);
    expect((await suite.t.request<Bot[]>('GET', '/api/bots', { token: owner.token })).body[0]!.sharing.visibility).toBe(
      'private',
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText('Trip Planner can now be used by people with its link.'));
    const linkField = dialog.getByRole('textbox', { name: 'Link to Trip Planner' });
    await visible(linkField);
    await visible(dialog.getByText('Copy it now: it is shown only once', { exact: false }));
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    const url = await owner.page.evaluate(() => navigator.clipboard.readText());
    expect(url).toBe(await linkField.inputValue());
    expect(url).toMatch(new RegExp(`^${suite.t.url}/b/[\\w-]{43}$`));
    await expectAccessible(owner.page, 'share dialog');
    await snapBoth(owner.page, 'share-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Focus goes back to the card's menu button the dialog was opened from, not to the top of the page.
    await expect
      .poll(() => owner.page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Actions for Trip Planner');
    await visible(owner.page.getByText('Shared by link'));
    await visible(owner.page.getByText('Nobody else uses it yet'));

    const visitor = await signedInPage(suite.browser, suite.t);
    const path = new URL(url).pathname;
    await visitor.page.goto(path);
    await visible(visitor.page.getByRole('heading', { name: 'Trip Planner', level: 1 }));
    await visible(visitor.page.getByText(`Shared by ${await me(owner.token)}`));
    await visible(visitor.page.getByText('Its owner keeps the prompt private.', { exact: false }));
    expect(await visitor.page.getByText('You plan train trips.').count()).toBe(0);
    await expectAccessible(visitor.page, 'shared bot page');
    await snapBoth(visitor.page, 'shared-bot-page');

    await visitor.page.getByRole('button', { name: 'Start chat' }).click();
    await visible(visitor.page.getByRole('region', { name: 'Chat with Trip Planner' }));
    await visible(visitor.page.getByText(`Shared by ${await me(owner.token)}`));
    expect(await visitor.page.getByRole('link', { name: 'Bot settings' }).count()).toBe(0);
    await visible(visitor.page.getByRole('button', { name: 'Add to my botties' }));
    await input(visitor.page).fill('A weekend in Lyon?');
    await input(visitor.page).press('Enter');
    await visible(visitor.page.getByRole('log', { name: 'Messages' }).getByText('Hello from the fake model.'), 15_000);
    await snapBoth(visitor.page, 'shared-bot-chat');

    await visitor.page.goto(path);
    await visitor.page.getByRole('button', { name: 'Add to my botties' }).click();
    await visible(toastWith(visitor.page, 'Added to your botties'));
    await visible(visitor.page.getByRole('heading', { name: 'Trip Planner' }));
    const [copy] = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: visitor.token })).body;
    expect(copy).toMatchObject({ name: 'Trip Planner', sharing: { visibility: 'private' } });
    expect(copy!.config.systemPrompt).toBeUndefined();

    // The owner's bot counts the visitor's use.
    const [shared] = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: owner.token })).body;
    expect(shared!.usageCount).toBe(1);
    await owner.page.reload();
    await visible(owner.page.getByText('Used by 1 person besides you'));

    await owner.page.getByRole('button', { name: 'Actions for Trip Planner' }).click();
    await owner.page.getByRole('menuitem', { name: 'Share Botty' }).click();
    await visible(dialog.getByText('Used by 1 person besides you.'));
    await dialog.getByRole('radio', { name: /^Private/ }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Said in the dialog, so the first Escape closes the dialog (a toast over it used to take that Escape).
    await visible(dialog.getByRole('status').getByText('Trip Planner is now private.', { exact: true }));
    await owner.page.keyboard.press('Escape');
    await hidden(dialog);

    await visitor.page.goto(path);
    await visible(visitor.page.getByRole('heading', { name: 'Botty Not Found' }));
    await snap(visitor.page, 'shared-bot-not-found-desktop');

    // Their conversation stays in their History, to read but not to continue.
    await visitor.page.goto('/history');
    await visible(visitor.page.getByText('No longer shared with you'));
    await visitor.page.getByRole('link', { name: /Trip Planner/ }).click();
    await visible(visitor.page.getByText('Its botty is no longer shared with you.', { exact: false }));
    // The page says why it is read-only; nothing failed, so no error toast.
    expect(await toastWith(visitor.page, 'Failed to fetch bot').count()).toBe(0);
    await visible(visitor.page.getByText('With Trip Planner', { exact: true }));
    await visible(visitor.page.getByRole('list', { name: 'Messages' }).getByText('Hello from the fake model.'));
    expect(await input(visitor.page).count()).toBe(0);
    expect(new URL(visitor.page.url()).pathname).toMatch(/^\/chat\/\d+$/);
    await expectAccessible(visitor.page, 'conversation with a botty no longer shared');
    await snapBoth(visitor.page, 'unshared-conversation');
    await owner.close();
    await visitor.close();
  });

  it('Explore lists public bots, searched and filtered by purpose', async () => {
    const owner = await signedInPage(suite.browser, suite.t);
    for (const [name, purpose, description] of [
      ['Recipe Finder', 'answering', 'Finds recipes for what is in your fridge'],
      ['Budget Coach', 'planning', 'Plans a monthly budget with you'],
    ] as const) {
      const bot = await createBot(suite.t, owner.token, { name, purpose, description });
      await suite.t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
        token: owner.token,
        body: { visibility: 'public' },
      });
    }
    await createBot(suite.t, owner.token, { name: 'Private Diary' });
    await owner.close();

    const viewer = await signedInPage(suite.browser, suite.t);
    await viewer.page.goto('/dashboard');
    await viewer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Explore' }).click();
    await visible(viewer.page.getByRole('heading', { name: 'Explore', level: 1 }));
    const results = viewer.page.getByRole('region', { name: 'Public botties' });
    await visible(results.getByRole('heading', { name: 'Recipe Finder' }));
    await visible(results.getByRole('heading', { name: 'Budget Coach' }));
    expect(await results.getByRole('heading', { name: 'Private Diary' }).count()).toBe(0);
    await expectAccessible(viewer.page, 'explore page');
    await snapBoth(viewer.page, 'explore');

    await viewer.page.getByRole('searchbox', { name: 'Search public botties' }).fill('fridge');
    await expect.poll(() => results.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['Recipe Finder']);
    await viewer.page.getByRole('searchbox', { name: 'Search public botties' }).fill('');
    await viewer.page.getByRole('button', { name: 'Planning & organization' }).click();
    await expect.poll(() => results.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['Budget Coach']);
    expect(
      await viewer.page.getByRole('button', { name: 'Planning & organization' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await viewer.page.getByRole('button', { name: 'Answering questions' }).click();
    await viewer.page.getByRole('searchbox', { name: 'Search public botties' }).fill('budget');
    await visible(viewer.page.getByRole('heading', { name: 'No public botties match' }));
    await snap(viewer.page, 'explore-empty-desktop');

    await viewer.page.getByRole('button', { name: 'Clear search' }).click();
    await viewer.page.getByRole('button', { name: 'Add Budget Coach to my botties' }).click();
    await visible(toastWith(viewer.page, 'Added to your botties'));
    await visible(viewer.page.getByRole('heading', { name: 'Budget Coach' }));
    await viewer.close();
  });
});
