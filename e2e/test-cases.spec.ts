import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestCase } from '../src/shared/contracts/test-cases';
import { createBot } from '../tests/support/factories';
import { startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, signedInPage, snap, visible } from './support/browser';

const suite = appInBrowser(startTestAppWithModel);

const QUESTION = 'Which soup suits a cold evening?';
const REPLY = 'Gazpacho, served ice cold.';
const COMMENT = 'A hot soup, such as minestrone';
const PHONE = { width: 360, height: 800 };

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('tests from feedback', () => {
  it('turns a reply rated down with a comment into a test case whose expected answer is the comment', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, { name: 'Soup Chef', exampleQueries: [] });

    // The owner asks, and rates the reply down with what was expected.
    await page.goto(`/chat/${bot.id}`);
    const input = page.getByRole('textbox', { name: 'Message' });
    await visible(input);
    suite.fake.enqueue(REPLY);
    await input.fill(QUESTION);
    await input.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await visible(log.getByText(REPLY));
    await button(page, 'Bad reply').click();
    await expect.poll(() => button(page, 'Bad reply').getAttribute('aria-pressed')).toBe('true');
    await button(page, 'Add a comment').click();
    await page.getByLabel('Comment on this reply').fill(COMMENT);
    await button(page, 'Save').click();
    await visible(page.getByRole('button', { name: `Edit comment: ${COMMENT}` }));

    // The feedback log lists it; one click makes it a test.
    await page.goto(`/bots/${bot.id}/tests`);
    await visible(page.getByRole('heading', { name: 'Tests of Soup Chef' }));
    await page.getByRole('tab', { name: 'Feedback' }).click();
    const entry = page.getByRole('listitem').filter({ hasText: QUESTION });
    await visible(entry.getByText(COMMENT));
    expect(await entry.innerText()).toContain(REPLY);
    await entry.getByRole('button', { name: `Add to tests: ${QUESTION}` }).click();
    await visible(entry.getByRole('button', { name: 'In tests' }));
    expect(await entry.getByRole('button', { name: 'In tests' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'feedback log at 1280 px');
    await snap(page, 'test-cases-desktop-feedback');

    const tests = (await suite.t.request<TestCase[]>('GET', `/api/bots/${bot.id}/tests`, { token })).body;
    expect(tests).toEqual([expect.objectContaining({ query: QUESTION, expected: COMMENT })]);
    await page.getByRole('tab', { name: 'Test cases' }).click();
    const testCase = page.getByRole('listitem').filter({ hasText: QUESTION });
    await visible(testCase.getByText(COMMENT));

    // On a narrow phone: nothing scrolls sideways, and the feedback log stays accessible.
    await page.setViewportSize(PHONE);
    await page.getByRole('tab', { name: 'Feedback' }).click();
    await visible(entry.getByRole('button', { name: 'In tests' }));
    expect(await fitsWidth(page)).toBe(true);
    await expectAccessible(page, 'feedback log at 360 px');
    await snap(page, 'test-cases-phone-feedback');
    await close();
  });
});
