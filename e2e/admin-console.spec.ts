import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../src/shared/contracts/admin';
import type { Bot } from '../src/shared/contracts/bots';
import { startFakeLlm, type FakeLlm } from '../tests/support/fake-llm';
import { signUp, startTestApp, type SignedUp } from '../tests/support/test-app';
import {
  appInBrowser,
  emulateColorScheme,
  expectAccessible,
  newPage,
  signedInPage,
  snap,
  toastWith,
  VIEWPORTS,
  visible,
} from './support/browser';

// No LLM_* connection: every model this instance uses is one the admin connects in the console.
const suite = appInBrowser(() => startTestApp(), { owner: false });

const CHOSEN = 'llama3-e2e';
const DEFAULT = 'qwen3-e2e';
const CONNECTION = 'Lab server';
const REPLY = 'Tomatoes love warm soil and six hours of sun.';
const labelOf = (model: string) => `${model} · ${CONNECTION}`;

let fake: FakeLlm;
let admin: SignedUp;
beforeAll(async () => {
  fake = await startFakeLlm({ model: CHOSEN, models: [CHOSEN, DEFAULT, 'unused-e2e'] });
  // The first account of an empty instance is its superadmin (decisions §1).
  admin = await signUp(suite.t, { username: 'site_admin' });
});
afterAll(() => fake?.close());

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

/**
 * The page as it stands at 360 px (no sideways scroll, axe), 390 and 1280 px (screenshots, axe at 1280), back to
 * the desktop size afterwards.
 */
async function lookAt(page: Page, name: string) {
  await page.setViewportSize({ width: 360, height: 800 });
  // Charts follow the new width on their next resize observation.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: `${name} scrolls sideways at 360 px`,
    })
    .toBeLessThanOrEqual(360);
  await expectAccessible(page, `${name} at 360 px`);
  await page.setViewportSize(VIEWPORTS.phone);
  await snap(page, `admin-console-${name}-390`);
  await page.setViewportSize(VIEWPORTS.desktop);
  await expectAccessible(page, `${name} at 1280 px`);
  await snap(page, `admin-console-${name}-1280`);
}

async function openSection(page: Page, name: string, path: string) {
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name, exact: true }).click();
  await page.waitForURL((url) => url.pathname === path);
}

describe('admin console', () => {
  it('connects a model server, a user picks its model in the wizard and chats, and the usage shows the reply', async () => {
    // The admin signs in through the form and finds the console in the navigation.
    const adminSession = await newPage(suite.browser, suite.t.url);
    const { page: adminPage } = adminSession;
    await adminPage.goto('/login');
    await adminPage.getByLabel('Username').fill(admin.username);
    await adminPage.getByLabel('Password', { exact: true }).fill(admin.password);
    await button(adminPage, 'Sign in').click();
    await adminPage.waitForURL((url) => url.pathname !== '/login');
    await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await adminPage.waitForURL((url) => url.pathname === '/admin');
    await visible(adminPage.getByText('No connection yet: Botty answers offline.'));
    await lookAt(adminPage, 'connections-empty');

    // Add an OpenAI-compatible connection to the fake server on loopback.
    await button(adminPage, 'Add connection').click();
    const dialog = adminPage.getByRole('dialog', { name: 'Add connection' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(CONNECTION);
    expect(await dialog.getByRole('combobox', { name: 'Kind' }).inputValue()).toBe('openai-compatible');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(fake.baseUrl);
    await dialog.getByLabel('API key').fill('sk-e2e-secret-1234');
    await dialog.getByRole('checkbox', { name: 'Allow private or loopback address' }).click();
    await snap(adminPage, 'admin-console-connection-dialog-1280');
    await dialog.getByRole('button', { name: 'Add connection' }).click();
    await visible(toastWith(adminPage, 'Connection added'));
    const card = adminPage
      .getByRole('list', { name: 'Connections' })
      .getByRole('listitem')
      .filter({ hasText: CONNECTION });
    await visible(card.getByText('•••• 1234'));

    // Test lists the server's models; enable two of them.
    await button(adminPage, `Test ${CONNECTION}`).click();
    await visible(card.getByRole('status').filter({ hasText: 'Connected: 3 models offered.' }));
    expect(fake.listRequests.at(-1)?.authorization).toBe('Bearer sk-e2e-secret-1234');
    await card.getByRole('checkbox', { name: CHOSEN, exact: true }).click();
    await card.getByRole('checkbox', { name: DEFAULT, exact: true }).click();
    await lookAt(adminPage, 'connections-tested');
    await button(adminPage, 'Save models').click();
    await visible(toastWith(adminPage, 'Models saved'));

    // The other enabled model answers whatever a bot leaves on Default (chat, prompt generation).
    for (const task of ['Chat', 'Prompt generation']) {
      const select = adminPage.getByRole('combobox', { name: task, exact: true });
      await expect.poll(() => select.locator('option').allTextContents()).toContain(labelOf(DEFAULT));
      await select.selectOption({ label: labelOf(DEFAULT) });
    }
    // A task left unset follows Chat, and says so.
    const titles = adminPage.getByRole('combobox', { name: 'Conversation titles' });
    expect(await titles.locator('option:checked').innerText()).toBe('Same as Chat');
    await button(adminPage, 'Save default models').click();
    await visible(toastWith(adminPage, 'Default models saved'));

    await openSection(adminPage, 'People', '/admin/people');
    const people = adminPage.getByRole('list', { name: 'People' });
    await visible(people.getByText(admin.username));
    await visible(people.getByText('0 tokens · no limit'));
    await lookAt(adminPage, 'people');

    // An ordinary user creates a bot on the chosen model.
    const user = await signedInPage(suite.browser, suite.t);
    const { page } = user;
    await page.goto('/create-bot');
    await visible(heading(page, 'Define Bot'));
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.getByLabel('Name').fill('Garden Guru');
    await page.getByLabel('Description').fill('Answers questions about growing vegetables.');
    await button(page, 'Continue').click();
    await visible(heading(page, 'Customize'));
    const modelField = page.getByRole('combobox', { name: 'Model' });
    await expect.poll(() => modelField.innerText()).toBe(`Default (${labelOf(DEFAULT)})`);
    // Chosen on a phone: the list opens over the page and closes on the pick.
    await page.setViewportSize(VIEWPORTS.phone);
    await modelField.click();
    const options = page.getByRole('option');
    await visible(options);
    expect(await options.allInnerTexts()).toEqual([`Default (${labelOf(DEFAULT)})`, labelOf(CHOSEN), labelOf(DEFAULT)]);
    // Only the viewport: a full-page screenshot resizes the page, which closes the list.
    await page.screenshot({ path: 'screenshots/admin-console-wizard-model-open-390.png' });
    await page.getByRole('option', { name: labelOf(CHOSEN) }).click();
    await expect.poll(() => modelField.innerText()).toBe(labelOf(CHOSEN));
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'admin-console-wizard-model-390');
    await page.setViewportSize(VIEWPORTS.desktop);
    await snap(page, 'admin-console-wizard-model-1280');
    await button(page, 'Continue').click();
    await visible(heading(page, 'Train'));
    for (const query of ['When do I plant tomatoes?', 'How deep do carrots go?']) {
      await page.getByLabel('Example query').fill(query);
      await page.getByLabel('Example query').press('Enter');
    }
    // Training asks the prompt-generation default to write the prompt; the test answers come from the bot's model.
    const asked = fake.requests.length;
    fake.enqueue(
      JSON.stringify({
        systemPrompt: 'You are Garden Guru, a vegetable-growing expert.',
        exampleQueries: ['Which tomatoes suit pots?'],
      }),
    );
    await button(page, 'Start Training').click();
    await visible(page.getByText('AI-enhanced prompt', { exact: true }), 10_000);
    const training = fake.requests.slice(asked).map((r) => r.body.model);
    expect(training[0]).toBe(DEFAULT);
    expect(new Set(training.slice(1))).toEqual(new Set([CHOSEN]));
    await button(page, 'Review Botty').click();
    await visible(heading(page, 'Finish'));
    await button(page, 'Create Botty').press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    const bots = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: user.token })).body;
    expect(bots.map((b) => b.name)).toEqual(['Garden Guru']);
    expect(bots[0]!.config.model).toMatch(new RegExp(`^\\d+/${CHOSEN}$`));

    // The chat is answered by the chosen model, and says so under the reply.
    await page.goto('/dashboard');
    await page.getByRole('listitem').filter({ hasText: 'Garden Guru' }).getByRole('button', { name: 'Chat' }).click();
    const input = page.getByRole('textbox', { name: 'Message' });
    await visible(input);
    fake.enqueue(REPLY);
    await input.fill('When should I plant tomatoes?');
    await input.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await visible(log.getByText(REPLY), 10_000);
    expect(fake.lastRequest().body.model).toBe(CHOSEN);
    // The conversation is named by the Chat default, as the unset Conversation titles said.
    await expect.poll(() => fake.titleRequests.at(-1)?.body.model).toBe(DEFAULT);
    await visible(log.getByText(`Written by ${CHOSEN}`));
    await visible(page.getByRole('region', { name: 'Chat with Garden Guru' }).getByText(`Model: ${CHOSEN}`));
    await snap(page, 'admin-console-chat-model-1280');
    await page.setViewportSize(VIEWPORTS.phone);
    await snap(page, 'admin-console-chat-model-390');
    await page.setViewportSize(VIEWPORTS.desktop);

    // The user's own usage counts the reply under the bot and the model.
    // Usage is written once the reply has ended, off the streaming path: the page may open before it is.
    const byBot = page.getByRole('table', { name: 'Usage per botty and model, last 30 days' });
    await expect
      .poll(
        async () => {
          await page.goto('/settings?tab=usage');
          await visible(page.getByRole('tabpanel', { name: 'Usage' }).getByText('Last 30 days'));
          return (await byBot.count()) ? byBot.innerText() : '';
        },
        { timeout: 10_000 },
      )
      .toContain(labelOf(CHOSEN));
    // The chat's reply under the bot; the wizard's test answers (no bot yet) are counted apart.
    const guru = byBot.getByRole('row').filter({ hasText: 'Garden Guru' });
    expect((await guru.getByRole('cell').allInnerTexts()).slice(1, 2)).toEqual(['1']);
    expect(await guru.innerText()).toContain(labelOf(CHOSEN));
    await visible(byBot.getByRole('row').filter({ hasText: 'No botty' }));
    await lookAt(page, 'settings-usage');
    await user.close();

    // The admin's usage page has the user's reply on the chosen model.
    await openSection(adminPage, 'Usage', '/admin/usage');
    const table = adminPage.getByRole('region', { name: 'Usage by person, bot and model' });
    const row = table.getByRole('row').filter({ hasText: 'Garden Guru' });
    await expect
      .poll(
        async () => {
          await adminPage.reload();
          await visible(heading(adminPage, 'Usage'));
          return row.count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual(['Garden Guru', labelOf(CHOSEN), '1']);
    expect(await row.getByRole('rowheader').innerText()).toMatch(/^user_/);
    await lookAt(adminPage, 'usage');

    await openSection(adminPage, 'Connections', '/admin/connections');
    await visible(adminPage.getByText(`Enabled models: ${CHOSEN}, ${DEFAULT}`));
    await lookAt(adminPage, 'connections');
    // The dark theme too (axe reads its contrast; the chart's canvas is looked at in the screenshot).
    await emulateColorScheme(adminPage, 'dark');
    for (const section of ['Usage', 'People', 'Connections']) {
      await openSection(adminPage, section, `/admin/${section.toLowerCase()}`);
      await expectAccessible(adminPage, `${section}, dark`);
      await snap(adminPage, `admin-console-${section.toLowerCase()}-dark-1280`);
    }
    await emulateColorScheme(adminPage, 'light');

    // Registration closed: the sign-up page says so instead of showing its form.
    await openSection(adminPage, 'People', '/admin/people');
    await adminPage.getByRole('radio', { name: /^Closed/ }).click();
    await visible(toastWith(adminPage, 'Registration updated'));
    const visitor = await newPage(suite.browser, suite.t.url, VIEWPORTS.phone);
    await visitor.page.goto('/register');
    await visible(visitor.page.getByRole('status').filter({ hasText: ADMIN_MESSAGES.registrationClosed }));
    expect(await visitor.page.getByRole('button', { name: 'Register' }).count()).toBe(0);
    await expectAccessible(visitor.page, 'register, closed');
    await snap(visitor.page, 'admin-console-register-closed-390');
    await visitor.close();
    await adminSession.close();
    // 35 s on an idle machine; 65–90 s in a full run with another spec beside it on two cores, and once 180 s.
  }, 300_000);
});
