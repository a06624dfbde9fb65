import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { WizardState } from '../src/client/features/create-bot/model/wizard';
import type { Bot } from '../src/shared/contracts/bots';
import { createBot } from '../tests/support/factories';
import { signUp, startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap, toastWith, VIEWPORTS } from './support/browser';

const filesDir = mkdtempSync(join(tmpdir(), 'botty-e2e-wizard-files-'));
afterAll(() => rmSync(filesDir, { recursive: true, force: true }));
const suite = appInBrowser(() => startTestAppWithModel({ env: { FILES_DIR: filesDir }, fileJobs: { pollMs: 50 } }));

const TRAINED_PROMPT = 'You are Chef Remy, a meal-planning expert. Plan balanced weekly menus and explain each choice.';
const GENERATED_QUERIES = ['Plan my dinners for this week.', 'What can I cook with leftover rice?'];

/** The fake model answers generate-prompt slowly, so the progress bar can be seen part-way. */
function enqueueTrainingAnswer(systemPrompt = TRAINED_PROMPT, delayMs = 1500) {
  suite.fake.enqueue(async () => {
    await sleep(delayMs);
    return JSON.stringify({ systemPrompt, exampleQueries: [...GENERATED_QUERIES, '   '] });
  });
}

/** A browser page signed in as a fresh user (token set through the API, as after "Remember me"). */
async function signedIn(viewport: { width: number; height: number } = VIEWPORTS.desktop) {
  const account = await signUp(suite.t);
  const session = await newPage(suite.browser, suite.t.url, viewport);
  await session.page.goto('/login');
  // The login page clears stored tokens once it found nobody signed in; a token set before that could be wiped.
  await expect
    .poll(() => session.page.getByRole('button', { name: 'Sign in' }).isVisible(), { timeout: 5000 })
    .toBe(true);
  await session.page.evaluate((token) => localStorage.setItem('authToken', token), account.token);
  return { ...session, account, userId: account.user.id as number };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });
const stepNav = (page: Page) => page.getByRole('navigation', { name: 'Wizard steps' });
const currentStep = (page: Page) => stepNav(page).locator('[aria-current="step"]').innerText();
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

async function expectStep(page: Page, label: string) {
  await expect.poll(() => heading(page, label).isVisible()).toBe(true);
  expect(await currentStep(page)).toContain(label);
}

const storedDraft = (page: Page, userId: number) =>
  page
    .evaluate((key) => sessionStorage.getItem(key), `botDraft:${userId}`)
    .then((json) => (json ? (JSON.parse(json) as WizardState) : null));

async function expectNoSidewaysScroll(page: Page, label: string) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${label} scrolls sideways`,
  ).toBe(true);
}

describe('create-bot wizard', () => {
  it('walks define → customise → train → finish with the fake model and creates the bot', async () => {
    const { page, close, account, userId } = await signedIn();
    await page.goto('/create-bot');
    await expect.poll(() => heading(page, 'Create a New Botty').isVisible()).toBe(true);
    await expectStep(page, 'Define Bot');
    // Nothing is completed yet, so the indicator offers no way to jump.
    expect(await stepNav(page).getByRole('button').count()).toBe(0);

    // Step 1: Continue needs a name and a description that are not blank.
    const next = button(page, 'Continue');
    expect(await next.isDisabled()).toBe(true);
    await page.getByLabel('Name').fill('Chef Remy');
    await page.getByLabel('Description').fill('   ');
    expect(await next.isDisabled()).toBe(true);
    await page.getByLabel('Description').fill('Suggests weekly meal plans and recipes.');
    expect(await next.isEnabled()).toBe(true);
    expect(await page.getByRole('radio', { name: 'Answering questions' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('radio', { name: 'Planning & organization' }).click();
    expect(await page.getByRole('radio', { name: 'Planning & organization' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(await page.getByRole('group', { name: 'Icon' }).getByRole('button').count()).toBe(20);
    await button(page, 'Utensils').click();
    expect(await button(page, 'Utensils').getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('checkbox', { name: 'Web search' }).click();
    // Memory & context is the conversation memory switch of step 2, on unless turned off.
    expect(await page.getByRole('checkbox', { name: 'Memory & context' }).isChecked()).toBe(true);
    await next.click();

    // Step 2: web_search chosen in step 1 turned web browsing on; the switch turns the capability back off.
    await expectStep(page, 'Customize');
    expect(await stepNav(page).getByRole('button').count()).toBe(1);
    const webBrowsing = page.getByRole('switch', { name: 'Web browsing' });
    expect(await webBrowsing.getAttribute('aria-checked')).toBe('true');
    await webBrowsing.click();
    await stepNav(page)
      .getByRole('button', { name: /Define Bot/ })
      .click();
    await expectStep(page, 'Define Bot');
    expect(await page.getByRole('checkbox', { name: 'Web search' }).isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'Web search' }).click();
    await button(page, 'Continue').click();
    await expectStep(page, 'Customize');
    expect(await webBrowsing.getAttribute('aria-checked')).toBe('true');

    await page.getByRole('radio', { name: 'Friendly' }).click();
    await page.getByRole('radio', { name: 'Detailed' }).click();
    await page.getByLabel('Greeting').fill('Bonjour! What shall we cook?');
    await page.getByRole('switch', { name: 'Citation generation' }).click();
    await page.getByLabel('Trusted sources').fill('not a domain');
    await page.getByLabel('Trusted sources').blur();
    await expect
      .poll(() =>
        page
          .getByText('Trusted sources must be a comma-separated list of domains (e.g. nature.com, arxiv.org)')
          .isVisible(),
      )
      .toBe(true);
    await page.getByLabel('Trusted sources').fill('seriouseats.com, bbcgoodfood.com');
    const contextWindow = page.getByLabel('Context window');
    expect(await contextWindow.inputValue()).toBe('10');
    await contextWindow.fill('21');
    await button(page, 'Continue').click();
    const rangeError = page
      .getByRole('alert')
      .filter({ hasText: 'Number of previous messages to consider for context (1-20)' });
    await expect.poll(() => rangeError.isVisible()).toBe(true);
    expect(await currentStep(page)).toContain('Customize');
    await contextWindow.fill('12');
    await button(page, 'Continue').click();
    await expectStep(page, 'Train');

    // The draft and the step survive a reload.
    await page.reload();
    await expectStep(page, 'Train');
    expect((await storedDraft(page, userId))?.draft).toMatchObject({
      name: 'Chef Remy',
      config: { tone: 'friendly', maxContextMessages: 12 },
    });

    // Step 3: two examples are needed to train; the local prompt shows meanwhile.
    expect(await page.getByText('Tip: add at least 5 example queries for the best results.').isVisible()).toBe(true);
    const startTraining = button(page, 'Start Training');
    expect(await startTraining.isDisabled()).toBe(true);
    expect(await button(page, 'Add Example').isDisabled()).toBe(true);
    await page.getByLabel('Example query').fill('What should I cook tonight?');
    await page.getByLabel('Example query').press('Enter');
    await expect.poll(() => page.getByText('What should I cook tonight?', { exact: true }).isVisible()).toBe(true);
    expect(await startTraining.isDisabled()).toBe(true);
    await page.getByLabel('Example query').fill('   ');
    expect(await button(page, 'Add Example').isDisabled()).toBe(true);
    await page.getByLabel('Example query').fill('A vegetarian menu for four?');
    await button(page, 'Add Example').click();
    await page.getByLabel('Example query').fill('Remove me');
    await button(page, 'Add Example').click();
    await button(page, 'Remove example: Remove me').click();
    expect(await page.getByRole('list', { name: 'Your example queries' }).getByRole('listitem').count()).toBe(2);
    expect(await page.getByText('Generated prompt', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Generated prompt' }).innerText()).toContain('You are Chef Remy');
    expect(await startTraining.isEnabled()).toBe(true);

    enqueueTrainingAnswer();
    await startTraining.click();
    const bar = page.getByRole('progressbar');
    await expect
      .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 3000 })
      .toSatisfy((value: number) => value > 0 && value < 100);
    await page.evaluate(() => window.scrollTo(0, 0));
    await snap(page, 'create-bot-desktop-3-training');
    await expect
      .poll(() => page.getByText('AI-enhanced prompt', { exact: true }).isVisible(), { timeout: 5000 })
      .toBe(true);
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    expect(await page.getByRole('region', { name: 'AI-enhanced prompt' }).innerText()).toBe(TRAINED_PROMPT);
    for (const query of GENERATED_QUERIES) expect(await page.getByText(query, { exact: true }).isVisible()).toBe(true);
    const generation = suite.fake.lastRequest();
    expect(JSON.stringify(generation.body.messages)).toContain('Chef Remy');

    await button(page, 'Review Botty').click();
    await expectStep(page, 'Finish');
    expect(await stepNav(page).getByRole('button').count()).toBe(3);

    // The prompt dialog: save waits, confirms, closes, then moves on to the review.
    await button(page, 'Back').click();
    await expectStep(page, 'Train');
    await button(page, 'Edit prompt').click();
    const dialog = page.getByRole('dialog', { name: 'Edit prompt' });
    await dialog.getByLabel('Prompt').fill('  ');
    expect(await dialog.getByRole('button', { name: 'Save prompt' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Prompt').fill(`${TRAINED_PROMPT} Always suggest a dessert.`);
    await dialog.getByRole('button', { name: 'Save prompt' }).click();
    await expect.poll(() => dialog.getByRole('button', { name: 'Saving...' }).isVisible()).toBe(true);
    await expect.poll(() => toastWith(page, 'Prompt updated').isVisible()).toBe(true);
    await expectStep(page, 'Finish');

    // Step 4: the review, then create.
    const main = page.getByRole('main');
    const reviewed = [
      'Chef Remy',
      'Suggests weekly meal plans and recipes.',
      'Planning & organization',
      'Web search',
      'Memory & context',
      'Friendly',
      'Detailed',
      '12 messages',
      'seriouseats.com, bbcgoodfood.com',
    ];
    for (const text of reviewed) {
      expect(await main.getByText(text, { exact: true }).first().isVisible(), text).toBe(true);
    }
    expect(await main.getByText(/Always suggest a dessert/).isVisible()).toBe(true);
    // From the keyboard: the 'Prompt updated' toast may still sit over the button's corner of the screen.
    await button(page, 'Create Botty').press('Enter');
    await expect.poll(() => toastWith(page, 'Success!').isVisible()).toBe(true);
    expect(await toastWith(page, 'Chef Remy is ready to chat.').isVisible()).toBe(true);
    await page.waitForURL((url) => url.pathname === '/');

    const bots = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: account.token })).body;
    expect(bots).toHaveLength(1);
    expect(bots[0]).toMatchObject({
      name: 'Chef Remy',
      description: 'Suggests weekly meal plans and recipes.',
      purpose: 'planning',
      icon: 'utensils',
      active: true,
      capabilities: ['web_search', 'memory_context'],
      config: {
        tone: 'friendly',
        writingStyle: 'detailed',
        greeting: 'Bonjour! What shall we cook?',
        webBrowsing: true,
        useKnowledgeCutoff: false,
        trustedSources: 'seriouseats.com, bbcgoodfood.com',
        conversationMemory: true,
        maxContextMessages: 12,
        citationGeneration: true,
        systemPrompt: `${TRAINED_PROMPT} Always suggest a dessert.`,
      },
      exampleQueries: ['What should I cook tonight?', 'A vegetarian menu for four?'],
    });

    // The draft was reset: a new wizard starts empty at step 1.
    expect(await storedDraft(page, userId)).toBeNull();
    await page.goto('/create-bot');
    await expectStep(page, 'Define Bot');
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    await close();
  });

  it('forgets the draft after creating a bot with knowledge files, so New Botty starts afresh (phone)', async () => {
    const { page, close, account, userId } = await signedIn(VIEWPORTS.phone);
    const draft: WizardState = {
      step: 2,
      draft: {
        name: 'Manual Reader',
        description: 'Answers questions from the Zephyr manual.',
        purpose: 'answering',
        icon: 'book',
        capabilities: [],
        config: { systemPrompt: 'You answer from the Zephyr manual.' },
      },
      exampleQueries: ['How often is recalibration?', 'What does the warranty cover?'],
      generatedQueries: [],
      promptSource: 'model',
      answers: [],
      testNotes: [],
    };
    await page.evaluate(([key, state]) => sessionStorage.setItem(key, state), [
      `botDraft:${userId}`,
      JSON.stringify(draft),
    ] as const);
    await page.goto('/create-bot');
    await expectStep(page, 'Customize');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, 'Add files').click()]);
    await chooser.setFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Recalibrate every 42 days.') },
    ]);
    await button(page, 'Continue').click();
    await expectStep(page, 'Train');
    await button(page, 'Review Botty').click();
    await expectStep(page, 'Finish');
    await button(page, 'Create Botty').click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });

    // The upload turned on Document analysis after the draft was forgotten; that must not store it again.
    expect(await storedDraft(page, userId)).toBeNull();
    await page.goto('/create-bot');
    await expectStep(page, 'Define Bot');
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    const bots = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: account.token })).body;
    expect(bots.map((b) => b.name)).toEqual(['Manual Reader']);
    await close();
  });

  it('falls back to the local prompt when the model fails, and Reset starts over', async () => {
    const { page, close, userId } = await signedIn();
    await page.goto('/create-bot');
    await page.getByLabel('Name').fill('Atlas');
    await page.getByLabel('Description').fill('Plans trips around Europe.');
    await button(page, 'Continue').click();
    await button(page, 'Continue').click();
    await expectStep(page, 'Train');
    for (const query of ['Where should I go in May?', 'A weekend in Lisbon?']) {
      await page.getByLabel('Example query').fill(query);
      await page.getByLabel('Example query').press('Enter');
    }
    suite.fake.enqueue({ status: 500, message: 'model crashed' });
    const asked = suite.fake.requests.length;
    await button(page, 'Start Training').click();
    // No model answered: the prompt says where it came from, no answers are shown, and no toast.
    const builtPrompt = page.getByRole('region', { name: 'Prompt built from your description' });
    await expect.poll(() => builtPrompt.isVisible(), { timeout: 5000 }).toBe(true);
    expect(await builtPrompt.innerText()).toContain('You are Atlas, an AI assistant.');
    expect(await page.getByText('AI-enhanced prompt', { exact: true }).count()).toBe(0);
    expect(await heading(page, 'Test answers').count()).toBe(0);
    expect(suite.fake.requests.length - asked).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);

    await button(page, 'Reset').click();
    await page.getByRole('dialog', { name: 'Start over?' }).getByRole('button', { name: 'Reset' }).click();
    await expectStep(page, 'Define Bot');
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    expect((await storedDraft(page, userId))?.draft.name).toBe('');
    await close();
  });

  it('edits an existing bot through the same steps without touching the create draft', async () => {
    const { page, close, account, userId } = await signedIn();
    const bot = await createBot(suite.t, account.token, {
      name: 'Old Name',
      capabilities: ['web_search'],
      config: { tone: 'professional', webBrowsing: true, maxContextMessages: 8, systemPrompt: 'You are Old Name.' },
    });

    await page.goto('/create-bot');
    await page.getByLabel('Name').fill('Half-made draft');
    await expect.poll(async () => (await storedDraft(page, userId))?.draft.name).toBe('Half-made draft');

    await page.goto(`/create-bot?edit=${bot.id}`);
    await expect.poll(() => heading(page, 'Edit Old Name').isVisible()).toBe(true);
    expect(await page.getByLabel('Name').inputValue()).toBe('Old Name');
    expect(await page.getByRole('checkbox', { name: 'Web search' }).isChecked()).toBe(true);
    await page.getByLabel('Name').fill('New Name');
    await button(page, 'Continue').click();
    await expectStep(page, 'Customize');
    expect(await page.getByLabel('Context window').inputValue()).toBe('8');
    await page.getByRole('radio', { name: 'Enthusiastic' }).click();
    await button(page, 'Continue').click();
    await expectStep(page, 'Train');
    expect(await page.getByRole('region', { name: 'Current prompt' }).innerText()).toBe('You are Old Name.');
    await button(page, 'Review Botty').click();
    await expectStep(page, 'Finish');
    await button(page, 'Save Changes').click();
    await expect.poll(() => toastWith(page, 'Botty updated').isVisible()).toBe(true);
    await page.waitForURL('**/dashboard');

    const saved = (await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: account.token })).body;
    // The bot had memory on (never turned off), so Memory & context, the same setting, is saved with it.
    expect(saved).toMatchObject({
      name: 'New Name',
      capabilities: ['web_search', 'memory_context'],
      config: {
        tone: 'enthusiastic',
        maxContextMessages: 8,
        conversationMemory: true,
        systemPrompt: 'You are Old Name.',
      },
    });
    expect((await storedDraft(page, userId))?.draft.name).toBe('Half-made draft');

    await page.goto('/create-bot?edit=999999');
    await expect.poll(() => toastWith(page, 'Failed to fetch bot').isVisible()).toBe(true);
    await page.waitForURL('**/dashboard');
    await close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`every step is accessible, fits the screen and looks right at ${viewport.width} px`, async () => {
      const { page, close, userId } = await signedIn(viewport);
      const draft: WizardState = {
        step: 1,
        draft: {
          name: 'Chef Remy',
          description: 'Suggests weekly meal plans and recipes from what is in my fridge.',
          purpose: 'planning',
          icon: 'utensils',
          capabilities: ['web_search', 'memory_context'],
          config: {},
        },
        exampleQueries: ['What should I cook tonight?', 'A vegetarian menu for four?'],
        generatedQueries: [],
        promptSource: null,
        answers: [],
        testNotes: [],
      };
      await page.evaluate(([key, state]) => sessionStorage.setItem(key, state), [
        `botDraft:${userId}`,
        JSON.stringify(draft),
      ] as const);
      await page.goto('/create-bot');

      const check = async (label: string) => {
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, `${label} at ${name}`);
        await expectNoSidewaysScroll(page, `${label} at ${name}`);
        if (name === 'phone') {
          const small = await page.evaluate(() =>
            // Switches and checkboxes draw a larger hit area around themselves (see components/ui).
            [
              ...document.querySelectorAll(
                'main :is(button:not([role=switch], [role=checkbox]), input:not([aria-hidden]), textarea)',
              ),
            ]
              .map((el) => ({ el, box: el.getBoundingClientRect() }))
              .filter(({ box }) => box.width > 0 && box.height < 44)
              .map(({ el }) => el.outerHTML.slice(0, 80)),
          );
          expect(small, `${label}: touch targets under 44 px`).toEqual([]);
        }
        // The sticky navigation bar would otherwise be drawn part-way down the full-page picture.
        await page.evaluate(() => window.scrollTo(0, 0));
        await snap(page, `create-bot-${name}-${label}`);
      };

      await expectStep(page, 'Define Bot');
      await check('1-define');
      await button(page, 'Continue').click();
      await expectStep(page, 'Customize');
      await page.getByLabel('Context window').fill('0');
      await button(page, 'Continue').click();
      await expect.poll(() => page.getByRole('alert').isVisible()).toBe(true);
      await check('2-customize-error');
      await page.getByLabel('Context window').fill('10');
      await button(page, 'Continue').click();
      await expectStep(page, 'Train');
      await check('3-train');
      enqueueTrainingAnswer(TRAINED_PROMPT, 200);
      await button(page, 'Start Training').click();
      await expect
        .poll(() => page.getByText('AI-enhanced prompt', { exact: true }).isVisible(), { timeout: 5000 })
        .toBe(true);
      await check('3-trained');
      await button(page, 'Edit prompt').click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Edit prompt' }).isVisible()).toBe(true);
      await check('3-prompt-dialog');
      await page.keyboard.press('Escape');
      await button(page, 'Review Botty').click();
      await expectStep(page, 'Finish');
      await check('4-finish');
      await close();
    });
  }
});
