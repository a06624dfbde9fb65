import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import { createBot } from '../tests/support/factories';
import { startTestApp } from '../tests/support/test-app';
import {
  appInBrowser,
  emulateColorScheme,
  expectAccessible,
  hidden,
  holdRequests,
  routeRequests,
  newPage,
  signedInPage,
  snap,
  VIEWPORTS,
  visible,
} from './support/browser';

const suite = appInBrowser(startTestApp);

type Viewport = (typeof VIEWPORTS)[keyof typeof VIEWPORTS];

const signedIn = (viewport: Viewport = VIEWPORTS.desktop) => signedInPage(suite.browser, suite.t, viewport);

/** Usage is counted by chatting; tests set it directly. */
async function setUsage(bot: Bot, usageCount: number, lastUsed: string | null) {
  await suite.t.db.kysely
    .updateTable('bots')
    .set({ usage_count: usageCount, last_used: lastUsed })
    .where('id', '=', bot.id)
    .execute();
}

const toast = (page: Page, title: string) =>
  visible(page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true }));

const card = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
const stat = (page: Page, label: string) => page.locator('dl > div').filter({ hasText: label }).locator('dd');

async function openMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await visible(page.getByRole('menu'));
}

async function menuAction(page: Page, name: string, item: string) {
  await openMenu(page, name);
  await page.getByRole('menuitem', { name: item }).click();
}

const pinnedNames = (page: Page) =>
  page
    .getByRole('complementary', { name: 'Your Top Botties' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('.truncate')?.textContent ?? ''));

const storedPins = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('pinnedBots') ?? 'null') as number[] | null);

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('landing page', () => {
  it('asks a guest to sign in before creating a bot, and remembers where they were going', async () => {
    const { page, close } = await newPage(suite.browser, suite.t.url);
    await page.goto('/');
    await visible(page.getByRole('heading', { level: 1, name: 'Your own AI research botties' }));
    await expectAccessible(page, 'landing');
    await visible(page.getByRole('link', { name: 'Sign in' }));

    await page.getByRole('button', { name: 'New Botty' }).click();
    await page.waitForURL('**/login');
    await toast(page, 'Authentication required');
    await visible(page.getByText('Please log in to create a new bot'));
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/create-bot');

    // /home stays protected.
    await page.goto('/home');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => sessionStorage.getItem('redirectAfterLogin'))).toBe('/home');
    await close();
  });
});

describe('dashboard', () => {
  it('teaches when empty, then shows the stats and cards of the bots', async () => {
    const { page, token, close } = await signedIn();
    await page.goto('/dashboard');
    await visible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
    await visible(page.getByText('Create and manage your AI research botties'));
    await visible(page.getByRole('heading', { name: 'No botties yet' }));
    await expect.poll(() => stat(page, 'Total Botties').textContent()).toBe('0');
    await expect.poll(() => stat(page, 'Usage Credits').textContent()).toBe('750');
    await expectAccessible(page, 'empty dashboard');

    const planner = await createBot(suite.t, token, {
      name: 'Meal Planner',
      description: 'You are a bot that plans weekly meals',
    });
    const scholar = await createBot(suite.t, token, { name: 'Scholar', icon: 'book', purpose: 'answering' });
    const resting = await createBot(suite.t, token, { name: 'Resting Bot', active: false });
    await setUsage(planner, 4, new Date(Date.now() - 3 * 60_000).toISOString());
    await setUsage(scholar, 7, null);
    await setUsage(resting, 2, null);

    await page.reload();
    await expect.poll(() => stat(page, 'Total Botties').textContent()).toBe('3');
    expect(await stat(page, 'Botty Interactions').textContent()).toBe('13');
    expect(await stat(page, 'Active Botties').textContent()).toBe('2');
    expect(await stat(page, 'Usage Credits').textContent()).toBe('750');

    const plannerCard = card(page, 'Meal Planner');
    await visible(plannerCard.getByText('Plans weekly meals'));
    await visible(plannerCard.getByText('Used: 4 times'));
    await visible(plannerCard.getByText('Last used: 3 minutes ago'));
    await visible(plannerCard.getByText('Active', { exact: true }));
    await visible(plannerCard.getByRole('button', { name: 'Chat' }));
    await visible(card(page, 'Scholar').getByText('Last used: Never'));
    await visible(card(page, 'Resting Bot').getByText('Inactive', { exact: true }));
    await visible(card(page, 'Resting Bot').getByRole('button', { name: 'Activate' }));
    await expectAccessible(page, 'dashboard with bots');

    // The chat opens in place of the grid; closing it returns to / (spec §2), and the grid is there again after.
    await plannerCard.getByRole('button', { name: 'Chat' }).click();
    await visible(page.getByRole('region', { name: 'Chat with Meal Planner' }));
    await hidden(card(page, 'Scholar'));
    await page.getByRole('button', { name: 'Close chat' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/dashboard');
    await visible(card(page, 'Scholar'));

    await openMenu(page, 'Scholar');
    for (const item of ['Edit Botty', 'Edit Custom Prompt', 'Pin to Top Botties', 'Deactivate', 'Delete Botty']) {
      await visible(page.getByRole('menuitem', { name: item }));
    }
    await expectAccessible(page, 'bot card menu');
    await page.getByRole('menuitem', { name: 'Edit Botty' }).click();
    await page.waitForURL(`**/create-bot?edit=${scholar.id}`);
    await close();
  });

  it('leads where the spec says from the bar, the dashboard and home, and lists the three latest activities', async () => {
    const { page, token, close } = await signedIn();
    for (const name of ['First', 'Second', 'Third', 'Fourth']) await createBot(suite.t, token, { name });
    await page.goto('/dashboard');
    const activity = page.getByRole('region', { name: 'Recent Activity' }).getByRole('listitem');
    await expect.poll(() => activity.allTextContents()).toHaveLength(3);
    const entries = await activity.allTextContents();
    for (const [i, name] of ['Fourth', 'Third', 'Second'].entries()) expect(entries[i]).toContain(`Created ${name}`);

    // F8 takes the keyboard to the notifications (spec §9), which load with the first toast (decision 0016).
    await menuAction(page, 'First', 'Pin to Top Botties');
    await toast(page, 'Bot pinned');
    await page.keyboard.press('F8');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[aria-label^="Notifications"]') !== null))
      .toBe(true);

    await page.getByRole('link', { name: 'New Botty' }).first().click();
    await page.waitForURL('**/create-bot');
    const bar = page.getByRole('navigation', { name: 'Main' });
    await bar.getByRole('link', { name: 'My Botties' }).click();
    await page.waitForURL('**/dashboard');
    await bar.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await bar.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'View all your botties' }).click();
    await page.waitForURL('**/dashboard');
    await bar.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await close();
  });

  it('says when a custom prompt could not be saved and keeps it, and when the bots or activities could not load', async () => {
    const { page, token, problems, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Vanishing' });
    await page.goto('/dashboard');
    await menuAction(page, 'Vanishing', 'Edit Custom Prompt');
    const dialog = page.getByRole('dialog', { name: 'Edit Custom Prompt for Vanishing' });
    await dialog.getByRole('textbox', { name: 'Custom prompt' }).fill('Be kind.');
    // Deleted in another tab while the dialog was open: the save is refused, the text stays to copy.
    await suite.t.request('DELETE', `/api/bots/${bot.id}`, { token });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // The page under the open dialog is hidden from assistive technology (Radix reads the toast out through a live
    // region of its own), so the toast is found by its region's label rather than by its role.
    const shown = page.locator('[aria-label="Notifications (F8)"]');
    await visible(shown.getByText('Failed to save prompt', { exact: true }));
    await visible(shown.getByText('There was an error saving your custom prompt. Please try again.'));
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: 'Custom prompt' }).inputValue()).toBe('Be kind.');
    // Spec §8: the failure is logged too.
    const logged = problems.findIndex((line) => line.includes('Failed to save custom prompt'));
    expect(logged).toBeGreaterThanOrEqual(0);
    problems.splice(logged, 1);

    // A server that answers 500 (through the browser's own routing; the real one has no such failure to give).
    const failing = (route: Route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Down' });
    await page.route('**/api/bots', failing);
    await page.reload();
    await toast(page, 'Failed to fetch bots');
    // Not an empty list, which would tell the person they have none: the failure stays on screen with a Retry.
    await visible(page.getByText('Your botties could not be loaded.'));
    await page.unroute('**/api/bots', failing);
    await page.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByRole('heading', { name: 'No botties yet' }));
    await page.route('**/api/users/*/activities*', failing);
    await page.reload();
    await toast(page, 'Failed to fetch activities');
    await visible(page.getByText('Recent activity could not be loaded. Reload the page to try again.'));
    await close();
  });

  it('says what it is doing while the server saves a prompt or deletes a bot', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Patient' });
    await page.goto('/dashboard');

    let release = await holdRequests(page, `**/api/bots/${bot.id}`, 'PATCH');
    await menuAction(page, 'Patient', 'Edit Custom Prompt');
    const dialog = page.getByRole('dialog', { name: 'Edit Custom Prompt for Patient' });
    await dialog.getByRole('textbox', { name: 'Custom prompt' }).fill('Take your time.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByRole('button', { name: 'Saving...' }));
    release();
    await toast(page, 'Custom prompt saved');
    await hidden(page.getByRole('dialog'));

    release = await holdRequests(page, `**/api/bots/${bot.id}`, 'DELETE');
    await menuAction(page, 'Patient', 'Delete Botty');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Bot' }).click();
    await visible(page.getByRole('alertdialog').getByRole('button', { name: 'Deleting...' }));
    release();
    await toast(page, 'Bot deleted');
    await close();
  });

  it('edits the custom prompt with guidance, and shows the marker once saved', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Prompted' });
    await page.goto('/dashboard');

    await menuAction(page, 'Prompted', 'Edit Custom Prompt');
    const dialog = page.getByRole('dialog', { name: 'Edit Custom Prompt for Prompted' });
    await visible(dialog);
    await visible(dialog.getByRole('tab', { name: 'Custom Prompt' }));
    const field = dialog.getByRole('textbox', { name: 'Custom prompt' });
    expect(await field.inputValue()).toBe('');

    await field.fill('Be brief.');
    await visible(
      dialog.getByText(
        'Your prompt is quite short. For best results, consider adding more details about how the bot should respond.',
      ),
    );
    await visible(dialog.getByText('9 characters'));
    await field.fill('x'.repeat(801));
    await visible(
      dialog.getByText('Excellent! Your detailed prompt will help the AI provide high-quality, specific responses.'),
    );
    await hidden(dialog.getByText('Your prompt is quite short.', { exact: false }));
    await expectAccessible(page, 'custom prompt dialog');

    await dialog.getByRole('tab', { name: 'Prompt Guide' }).click();
    await visible(dialog.getByRole('heading', { name: 'Give it a role' }));
    await expectAccessible(page, 'prompt guide');
    await dialog.getByRole('tab', { name: 'Custom Prompt' }).click();

    const prompt = 'You are a careful meal planner. Answer with a short summary, then a bulleted plan with quantities.';
    await field.fill(`  ${prompt}  `);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Custom prompt saved');
    await hidden(page.getByRole('dialog'));
    await visible(card(page, 'Prompted').getByText('Custom prompt configured'));
    const saved = await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token });
    expect(saved.body.config.customPrompt).toBe(prompt);

    // Reopening starts from the saved prompt, not from what was typed last time.
    await menuAction(page, 'Prompted', 'Edit Custom Prompt');
    await expect
      .poll(() => page.getByRole('dialog').getByRole('textbox', { name: 'Custom prompt' }).inputValue())
      .toBe(prompt);
    await page.getByRole('dialog').getByRole('textbox', { name: 'Custom prompt' }).fill('discarded');
    await page.keyboard.press('Escape');
    await hidden(page.getByRole('dialog'));
    await menuAction(page, 'Prompted', 'Edit Custom Prompt');
    await expect
      .poll(() => page.getByRole('dialog').getByRole('textbox', { name: 'Custom prompt' }).inputValue())
      .toBe(prompt);
    await close();
  });

  it('deactivates and activates a bot', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Switchable' });
    await page.goto('/dashboard');

    await menuAction(page, 'Switchable', 'Deactivate');
    await toast(page, 'Botty deactivated');
    await visible(card(page, 'Switchable').getByText('Inactive', { exact: true }));
    await expect.poll(() => stat(page, 'Active Botties').textContent()).toBe('0');
    expect((await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.active).toBe(false);

    await openMenu(page, 'Switchable');
    await hidden(page.getByRole('menuitem', { name: 'Deactivate' }));
    await page.keyboard.press('Escape');

    await card(page, 'Switchable').getByRole('button', { name: 'Activate' }).click();
    await toast(page, 'Botty activated');
    await visible(card(page, 'Switchable').getByText('Active', { exact: true }));
    await visible(card(page, 'Switchable').getByRole('button', { name: 'Chat' }));
    expect((await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.active).toBe(true);
    await visible(page.getByRole('region', { name: 'Recent Activity' }).getByText('Activated Switchable'));
    await close();
  });

  it('deletes a bot after confirmation, and unpins it', async () => {
    const { page, token, close } = await signedIn();
    const keep = await createBot(suite.t, token, { name: 'Keeper' });
    const doomed = await createBot(suite.t, token, { name: 'Doomed' });
    await page.goto('/dashboard');
    await menuAction(page, 'Doomed', 'Pin to Top Botties');
    await menuAction(page, 'Keeper', 'Pin to Top Botties');
    await expect.poll(() => storedPins(page)).toEqual([doomed.id, keep.id]);

    await menuAction(page, 'Doomed', 'Delete Botty');
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure?' });
    await visible(dialog);
    await visible(
      dialog.getByText(
        'This will permanently delete the botty "Doomed". This action cannot be undone and all its conversations will be lost.',
      ),
    );
    await expectAccessible(page, 'delete dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hidden(page.getByRole('alertdialog'));
    await visible(card(page, 'Doomed'));

    await menuAction(page, 'Doomed', 'Delete Botty');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Bot' }).click();
    await toast(page, 'Bot deleted');
    await hidden(card(page, 'Doomed'));
    await hidden(page.getByRole('alertdialog'));
    expect((await suite.t.request('GET', `/api/bots/${doomed.id}`, { token })).status).toBe(404);
    await expect.poll(() => storedPins(page)).toEqual([keep.id]);
    await visible(page.getByRole('region', { name: 'Recent Activity' }).getByText('Deleted Doomed'));
    await close();
  });

  it('says why a deletion failed: the server’s reason, no answer at all, an answer without a reason', async () => {
    const { page, token, close } = await signedIn();
    const gone = await createBot(suite.t, token, { name: 'Gone' });
    const kept = await createBot(suite.t, token, { name: 'Kept' });
    await page.goto('/dashboard');
    await visible(card(page, 'Gone'));
    const notifications = page.getByRole('region', { name: /Notifications/ });
    const confirmDelete = async (name: string) => {
      await menuAction(page, name, 'Delete Botty');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Bot' }).click();
    };

    // Deleted meanwhile in another tab: the server says so, and the list comes back without it.
    expect((await suite.t.request('DELETE', `/api/bots/${gone.id}`, { token })).status).toBe(200);
    const refused = await suite.t.request('DELETE', `/api/bots/${gone.id}`, { token });
    expect(refused.status).toBe(404);
    const reason = refused.body as { message: string };
    await confirmDelete('Gone');
    await toast(page, 'Error deleting bot');
    await visible(notifications.getByText(reason.message, { exact: true }));
    await hidden(card(page, 'Gone'));

    const deleteOf = `**/api/bots/${kept.id}`;
    await routeRequests(page, deleteOf, 'DELETE', (route) => route.abort('internetdisconnected'));
    await confirmDelete('Kept');
    await toast(page, 'Error');
    await visible(notifications.getByText('Network error while deleting the bot. Please try again.'));
    await visible(card(page, 'Kept'));

    // A proxy's error page in front of the server: no reason to show.
    await page.unroute(deleteOf);
    await routeRequests(page, deleteOf, 'DELETE', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' }),
    );
    await confirmDelete('Kept');
    await visible(notifications.getByText('Failed to delete the bot. Please try again.'));
    await visible(card(page, 'Kept'));
    expect((await suite.t.request('GET', `/api/bots/${kept.id}`, { token })).status).toBe(200);
    await close();
  });
});

describe('pinned bots on the home screen', () => {
  it('pins five, refuses a sixth, shows them in order, reorders by keyboard and unpins in edit mode', async () => {
    const { page, token, close } = await signedIn();
    const bots: Bot[] = [];
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot']) {
      bots.push(await createBot(suite.t, token, { name, active: name !== 'Echo' }));
    }
    await setUsage(bots[0]!, 12, null);
    const ids = Object.fromEntries(bots.map((bot) => [bot.name, bot.id]));

    await page.goto('/');
    await visible(page.getByText('No pinned bots yet'));
    await page.getByRole('link', { name: 'Pin your favorite bots' }).click();
    await page.waitForURL('**/dashboard');

    const order = ['Charlie', 'Alpha', 'Echo', 'Bravo', 'Delta'];
    for (const name of order) {
      await menuAction(page, name, 'Pin to Top Botties');
      await toast(page, 'Bot pinned');
      await visible(card(page, name).getByText('Pinned', { exact: true }));
    }
    await menuAction(page, 'Foxtrot', 'Pin to Top Botties');
    await toast(page, 'Maximum pins reached');
    await visible(page.getByText('You can only pin up to 5 bots. Remove one first.'));
    expect(await storedPins(page)).toEqual(order.map((name) => ids[name]));

    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => pinnedNames(page)).toEqual(order);
    await visible(page.getByText('12 interactions'));
    // The chat entry offers active bots only, pinned first in pinned order.
    const options = await page.getByLabel('Botty').locator('option').allTextContents();
    expect(options).toEqual(['Charlie', 'Alpha', 'Bravo', 'Delta', 'Foxtrot']);

    await page.getByRole('button', { name: 'Edit' }).click();
    await visible(page.getByRole('button', { name: 'Done' }));
    await expectAccessible(page, 'home in edit mode');

    // Keyboard reordering: pick up Charlie, move it down one, drop it.
    await page.getByRole('button', { name: 'Reorder Charlie' }).focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(200);
    await page.keyboard.press('Space');
    const reordered = ['Alpha', 'Charlie', 'Echo', 'Bravo', 'Delta'];
    await expect.poll(() => pinnedNames(page)).toEqual(reordered);
    await expect.poll(() => storedPins(page)).toEqual(reordered.map((name) => ids[name]));

    // A drag with the mouse: Delta to the top.
    const handle = page.getByRole('button', { name: 'Reorder Delta' });
    const target = page.getByRole('button', { name: 'Reorder Alpha' });
    const from = (await handle.boundingBox())!;
    const to = (await target.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 - 6, { steps: 12 });
    await page.mouse.up();
    const dragged = ['Delta', 'Alpha', 'Charlie', 'Echo', 'Bravo'];
    await expect.poll(() => pinnedNames(page)).toEqual(dragged);

    await page.reload();
    await expect.poll(() => pinnedNames(page)).toEqual(dragged);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Remove Echo' }).click();
    await toast(page, 'Bot unpinned');
    await expect.poll(() => pinnedNames(page)).toEqual(['Delta', 'Alpha', 'Charlie', 'Bravo']);
    // A click on the card itself unpins too.
    await page.getByRole('complementary').getByText('Bravo', { exact: true }).click();
    await expect.poll(() => pinnedNames(page)).toEqual(['Delta', 'Alpha', 'Charlie']);
    expect(await storedPins(page)).toEqual([ids.Delta, ids.Alpha, ids.Charlie]);

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('complementary').getByRole('button', { name: /Alpha/ }).click();
    await visible(page.getByRole('region', { name: 'Chat with Alpha' }));

    await page.goto('/dashboard');
    await visible(card(page, 'Alpha').getByText('Pinned', { exact: true }));
    await menuAction(page, 'Alpha', 'Unpin from Top Botties');
    await toast(page, 'Bot unpinned');
    expect(await storedPins(page)).toEqual([ids.Delta, ids.Charlie]);
    await close();
  });
});

describe('looks', () => {
  it('every screen is accessible and fits phone and desktop widths', async () => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const guest = await newPage(suite.browser, suite.t.url, viewport);
      await guest.page.goto('/');
      await visible(guest.page.getByRole('button', { name: 'New Botty' }));
      expect(await noSidewaysScroll(guest.page), 'landing scrolls sideways').toBe(true);
      await snap(guest.page, `landing-${size}`);
      await guest.close();

      const { page, token, close } = await signedIn(viewport);
      const shots = async (name: string) => {
        await expectAccessible(page, `${name} at ${size}`);
        expect(await noSidewaysScroll(page), `${name} scrolls sideways`).toBe(true);
        await snap(page, `${name}-${size}`);
      };

      await page.goto('/dashboard');
      await visible(page.getByRole('heading', { name: 'No botties yet' }));
      await shots('dashboard-empty');
      await page.goto('/');
      await visible(page.getByText('No pinned bots yet'));
      await shots('home-empty');

      const made: Bot[] = [];
      const samples = [
        {
          name: 'Meal Planner',
          icon: 'utensils',
          description: 'You are a bot that plans healthy weekly meals for a family of four.',
        },
        {
          name: 'Paper Scout',
          icon: 'book',
          purpose: 'answering',
          description: 'Finds and summarises recent academic papers on any topic.',
        },
        {
          name: 'Trip Wizard',
          icon: 'plane-departure',
          description: 'Plans trips with budgets, routes and packing lists.',
        },
        {
          name: 'Chart Whisperer',
          icon: 'chart-line',
          purpose: 'analyzing',
          description: 'Explains data and suggests the right chart.',
          active: false,
        },
      ] as const;
      for (const sample of samples) made.push(await createBot(suite.t, token, sample));
      await setUsage(made[0]!, 23, new Date(Date.now() - 2 * 3600_000).toISOString());
      await suite.t.request('PATCH', `/api/bots/${made[1]!.id}`, {
        token,
        body: { config: { customPrompt: 'Cite every source.' } },
      });
      await page.evaluate(
        (pins) => localStorage.setItem('pinnedBots', JSON.stringify(pins)),
        [made[1]!.id, made[0]!.id, made[2]!.id],
      );

      await page.goto('/dashboard');
      await visible(card(page, 'Meal Planner'));
      await shots('dashboard-bots');
      await openMenu(page, 'Meal Planner');
      await snap(page, `dashboard-menu-${size}`);
      await page.getByRole('menuitem', { name: 'Edit Custom Prompt' }).click();
      await visible(page.getByRole('dialog'));
      await page.getByRole('dialog').getByRole('textbox', { name: 'Custom prompt' }).fill('Be brief.');
      await shots('dashboard-prompt-dialog');
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('dialog'));
      await menuAction(page, 'Trip Wizard', 'Delete Botty');
      await visible(page.getByRole('alertdialog'));
      await shots('dashboard-delete-dialog');
      await page.keyboard.press('Escape');
      await hidden(page.getByRole('alertdialog'));

      await page.goto('/');
      await expect.poll(() => pinnedNames(page)).toEqual(['Paper Scout', 'Meal Planner', 'Trip Wizard']);
      await shots('home-pins');
      await page.getByRole('button', { name: 'Edit' }).click();
      await shots('home-edit');

      // Dark mode follows the system until Settings says otherwise.
      await emulateColorScheme(page, 'dark');
      await shots('home-edit-dark');
      await page.goto('/dashboard');
      await visible(card(page, 'Meal Planner'));
      await shots('dashboard-bots-dark');
      await close();
    }
  });
});
