import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/shared/contracts/bots';
import { createConversation, messagesOf } from '../tests/support/chat-api';
import { createBot } from '../tests/support/factories';
import { messageText, systemPromptOf, type ReceivedRequest } from '../tests/support/fake-llm';
import { signUp, startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, newPage, snap, VIEWPORTS } from './support/browser';

const suite = appInBrowser(startTestAppWithModel);

const TRAINED_PROMPT = 'You are Chef Remy, a vegetarian cook. Answer with a short recipe.';
const QUERIES = ['What can I cook with lentils?', 'A quick dinner for two?'];
const ANSWERS = ['Lentil dal: simmer red lentils with cumin.', 'Try a chickpea curry in 20 minutes.'];
const GENERATED = ['Plan my week of dinners.', 'A dessert without sugar?'];

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/**
 * Signs the page in with `token`, as "Remember me" leaves it. The login page clears stored tokens once it has
 * found nobody signed in, so the token goes in only after that, or it could be wiped.
 */
async function signIn(page: Page, token: string) {
  await page.goto('/login');
  await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible(), { timeout: 5000 }).toBe(true);
  await page.evaluate((value) => localStorage.setItem('authToken', value), token);
}
const heading = (page: Page, name: string) => page.getByRole('heading', { name, exact: true });

/** A signed-in page at step 3 of a new bot, with the example queries typed in. */
async function atTrainStep(viewport: { width: number; height: number } = VIEWPORTS.desktop) {
  const account = await signUp(suite.t);
  const session = await newPage(suite.browser, suite.t.url, viewport);
  const { page } = session;
  await signIn(page, account.token);
  await page.goto('/create-bot');
  await page.getByLabel('Name').fill('Chef Remy');
  await page.getByLabel('Description').fill('Suggests vegetarian recipes.');
  await button(page, 'Continue').click();
  await button(page, 'Continue').click();
  await expect.poll(() => heading(page, 'Example queries').isVisible()).toBe(true);
  for (const query of QUERIES) {
    await page.getByLabel('Example query').fill(query);
    await page.getByLabel('Example query').press('Enter');
  }
  return { ...session, account };
}

/** The prompt, then one answer per query, each a little later so they can be seen arriving. */
function enqueueTraining(answerDelayMs: number) {
  suite.fake.enqueue(JSON.stringify({ systemPrompt: TRAINED_PROMPT, exampleQueries: GENERATED }));
  for (const answer of ANSWERS) {
    suite.fake.enqueue(async () => {
      await sleep(answerDelayMs);
      return answer;
    });
  }
}

describe('training', () => {
  it('shapes the prompt with the example queries, shows answers as they arrive, and keeps ratings and queries', async () => {
    const { page, close, account } = await atTrainStep();
    const asked = suite.fake.requests.length;
    enqueueTraining(1200);
    await button(page, 'Start Training').click();

    // The first answer is in while training still runs: the bar is held below 100.
    const answers = page.getByRole('heading', { name: 'Test answers', exact: true });
    await expect.poll(() => answers.isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(() => page.getByText(ANSWERS[0]!, { exact: true }).isVisible(), { timeout: 5000 }).toBe(true);
    const progress = Number(await page.getByRole('progressbar').getAttribute('aria-valuenow'));
    expect(progress).toBeLessThan(100);
    expect(await page.getByText(ANSWERS[1]!, { exact: true }).count()).toBe(0);
    expect(await button(page, 'Cancel training').isVisible()).toBe(true);
    await snap(page, 'training-desktop-answers-arriving');

    await expect
      .poll(() => page.getByText('AI-enhanced prompt', { exact: true }).isVisible(), { timeout: 8000 })
      .toBe(true);
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await page.getByText(ANSWERS[1]!, { exact: true }).isVisible()).toBe(true);

    // The model wrote the prompt knowing the queries, and answered each with that prompt.
    const [generation, ...answered] = suite.fake.requests.slice(asked);
    const asText = JSON.stringify(generation!.body.messages);
    for (const query of QUERIES) expect(asText).toContain(query);
    expect(answered.map((r) => messageText(r.body.messages.at(-1)))).toEqual(QUERIES);
    expect(messageText(answered[0]!.body.messages[0])).toContain(TRAINED_PROMPT);

    // Rate: the second answer is bad, with what was expected.
    await page
      .getByRole('group', { name: `Rate the answer to: ${QUERIES[1]}` })
      .getByRole('button', { name: 'Bad' })
      .click();
    await page.getByLabel('What did you expect?').fill('A recipe with tofu');
    await page
      .getByRole('group', { name: `Rate the answer to: ${QUERIES[0]}` })
      .getByRole('button', { name: 'Good' })
      .click();
    // Keep one generated query.
    await button(page, `Keep: ${GENERATED[0]}`).click();
    expect(await page.getByRole('list', { name: 'Your example queries' }).getByRole('listitem').count()).toBe(3);
    await expectAccessible(page, 'trained with answers');
    await snap(page, 'training-desktop-trained');

    await button(page, 'Review Botty').click();
    await button(page, 'Create Botty').click();
    await page.waitForURL((url) => url.pathname === '/');
    const [bot] = (await suite.t.request<Bot[]>('GET', '/api/bots', { token: account.token })).body;
    expect(bot).toMatchObject({
      exampleQueries: [...QUERIES, GENERATED[0]],
      config: { systemPrompt: TRAINED_PROMPT },
    });
    expect(bot!.testNotes).toEqual(
      expect.arrayContaining([
        { query: QUERIES[1], rating: 'bad', expected: 'A recipe with tofu' },
        { query: QUERIES[0], rating: 'good', expected: '' },
      ]),
    );
    await close();
  });

  it('can cancel a model that hangs: the prompt is then built from the description, with no answers', async () => {
    const { page, close } = await atTrainStep();
    suite.fake.enqueue({ hang: true });
    const asked = suite.fake.requests.length;
    await button(page, 'Start Training').click();
    await expect.poll(() => suite.fake.requests.length - asked).toBe(1);
    await button(page, 'Cancel training').click();
    const built = page.getByRole('region', { name: 'Prompt built from your description' });
    await expect.poll(() => built.isVisible(), { timeout: 3000 }).toBe(true);
    expect(
      await page.getByText('No language model answered, so this prompt was built from your description.').isVisible(),
    ).toBe(true);
    expect(await heading(page, 'Test answers').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    // The server stopped asking the model when the browser cancelled.
    await expect.poll(() => suite.fake.requests.at(-1)!.aborted).toBe(true);
    await close();
  });

  it('looks right on a phone, with answers to rate', async () => {
    const { page, close } = await atTrainStep(VIEWPORTS.phone);
    enqueueTraining(100);
    await button(page, 'Start Training').click();
    await expect
      .poll(() => page.getByText('AI-enhanced prompt', { exact: true }).isVisible(), { timeout: 8000 })
      .toBe(true);
    await page
      .getByRole('group', { name: `Rate the answer to: ${QUERIES[0]}` })
      .getByRole('button', { name: 'Bad' })
      .click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'trained on a phone');
    await snap(page, 'training-phone-trained');
    await close();
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`shows the version history with what changed, compares and restores at ${viewport.width} px`, async () => {
      const account = await signUp(suite.t);
      const bot = await createBot(suite.t, account.token, {
        name: 'Chef Remy',
        config: { tone: 'friendly', systemPrompt: 'You are Chef Remy. Suggest quick recipes.' },
        exampleQueries: ['Dinner tonight?', 'Something warm?'],
      });
      await suite.t.request('PATCH', `/api/bots/${bot.id}`, {
        token: account.token,
        body: { config: { tone: 'enthusiastic', systemPrompt: 'You are Chef Remy. Suggest slow-cooked recipes.' } },
      });
      const session = await newPage(suite.browser, suite.t.url, viewport);
      const { page } = session;
      await signIn(page, account.token);
      await page.goto(`/create-bot?edit=${bot.id}`);
      await expect.poll(() => heading(page, 'Edit Chef Remy').isVisible(), { timeout: 5000 }).toBe(true);
      await page.getByRole('link', { name: 'Versions' }).click();
      await page.waitForURL(`**/bots/${bot.id}/versions`);
      await expect.poll(() => heading(page, 'Versions of Chef Remy').isVisible(), { timeout: 5000 }).toBe(true);

      const list = page.getByRole('navigation', { name: 'Versions' });
      await expect.poll(() => list.getByRole('button').count()).toBe(2);
      expect(await list.getByRole('button').first().innerText()).toContain('Changed: Prompt, Tone');
      // The previous version is compared with the current one: the prompt as a word diff, the settings side by side.
      await expect.poll(() => heading(page, 'Version 1 compared with version 2').isVisible()).toBe(true);
      const prompt = page.getByRole('region', { name: 'Prompt' });
      expect(await prompt.locator('del').allInnerTexts()).toContain('quick');
      expect(await prompt.locator('ins').allInnerTexts()).toContain('slow-cooked');
      const tone = page.getByRole('row', { name: /Tone/ });
      expect(await tone.innerText()).toMatch(/Tone\s+friendly\s+enthusiastic/);
      await expectAccessible(page, `versions at ${name}`);
      await snap(page, `versions-${name}-compare`);

      // The test set on both versions: the judge passes quick recipes, so the newer version regresses.
      const judgeQuick = (r: ReceivedRequest) =>
        systemPromptOf(r).startsWith('You judge')
          ? JSON.stringify(
              /quick/.test(messageText(r.body.messages.at(-1)))
                ? { verdict: 'pass', reason: 'Quick, as asked.' }
                : { verdict: 'fail', reason: 'Too slow for a weeknight.' },
            )
          : `${systemPromptOf(r).split('Suggest ')[1]?.split('.')[0] ?? ''} for you.`;
      suite.fake.enqueue(...Array.from({ length: 8 }, () => judgeQuick));
      await button(page, 'Run on version 1').click();
      await expect.poll(() => page.getByText('Version 1: 2 of 2 passed').isVisible(), { timeout: 8000 }).toBe(true);
      await button(page, 'Run on version 2').click();
      await expect.poll(() => page.getByText('Version 2: 0 of 2 passed').isVisible(), { timeout: 8000 }).toBe(true);
      // The comparison renders once both runs' results have loaded, which may be a moment after the summary.
      await expect.poll(() => page.getByText('2 regressions', { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Too slow for a weeknight.').count()).toBe(2);
      await expect.poll(() => page.getByText('quick recipes for you.').count()).toBe(2);
      await expectAccessible(page, `test set compared at ${name}`);
      await snap(page, `versions-${name}-test-set`);

      await button(page, 'Restore version 1').click();
      await expect.poll(() => list.getByRole('button').count()).toBe(3);
      expect(await list.getByRole('button').first().innerText()).toContain('Restored version 1');
      const restored = (await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token: account.token })).body;
      expect(restored).toMatchObject({ version: 3, config: bot.config });
      await session.close();
    });
  }

  it("shows a bot's insights with a chart loaded only there, at 390 and 1280 px", async () => {
    const account = await signUp(suite.t);
    const bot = await createBot(suite.t, account.token, { name: 'Chef Remy' });
    const conversation = await createConversation(suite.t, account.token, bot.id);
    for (const question of ['Soup?', 'Salad?']) {
      await suite.t.request('POST', '/api/bot-message', {
        token: account.token,
        body: { conversationId: conversation.id, botId: bot.id, userMessageContent: question },
      });
    }
    const [, reply] = await messagesOf(suite.t, account.token, conversation.id);
    await suite.t.request('POST', `/api/messages/${reply!.id}/feedback`, {
      token: account.token,
      body: { rating: 'up' },
    });

    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const session = await newPage(suite.browser, suite.t.url, viewport);
      const { page } = session;
      const chartCode: string[] = [];
      page.on('request', (request) => {
        if (/uplot/i.test(request.url())) chartCode.push(request.url());
      });
      await signIn(page, account.token);
      await page.goto(`/bots/${bot.id}/versions`);
      await expect.poll(() => heading(page, 'Versions of Chef Remy').isVisible(), { timeout: 5000 }).toBe(true);
      await page.getByRole('navigation', { name: 'Botty hub' }).getByRole('link', { name: 'Insights' }).click();
      await expect.poll(() => heading(page, 'Insights for Chef Remy').isVisible(), { timeout: 5000 }).toBe(true);
      await expect.poll(() => page.getByTestId('daily-chart').locator('canvas').count(), { timeout: 5000 }).toBe(1);
      expect(chartCode.length).toBeGreaterThan(0);
      const stat = (term: string) => page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd');
      expect(await stat('Conversations').innerText()).toBe('1');
      expect(await stat('Replies').innerText()).toBe('2');
      expect(await stat('Thumbs up').innerText()).toBe('100% (1 of 1)');
      expect(await page.getByRole('table', { name: 'Activity per day' }).getByRole('row').count()).toBe(31);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page, `insights at ${name}`);
      if (viewport.width < 768) {
        // The narrowest phones too: the screen-reader table once stretched the page 18 px at 360.
        await page.setViewportSize({ width: 360, height: viewport.height });
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        await page.setViewportSize(viewport);
      }
      await snap(page, `insights-${name}`);
      await session.close();
    }
  });
});
