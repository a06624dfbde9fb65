import type { Locator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { greetingFor } from '../src/client/entities/chat/model/greeting';
import type { Bot } from '../src/shared/contracts/bots';
import type { Conversation, Message } from '../src/shared/contracts/chat';
import { createConversation, messagesOf, streamChat } from '../tests/support/chat-api';
import { createBot } from '../tests/support/factories';
import { messageText, type FakeReply } from '../tests/support/fake-llm';
import { signUp, startTestApp, startTestAppWithModel, type TestApp } from '../tests/support/test-app';
import {
  appInBrowser,
  emulateColorScheme,
  expectAccessible,
  hidden,
  routeRequests,
  signedInPage,
  snap,
  toastWith,
  VIEWPORTS,
  visible,
} from './support/browser';

const suite = appInBrowser(startTestAppWithModel);

type Viewport = { width: number; height: number };
const signedIn = (viewport: Viewport = VIEWPORTS.desktop, app: TestApp = suite.t) =>
  signedInPage(suite.browser, app, viewport);

const CHEF = {
  name: 'Chef Remy',
  icon: 'utensils',
  description: 'Suggests recipes and quick cooking tips for busy weeknights.',
} as const;

/** A reply in markdown, in the pieces the fake model streams it in. */
const MARKDOWN_CHUNKS = [
  '# Weeknight plan\n\n',
  'Try these:\n\n- Lemon pasta\n- Miso soup\n\n',
  '| Day | Dish |\n|---|---|\n| Mon | Pasta |\n\n',
  '```js\nconst total = 2 + 3;\nconsole.log(total);\n```\n\n',
  '> Cook once, eat twice.\n\n',
  'Read [the guide](https://example.com/guide) or [click](javascript:alert(1)).\n\n',
  'Raw: <img src=x onerror="window.__x=1"> stays text.',
];
const MARKDOWN_REPLY = MARKDOWN_CHUNKS.join('');
/** A reply of more than one group of blocks, with a list longer than one part. */
const LONG_REPLY = [
  'Twelve ideas:',
  Array.from({ length: 12 }, (_, i) => `${i + 1}. Idea ${i + 1} with [a recipe](https://example.com/${i + 1})`).join(
    '\n',
  ),
  ...Array.from({ length: 9 }, (_, i) => `Note ${i + 1}: cook the rice a day ahead.`),
  'Thinking done.',
].join('\n\n');

const panel = (page: Page, botName: string) => page.getByRole('region', { name: `Chat with ${botName}` });
const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const typing = (page: Page) => page.getByRole('status', { name: 'Botty is typing' });
const logText = (page: Page) => messages(page).innerText();
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const conversationLinks = (page: Page) =>
  page
    .getByRole('complementary', { name: 'Conversations' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('button .truncate')?.textContent ?? ''));

async function send(page: Page, text: string) {
  await input(page).fill(text);
  await input(page).press('Enter');
}

/** The fake model holds its answer until the test releases it, so the waiting state can be seen. */
function heldReply(reply: FakeReply) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  suite.fake.enqueue(async () => {
    await held;
    return reply;
  });
  return release;
}

/** The conversation the chat page shows, from its address. */
const shownConversation = (page: Page) => Number(new URL(page.url()).searchParams.get('c'));

async function history(token: string, conversationId: number) {
  return (await messagesOf(suite.t, token, conversationId)).map((m: Message) => ({
    role: m.role,
    content: m.content,
    status: m.status,
  }));
}

/** A conversation with a question and the fake model's answer, made through the API. */
async function seedConversation(token: string, bot: Bot, question: string, answer: string, title?: string) {
  const conversation = await createConversation(suite.t, token, bot.id);
  suite.fake.enqueue(answer);
  await streamChat(suite.t, `/api/conversations/${conversation.id}/stream`, { token, body: { content: question } });
  if (title) await suite.t.request('PATCH', `/api/conversations/${conversation.id}`, { token, body: { title } });
  return conversation;
}

describe('chat panel', () => {
  it('opens from the dashboard with the greeting, streams a reply in pieces, and renders its markdown safely', async () => {
    const { page, context, token, close } = await signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const requestsBefore = suite.fake.requests.length;
    const bot = await createBot(suite.t, token, CHEF);
    await page.goto('/dashboard');
    await page.getByRole('listitem').filter({ hasText: CHEF.name }).getByRole('button', { name: 'Chat' }).click();

    const chat = panel(page, CHEF.name);
    await visible(chat);
    await hidden(page.getByRole('heading', { name: 'Your Botties' }));
    await visible(chat.getByText('Active', { exact: true }));
    await visible(chat.getByText('Created less than a minute ago'));
    await visible(chat.getByText(greetingFor(CHEF), { exact: true }));
    expect(greetingFor(CHEF)).toContain('your culinary expert');
    expect(await chat.getByRole('link', { name: 'Bot settings' }).getAttribute('href')).toBe(
      `/create-bot?edit=${bot.id}`,
    );
    expect(await page.evaluate(() => localStorage.getItem('activeBotId'))).toBe(String(bot.id));

    // Blank text cannot be sent; Shift+Enter adds a line instead of sending.
    expect(await button(page, 'Send message').isDisabled()).toBe(true);
    await input(page).fill('Plan my week');
    await input(page).press('Shift+Enter');
    expect(await input(page).inputValue()).toBe('Plan my week\n');
    expect(suite.fake.requests).toHaveLength(requestsBefore);

    // The stream waits after its heading until the test has looked at the reply part-way.
    let goOn!: () => void;
    const partWay = new Promise<void>((resolve) => (goOn = resolve));
    const release = heldReply({
      text: MARKDOWN_REPLY,
      chunks: MARKDOWN_CHUNKS,
      chunkDelayMs: 100,
      beforeChunk: (index) => (index === 1 ? partWay : undefined),
    });
    await input(page).press('Enter');
    expect(await input(page).inputValue()).toBe('');
    await visible(messages(page).getByText('Plan my week', { exact: true }));
    await visible(typing(page));
    await visible(button(page, 'Stop generating'));
    release();

    // Part-way: the heading is there, the rest is not yet.
    await visible(messages(page).getByRole('heading', { name: 'Weeknight plan' }));
    expect(await logText(page)).not.toContain('Lemon pasta');
    goOn();
    await hidden(typing(page));
    await visible(messages(page).getByText('stays text', { exact: false }), 10_000);
    await visible(button(page, 'Send message'));

    const log = messages(page);
    expect(await log.getByRole('listitem').allTextContents()).toEqual(['Lemon pasta', 'Miso soup']);
    await visible(log.getByRole('cell', { name: 'Pasta' }));
    await visible(log.locator('blockquote').getByText('Cook once, eat twice.'));
    expect(await log.locator('.md-code .hljs-keyword').count()).toBeGreaterThan(0);
    const guide = log.getByRole('link', { name: 'the guide' });
    expect(await guide.getAttribute('href')).toBe('https://example.com/guide');
    expect(await guide.getAttribute('target')).toBe('_blank');
    expect(await guide.getAttribute('rel')).toBe('noopener noreferrer');
    // The javascript: link is left as words, and the raw HTML as text that runs nothing.
    await visible(log.getByText('click', { exact: true }));
    expect(await log.getByRole('link', { name: 'click' }).count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    await visible(log.getByText('<img src=x onerror="window.__x=1">', { exact: false }));
    expect(await log.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();

    await log.getByRole('button', { name: 'Copy code' }).click();
    await visible(log.getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'const total = 2 + 3;\nconsole.log(total);\n',
    );
    await log.getByRole('button', { name: 'Copy message' }).last().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MARKDOWN_REPLY);

    // The reply reached the model with the conversation, and was saved.
    expect(messageText(suite.fake.lastRequest().body.messages.at(-1))).toBe('Plan my week');
    const [conversation] = (
      await suite.t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, { token })
    ).body;
    expect(await history(token, conversation!.id)).toEqual([
      { role: 'user', content: 'Plan my week', status: 'complete' },
      { role: 'assistant', content: MARKDOWN_REPLY, status: 'complete' },
    ]);

    await button(page, 'Close chat').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect
      .poll(async () => (await suite.t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.usageCount)
      .toBe(1);
    await close();
  });

  it('opens from the home screen, stops a reply keeping its start, regenerates, and keeps it all after a reload', async () => {
    const { page, token, close } = await signedIn();
    const pinned = await createBot(suite.t, token, {
      name: 'Pinned Pal',
      description: 'Answers questions about anything.',
    });
    const other = await createBot(suite.t, token, { name: 'Other Bot', description: 'Plans trips and vacations.' });
    await page.evaluate((ids) => localStorage.setItem('pinnedBots', JSON.stringify(ids)), [pinned.id]);

    // The chosen bot from the picker opens in place; closing brings the picker back.
    await page.goto('/');
    await page.getByLabel('Botty').selectOption({ label: 'Other Bot' });
    await button(page, 'Start chatting').click();
    await visible(panel(page, 'Other Bot'));
    await visible(page.getByText(greetingFor(other), { exact: true }));
    // At 1280×800 the whole panel, its message box too, fits on the screen without scrolling the page. The box is
    // measured once shown: on a loaded machine the greeting was once on screen before it (no box to measure).
    await visible(input(page));
    const composer = await input(page).boundingBox();
    expect(composer!.y + composer!.height).toBeLessThanOrEqual(VIEWPORTS.desktop.height);
    await page.screenshot({ path: 'screenshots/home-chat-desktop-first-screen.png' });
    await button(page, 'Close chat').click();
    await visible(page.getByRole('heading', { name: 'Start a conversation' }));

    await page
      .getByRole('complementary', { name: 'Your Top Botties' })
      .getByRole('button', { name: /Pinned Pal/ })
      .click();
    const chat = panel(page, 'Pinned Pal');
    await visible(chat);
    await visible(chat.getByText(greetingFor(pinned), { exact: true }));

    suite.fake.enqueue({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 300 });
    await send(page, 'Count to ten');
    await expect.poll(() => logText(page), { timeout: 5000 }).toContain('one two');
    await button(page, 'Stop generating').click();
    await visible(messages(page).getByText('(stopped)'));
    await visible(button(page, 'Send message'));

    const fullChat = chat.getByRole('link', { name: 'Open full chat' });
    const conversationId = Number(new URL((await fullChat.getAttribute('href'))!, suite.t.url).searchParams.get('c'));
    const [question, stopped] = await history(token, conversationId);
    expect(question).toEqual({ role: 'user', content: 'Count to ten', status: 'complete' });
    expect(stopped).toMatchObject({ role: 'assistant', status: 'stopped' });
    expect(stopped!.content).toMatch(/^one two/);
    expect(stopped!.content).not.toContain('ten');
    // The partial reply stays on screen as it was saved.
    expect(await logText(page)).toContain(stopped!.content.trim());

    suite.fake.enqueue({ text: 'A fresh answer.', chunkDelayMs: 50 });
    await button(page, 'Regenerate').click();
    await visible(messages(page).getByText('A fresh answer.'));
    await hidden(messages(page).getByText('(stopped)'));
    expect(await logText(page)).not.toContain('one two');
    await expect
      .poll(() => history(token, conversationId))
      .toEqual([
        { role: 'user', content: 'Count to ten', status: 'complete' },
        { role: 'assistant', content: 'A fresh answer.', status: 'complete' },
      ]);
    // The stopped reply stays, as version 1 of 2 of the answer.
    const versions = messages(page).getByRole('group', { name: 'Message versions' });
    await visible(versions.getByText('2/2'));
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await visible(messages(page).getByText('(stopped)'));
    expect(await logText(page)).not.toContain('A fresh answer.');
    await versions.getByRole('button', { name: 'Next version' }).click();
    await visible(messages(page).getByText('A fresh answer.'));

    await fullChat.click();
    await page.waitForURL(`**/chat/${pinned.id}?c=${conversationId}`);
    await visible(messages(page).getByText('A fresh answer.'));
    await page.reload();
    await visible(messages(page).getByText('Count to ten', { exact: true }));
    await visible(messages(page).getByText('A fresh answer.'));
    await close();
  });

  it('takes a message sent before its new conversation has started, and sends it once it has', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Quick' });
    // Starting the conversation takes a moment, as on a slow network or a busy server: Enter comes first.
    await routeRequests(page, '**/api/conversations', 'POST', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    suite.fake.enqueue('Here already.');
    await page.goto(`/chat/${bot.id}`);
    await send(page, 'A quick question');
    expect(shownConversation(page)).toBe(0);
    await visible(messages(page).getByText('Here already.'));
    expect(await input(page).inputValue()).toBe('');
    expect(await history(token, shownConversation(page))).toEqual([
      { role: 'user', content: 'A quick question', status: 'complete' },
      { role: 'assistant', content: 'Here already.', status: 'complete' },
    ]);
    await close();
  });

  it('says clearly when the model is down, keeps the message, and retries', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Fragile' });
    await page.goto(`/chat/${bot.id}`);
    await expect.poll(() => shownConversation(page)).toBeGreaterThan(0);

    suite.fake.enqueue({ status: 500, message: 'internal error' });
    await send(page, 'Are you there?');
    const alert = messages(page).getByRole('alert');
    await visible(alert.getByText('The language model failed to answer (error 500). Please try again.'));
    await visible(messages(page).getByText('Are you there?', { exact: true }));
    expect(await history(token, shownConversation(page))).toEqual([
      { role: 'user', content: 'Are you there?', status: 'complete' },
    ]);

    suite.fake.enqueue('Yes, I am back.');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await visible(messages(page).getByText('Yes, I am back.'));
    await hidden(messages(page).getByRole('alert'));
    expect(await messages(page).getByText('Are you there?', { exact: true }).count()).toBe(1);
    expect(await history(token, shownConversation(page))).toEqual([
      { role: 'user', content: 'Are you there?', status: 'complete' },
      { role: 'assistant', content: 'Yes, I am back.', status: 'complete' },
    ]);
    await close();
  });
});

describe('replies that never came', () => {
  it('shows a stopped question as stopped, and a question left without a reply as such', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Sleepy' });
    await page.goto(`/chat/${bot.id}`);
    await expect.poll(() => shownConversation(page)).toBeGreaterThan(0);

    // The model hangs; Stop ends the reply before it wrote anything.
    suite.fake.enqueue({ hang: true });
    await send(page, 'Hello?');
    await visible(typing(page));
    await button(page, 'Stop generating').click();
    await visible(messages(page).getByText('Stopped before a reply was written.'));
    expect(await messages(page).getByRole('alert').count()).toBe(0);
    expect(await messages(page).getByText('This message has no reply yet.').count()).toBe(0);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.screenshot({ path: 'screenshots/chat-stopped-before-text-phone.png' });
    await page.setViewportSize(VIEWPORTS.desktop);

    // The model fails; asking something else keeps the first question marked as unanswered.
    suite.fake.enqueue({ status: 500, message: 'internal error' });
    await send(page, 'Anyone there?');
    await visible(messages(page).getByRole('alert'));
    suite.fake.enqueue('Here now.');
    await send(page, 'Third try');
    await visible(messages(page).getByText('Here now.'));
    await hidden(messages(page).getByRole('alert'));
    expect(await messages(page).getByText('No reply to this message').count()).toBe(2);
    expect(await messages(page).getByText('Stopped before a reply was written.').count()).toBe(0);
    await page.screenshot({ path: 'screenshots/chat-unanswered-desktop.png' });
    await close();
  });
});

describe('full chat page', () => {
  it('lists the conversations newest first, switches, renames, deletes and starts new ones', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Librarian', description: 'Finds books for you.' });
    const apples = await seedConversation(token, bot, 'Tell me about apples', 'Apples are crisp.', 'Apples');
    const bananas = await seedConversation(token, bot, 'Tell me about bananas', 'Bananas are sweet.', 'Bananas');
    // A question saved without a reply, as the spec's simple chat leaves one when the model fails.
    const pending = await createConversation(suite.t, token, bot.id);
    await suite.t.request('PATCH', `/api/conversations/${pending.id}`, { token, body: { title: 'Unanswered' } });
    await suite.t.request('POST', '/api/messages', {
      token,
      body: { conversationId: pending.id, content: 'Still there?', role: 'user' },
    });

    await page.goto(`/chat/${bot.id}?c=${apples.id}`);
    await visible(messages(page).getByText('Apples are crisp.'));
    await expect.poll(() => conversationLinks(page)).toEqual(['Unanswered', 'Bananas', 'Apples']);
    expect(await page.title()).toBe('Chat with Librarian · Botty');

    await page.getByRole('button', { name: /^Bananas/ }).click();
    await expect.poll(() => shownConversation(page)).toBe(bananas.id);
    await visible(messages(page).getByText('Bananas are sweet.'));
    await hidden(messages(page).getByText('Apples are crisp.'));
    await page.reload();
    await visible(messages(page).getByText('Bananas are sweet.'));

    // The unanswered question offers to get its reply.
    await page.getByRole('button', { name: /^Unanswered/ }).click();
    await visible(messages(page).getByText('This message has no reply yet.'));
    suite.fake.enqueue('Yes, still here.');
    await messages(page).getByRole('button', { name: 'Retry' }).click();
    await visible(messages(page).getByText('Yes, still here.'));
    await hidden(messages(page).getByText('This message has no reply yet.'));

    await button(page, 'Rename Bananas').click();
    const title = page.getByRole('textbox', { name: 'Conversation title' });
    await title.fill('Banana bread');
    await title.press('Enter');
    await expect.poll(() => conversationLinks(page)).toEqual(['Unanswered', 'Banana bread', 'Apples']);
    expect((await suite.t.request<Conversation>('GET', `/api/conversations/${bananas.id}`, { token })).body.title).toBe(
      'Banana bread',
    );

    await page.getByRole('button', { name: /^Apples/ }).click();
    await expect.poll(() => shownConversation(page)).toBe(apples.id);
    await button(page, 'Delete Apples').click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
    await visible(dialog);
    await expectAccessible(page, 'delete conversation dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await hidden(page.getByRole('alertdialog'));
    await expect.poll(() => conversationLinks(page)).toEqual(['Unanswered', 'Banana bread']);
    expect((await suite.t.request('GET', `/api/conversations/${apples.id}`, { token })).status).toBe(404);
    // The deleted conversation was on screen, so the most recent remaining one takes its place.
    await expect.poll(() => shownConversation(page)).toBe(pending.id);

    await button(page, 'New conversation').click();
    await expect
      .poll(() => conversationLinks(page))
      .toEqual(['Conversation with Librarian', 'Unanswered', 'Banana bread']);
    await expect.poll(() => shownConversation(page)).not.toBe(pending.id);
    await hidden(messages(page).getByText('Still there?'));

    // Deleting every conversation leaves the chat usable: a new one is started.
    for (const name of ['Conversation with Librarian', 'Unanswered', 'Banana bread']) {
      await button(page, `Delete ${name}`).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await hidden(page.getByRole('alertdialog'));
    }
    await expect.poll(() => conversationLinks(page)).toEqual(['Conversation with Librarian']);
    const [fresh] = (await suite.t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, { token })).body;
    await expect.poll(() => shownConversation(page)).toBe(fresh!.id);
    await close();
  });

  it('is laid out as the spec says, says why a rename or a delete failed, and tells an inactive bot', async () => {
    const { page, token, close } = await signedIn({ width: 1280, height: 1000 });
    const bot = await createBot(suite.t, token, { name: 'Layout' });
    const question = 'Tell me, in as many words as it takes to fill a line of the chat, why bread rises in a warm oven';
    const keep = await seedConversation(token, bot, question, 'Yeast.', 'Bread');
    const gone = await seedConversation(token, bot, 'And cake?', 'Eggs.', 'Cake');
    await page.goto(`/chat/${bot.id}?c=${keep.id}`);
    await visible(messages(page).getByText('Yeast.'));

    // A 700 px panel on a tall enough window; the person's messages on the right, the bot's on the left, no
    // bubble wider than 80 % of the messages.
    const box = async (locator: Locator) => (await locator.boundingBox())!;
    expect(Math.round((await box(panel(page, 'Layout'))).height)).toBe(700);
    const log = await box(messages(page));
    const asked = await box(messages(page).getByText(question));
    const answered = await box(messages(page).getByText('Yeast.'));
    expect(asked.x + asked.width).toBeGreaterThan(log.x + log.width * 0.75);
    expect(asked.width).toBeLessThanOrEqual(log.width * 0.8);
    expect(asked.width).toBeGreaterThan(log.width * 0.5);
    expect(answered.x).toBeLessThan(log.x + log.width * 0.25);

    // Deleted in another tab meanwhile: renaming or deleting it says what the server said.
    expect((await suite.t.request('DELETE', `/api/conversations/${gone.id}`, { token })).status).toBeLessThan(300);
    const reason = (await suite.t.request('DELETE', `/api/conversations/${gone.id}`, { token })).body as {
      message: string;
    };
    await button(page, 'Rename Cake').click();
    const title = page.getByRole('textbox', { name: 'Conversation title' });
    await title.fill('Cakes');
    await title.press('Enter');
    await visible(toastWith(page, 'Error renaming conversation'));
    await visible(toastWith(page, reason.message));
    await title.press('Escape');
    await button(page, 'Delete Cake').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await visible(toastWith(page, 'Error deleting conversation'));
    await visible(toastWith(page, reason.message));

    await suite.t.request('PATCH', `/api/bots/${bot.id}`, { token, body: { active: false } });
    await page.reload();
    await visible(page.getByText('This botty is inactive. Activate it on the dashboard to chat with it.'));
    await page.getByRole('button', { name: 'Close chat' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await close();
  });

  it('says when a conversation could not be started, and starts it on Try again', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Starter' });
    // The server failing to start one (the browser's own routing: the real one has no such failure to give).
    const failing = (route: Route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Down' });
    await routeRequests(page, '**/api/conversations', 'POST', failing);
    await page.goto(`/chat/${bot.id}`);
    await visible(panel(page, 'Starter').getByText('The conversation could not be started.'));
    await page.unroute('**/api/conversations');
    await panel(page, 'Starter').getByRole('button', { name: 'Try again' }).click();
    await hidden(panel(page, 'Starter').getByText('The conversation could not be started.'));
    await expect.poll(() => shownConversation(page)).toBeGreaterThan(0);

    await routeRequests(page, '**/api/conversations', 'POST', failing);
    await button(page, 'New conversation').click();
    await visible(toastWith(page, 'Error starting conversation'));
    await visible(toastWith(page, 'There was a problem starting a new conversation.'));
    await close();
  });

  it('finds its bot from the path, the botId query or the remembered bot, and goes home without one', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Finder' });

    await page.goto(`/chat?botId=${bot.id}`);
    await page.waitForURL((url) => url.pathname === `/chat/${bot.id}`);
    await visible(panel(page, 'Finder'));
    // Opening the chat created one conversation, named in the address so a reload returns to it.
    await expect.poll(() => shownConversation(page)).toBeGreaterThan(0);
    const conversations = (await suite.t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, { token }))
      .body;
    expect(conversations.map((c) => c.id)).toEqual([shownConversation(page)]);

    await page.goto('/chat');
    await page.waitForURL((url) => url.pathname === `/chat/${bot.id}`);
    await visible(panel(page, 'Finder'));

    // No such bot, one deleted, or an address that names none: home, saying why.
    const deleted = await createBot(suite.t, token, { name: 'Gone' });
    await suite.t.request('DELETE', `/api/bots/${deleted.id}`, { token });
    for (const path of ['/chat/999999', `/chat/${deleted.id}`, '/chat/not-a-bot']) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/');
      await expect.poll(() => toastWith(page, 'Bot not found').isVisible(), { message: path }).toBe(true);
      expect(await toastWith(page, 'It does not exist, or it is not shared with you.').isVisible()).toBe(true);
    }
    await page.evaluate(() => localStorage.removeItem('activeBotId'));
    await page.goto('/chat');
    await page.waitForURL((url) => url.pathname === '/');

    // An unknown conversation id in the address gives way to the bot's most recent conversation.
    const [latest] = (await suite.t.request<Conversation[]>('GET', `/api/bots/${bot.id}/conversations`, { token }))
      .body;
    await page.goto(`/chat/${bot.id}?c=999999`);
    await expect.poll(() => shownConversation(page)).toBe(latest!.id);
    await visible(panel(page, 'Finder'));
    await close();
  });

  it('follows the newest message, and offers a way back down once the reader scrolls up', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Talker' });
    const long = Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} of a long answer that fills the panel.`).join(
      '\n\n',
    );
    const conversation = await seedConversation(token, bot, 'Say a lot', long);
    suite.fake.enqueue(long);
    await streamChat(suite.t, `/api/conversations/${conversation.id}/stream`, {
      token,
      body: { content: 'And again' },
    });

    await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
    await visible(messages(page).getByText('And again'));
    const distanceFromBottom = () => messages(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await expect.poll(distanceFromBottom).toBeLessThan(5);
    await hidden(button(page, 'Jump to latest'));

    await messages(page).hover();
    await page.mouse.wheel(0, -600);
    await visible(button(page, 'Jump to latest'));
    expect(await distanceFromBottom()).toBeGreaterThan(100);

    await button(page, 'Jump to latest').click();
    await expect.poll(distanceFromBottom).toBeLessThan(5);
    await hidden(button(page, 'Jump to latest'));
    await close();
  });
});

describe('following the conversation', () => {
  /** A long markdown reply, far taller than the list's first guess at a message's height. */
  const longReply = (n: number) =>
    Array.from(
      { length: 8 },
      (_, i) => `## Part ${i + 1} of reply ${n}\n\n- A point that fills a line.\n- Another.\n\nA closing paragraph.`,
    ).join('\n\n');
  const distanceFromBottom = (page: Page) =>
    messages(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  /** The wheel's smooth scrolling has come to rest, as it has long before a person has typed a question. */
  async function scrollingStopped(page: Page) {
    let last = Number.NaN;
    await expect
      .poll(async () => {
        const now = await distanceFromBottom(page);
        const still = now === last;
        last = now;
        return still;
      })
      .toBe(true);
  }
  /** The message is drawn inside the log's visible box, not behind its edges or the "Jump to latest" pill. */
  const inView = (page: Page, text: string) =>
    messages(page).evaluate((log, wanted) => {
      const box = log.getBoundingClientRect();
      const bubble = [...log.querySelectorAll('p, div')].findLast((el) => el.textContent === wanted);
      if (!bubble) return false;
      const rect = bubble.getBoundingClientRect();
      return rect.top >= box.top && rect.bottom <= box.bottom - 48;
    }, text);

  it('sending always brings the new message into view, and the stream is followed to its end', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Talker' });
    const conversation = await seedConversation(token, bot, 'Question 1', longReply(1));
    for (const n of [2, 3]) {
      suite.fake.enqueue(longReply(n));
      await streamChat(suite.t, `/api/conversations/${conversation.id}/stream`, {
        token,
        body: { content: `Question ${n}` },
      });
    }
    await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
    await visible(messages(page).getByText('Part 8 of reply 3'));
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(5);

    // Scrolled up, then send: the question comes into view and the streamed reply is followed.
    await messages(page).hover();
    await page.mouse.wheel(0, -900);
    await visible(button(page, 'Jump to latest'));
    await scrollingStopped(page);
    const reply4 = longReply(4);
    const release = heldReply({ text: reply4, chunks: reply4.split(/(?=\n\n)/), chunkDelayMs: 40 });
    await send(page, 'Question 4');
    await expect.poll(() => inView(page, 'Question 4')).toBe(true);
    await hidden(button(page, 'Jump to latest'));
    release();
    await visible(messages(page).getByText('Part 8 of reply 4'));
    await visible(messages(page).getByRole('button', { name: 'Regenerate' }));
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(5);
    await hidden(button(page, 'Jump to latest'));

    // Sending again, without touching the scroll.
    suite.fake.enqueue(longReply(5));
    await send(page, 'Question 5');
    await visible(messages(page).getByText('Part 8 of reply 5'));
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(5);
    await hidden(button(page, 'Jump to latest'));

    // Editing an earlier question and resending brings the new branch into view as well.
    await messages(page).hover();
    await page.mouse.wheel(0, -700);
    await visible(button(page, 'Jump to latest'));
    await scrollingStopped(page);
    const question = messages(page).getByText('Question 5', { exact: true });
    await question.hover();
    await messages(page).getByRole('button', { name: 'Edit message' }).last().click();
    await messages(page).getByRole('textbox').fill('Question 5, shorter');
    suite.fake.enqueue(longReply(6));
    await messages(page).getByRole('button', { name: 'Send', exact: true }).click();
    await visible(messages(page).getByText('Part 8 of reply 6'));
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(5);
    await hidden(button(page, 'Jump to latest'));
    await close();
  });

  it('a reader who scrolls up during the stream is left there, with a way back down', async () => {
    const { page, token, close } = await signedIn();
    const bot = await createBot(suite.t, token, { name: 'Talker' });
    const conversation = await seedConversation(token, bot, 'Question 1', longReply(1));
    await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
    await visible(messages(page).getByText('Part 8 of reply 1'));
    const reply = longReply(2);
    suite.fake.enqueue({ text: reply, chunks: reply.split(/(?=\n\n)/), chunkDelayMs: 60 });
    await send(page, 'Question 2');
    await visible(messages(page).getByText('Part 2 of reply 2'));
    await messages(page).hover();
    await page.mouse.wheel(0, -400);
    await visible(messages(page).getByRole('button', { name: 'Regenerate' }));
    expect(await distanceFromBottom(page)).toBeGreaterThan(100);
    await visible(button(page, 'Jump to latest'));

    // Back at the bottom by hand, the pill goes rather than sitting over the reply's actions.
    await page.mouse.wheel(0, 5000);
    await hidden(button(page, 'Jump to latest'));
    await messages(page).getByRole('button', { name: 'Regenerate' }).click({ trial: true, timeout: 2000 });

    // The keyboard lets go of the bottom as the wheel does.
    await messages(page).focus();
    await page.keyboard.press('PageUp');
    await visible(button(page, 'Jump to latest'));
    await scrollingStopped(page);
    await button(page, 'Jump to latest').click();
    await expect.poll(() => distanceFromBottom(page)).toBeLessThan(5);
    await close();
  });
});

describe('offline mode', () => {
  it('says no model is connected, and the reply explains how to connect one', async () => {
    const offline = await startTestApp();
    try {
      await signUp(offline, { username: 'offline_owner' });
      const { page, token, close } = await signedIn(VIEWPORTS.desktop, offline);
      const bot = await createBot(offline, token, {
        name: 'Quiet Bot',
        description: 'Helps with anything.',
        icon: 'brain',
      });
      await page.goto(`/chat/${bot.id}`);
      await visible(
        panel(page, 'Quiet Bot')
          .getByRole('note')
          .getByText('No language model is connected — replies explain how to connect one.'),
      );
      await expect.poll(() => shownConversation(page)).toBeGreaterThan(0);

      await send(page, 'Hello?');
      await visible(
        messages(page).getByText('no language model is connected to this Botty server yet', { exact: false }),
      );
      await visible(messages(page).locator('strong').getByText('LLM_BASE_URL'));
      await expectAccessible(page, 'offline chat');
      await close();
    } finally {
      await offline.close();
    }
  });
});

describe('looks', () => {
  it('the chat is accessible and fits phone and desktop widths', async () => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const { page, token, close } = await signedIn(viewport);
      const bot = await createBot(suite.t, token, CHEF);
      await seedConversation(
        token,
        bot,
        'What can I cook with rice?',
        'Leftover rice, fried:\n\n- Eggs\n- Peas',
        'Rice ideas',
      );
      const conversation = await seedConversation(token, bot, 'Plan my week', MARKDOWN_REPLY, 'Weeknight plan');
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      const overflow = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      const shots = async (name: string) => {
        await expectAccessible(page, `${name} at ${size}`);
        expect(await fits(), `${name} scrolls sideways`).toBe(true);
        await snap(page, `${name}-${size}`);
      };

      await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
      await visible(messages(page).getByText('stays text', { exact: false }));
      // The chat page is the window: its message box and composer on screen without scrolling the page.
      expect(await overflow()).toBe(0);
      await shots('chat-page');

      const release = heldReply({ text: LONG_REPLY, chunks: LONG_REPLY.match(/\S+\s*/g)!, chunkDelayMs: 2 });
      await send(page, 'One more idea?');
      await visible(typing(page));
      await shots('chat-typing');
      release();
      await visible(messages(page).getByText('Thinking done.'));
      // Streamed: its twelve ideas one list (drawn from parts of eight, decision 0063), its blocks in groups.
      const streamed = messages(page).locator('.md-streamed').last();
      expect(await streamed.locator('ol').count()).toBe(1);
      expect(await streamed.locator('ol > li').count()).toBe(12);
      await shots('chat-streamed');

      if (size === 'phone') {
        await button(page, 'Conversations').click();
        const drawer = page.getByRole('dialog', { name: 'Conversations' });
        await visible(drawer.getByRole('button', { name: /^Rice ideas/ }));
        await shots('chat-drawer');
        await drawer.getByRole('button', { name: /^Rice ideas/ }).click();
        await hidden(page.getByRole('dialog'));
        await visible(messages(page).getByText('Leftover rice, fried:'));
      }

      await emulateColorScheme(page, 'dark');
      await shots('chat-page-dark');
      await emulateColorScheme(page, 'light');

      await page.goto('/dashboard');
      await page.getByRole('listitem').filter({ hasText: CHEF.name }).getByRole('button', { name: 'Chat' }).click();
      await visible(panel(page, CHEF.name));
      // Under the page's heading on a desktop, the panel ends within the window.
      if (size === 'desktop') expect(await overflow()).toBe(0);
      await shots('dashboard-chat');

      await page.evaluate((ids) => localStorage.setItem('pinnedBots', JSON.stringify(ids)), [bot.id]);
      await page.goto('/');
      await page
        .getByRole('complementary', { name: 'Your Top Botties' })
        .getByRole('button', { name: new RegExp(CHEF.name) })
        .click();
      await visible(panel(page, CHEF.name));
      if (size === 'desktop') expect(await overflow()).toBe(0);
      await shots('home-chat');
      await close();
    }
  });
});
