import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/shared/contracts/chat';
import { createBot } from '../tests/support/factories';
import { messageText } from '../tests/support/fake-llm';
import { appInBrowser, hidden, signedInPage, visible } from './support/browser';
import { startTestAppWithModel } from '../tests/support/test-app';

const suite = appInBrowser(startTestAppWithModel);

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const versions = (page: Page) => messages(page).getByRole('group', { name: 'Message versions' });
const shownConversation = (page: Page) => Number(new URL(page.url()).searchParams.get('c'));
const conversationsOf = async (token: string, botId: number) =>
  (await suite.t.request<Conversation[]>('GET', `/api/bots/${botId}/conversations`, { token })).body;

describe('conversations', () => {
  it('edits a sent question for a new answer, and switches between the answers with ‹ 1/2 ›', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, { name: 'Editor' });
    await page.goto(`/chat/${bot.id}`);
    await expect.poll(() => shownConversation(page), { timeout: 5000 }).toBeGreaterThan(0);

    suite.fake.enqueue('Rome is the capital of Italy.');
    await input(page).fill('What is the capital of Italy?');
    await input(page).press('Enter');
    await visible(messages(page).getByText('Rome is the capital of Italy.'));
    await hidden(versions(page));

    suite.fake.enqueue('Paris is the capital of France.');
    await button(page, 'Edit message').click();
    const editor = messages(page).getByRole('textbox', { name: 'Edit message' });
    expect(await editor.inputValue()).toBe('What is the capital of Italy?');
    await editor.fill('What is the capital of France?');
    await editor.press('Enter');
    await visible(messages(page).getByText('Paris is the capital of France.'));
    await hidden(messages(page).getByText('Rome is the capital of Italy.'));
    await visible(versions(page).getByText('2/2', { exact: true }));
    // The model saw the edited question alone, not the branch it replaced.
    const sent = suite.fake.lastRequest().body.messages.map(messageText);
    expect(sent).toContain('What is the capital of France?');
    expect(sent).not.toContain('What is the capital of Italy?');
    expect(sent).not.toContain('Rome is the capital of Italy.');

    await button(page, 'Previous version').click();
    await visible(messages(page).getByText('Rome is the capital of Italy.'));
    await visible(messages(page).getByText('What is the capital of Italy?', { exact: true }));
    await hidden(messages(page).getByText('Paris is the capital of France.'));
    await visible(versions(page).getByText('1/2', { exact: true }));
    expect(await button(page, 'Previous version').isDisabled()).toBe(true);

    await button(page, 'Next version').click();
    await visible(messages(page).getByText('Paris is the capital of France.'));
    await hidden(messages(page).getByText('Rome is the capital of Italy.'));
    await visible(versions(page).getByText('2/2', { exact: true }));

    // The choice is the conversation's, so it survives a reload.
    await page.reload();
    await visible(messages(page).getByText('Paris is the capital of France.'));
    await visible(versions(page).getByText('2/2', { exact: true }));
    await close();
  });

  it('offers the bot’s example queries as starters in an empty conversation, and sends the one clicked', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, {
      name: 'Starter Chef',
      exampleQueries: ['What can I cook with rice?', 'Plan a vegan week'],
    });
    await page.goto(`/chat/${bot.id}`);
    const starters = messages(page).getByRole('list', { name: 'Suggested questions' });
    await visible(starters);
    expect(await starters.getByRole('button').allTextContents()).toEqual([
      'What can I cook with rice?',
      'Plan a vegan week',
    ]);

    suite.fake.enqueue('Fried rice, risotto or rice pudding.');
    await starters.getByRole('button', { name: 'Plan a vegan week' }).click();
    await visible(messages(page).getByText('Fried rice, risotto or rice pudding.'));
    await visible(messages(page).getByText('Plan a vegan week', { exact: true }));
    await hidden(starters);
    expect(messageText(suite.fake.lastRequest().body.messages.at(-1))).toBe('Plan a vegan week');
    await close();
  });

  it('keeps one conversation however often a bot’s chat is opened without sending anything', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, { name: 'Quiet One' });
    const opened = new Set<number>();
    for (let i = 0; i < 4; i++) {
      await page.goto(`/chat/${bot.id}`);
      await expect.poll(() => shownConversation(page), { timeout: 5000 }).toBeGreaterThan(0);
      opened.add(shownConversation(page));
    }
    await Promise.all([
      page.waitForResponse((res) => res.url().endsWith('/api/conversations') && res.request().method() === 'POST'),
      button(page, 'New conversation').click(),
    ]);
    await page.reload();
    await expect.poll(() => shownConversation(page), { timeout: 5000 }).toBeGreaterThan(0);
    opened.add(shownConversation(page));

    expect((await conversationsOf(token, bot.id)).map((c) => c.id)).toEqual([...opened]);
    expect(opened.size).toBe(1);
    await close();
  });
});
