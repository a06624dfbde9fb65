import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createBot } from '../tests/support/factories';
import { startTestAppWithModel } from '../tests/support/test-app';
import { appInBrowser, expectAccessible, hidden, signedInPage, snap, visible, VIEWPORTS } from './support/browser';
import { scrollLogToTop, seededText, seedLongConversation } from './support/long-conversation';

const suite = appInBrowser(startTestAppWithModel);

const SIZE = 2_000;
const HIT = 1_000;
const GREETING = 'Welcome to the archive.';
const hitText = `${seededText(HIT)} about the lighthouse keeper`;
const text = (i: number) => (i === HIT ? hitText : seededText(i));

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** Whether the element is inside the message log's visible box, not only drawn somewhere in its scroll area. */
const inView = (element: Locator) =>
  element.evaluate((node) => {
    const scroller = node.closest('[role="log"]')!.getBoundingClientRect();
    const box = node.getBoundingClientRect();
    return box.top >= scroller.top - 1 && box.bottom <= scroller.bottom + 1;
  });

/** A markdown reply of `lines` numbered lines (a heading, a list, a code block, a table), streamed a line at a time. */
function streamedReply(lines: number) {
  const chunks = [
    '## The keeper’s log\n\n',
    ...Array.from({ length: lines }, (_, i) => `- Entry ${String(i + 1).padStart(2, '0')}: the lamp was lit.\n`),
    '\n```ts\nconst lamp = { lit: true };\n```\n\n',
    '| Night | Ships |\n|---|---|\n| 1 | 3 |\n\nEnd of the log.',
  ];
  return { text: chunks.join(''), chunks, chunkDelayMs: 50 };
}

interface FollowWatch {
  frames: number;
  /** The list was at its bottom while busy: what it sends is in view, and following is measured from then on. */
  reached: boolean;
  /** The furthest the list's bottom fell below the view while the reply streamed, in screens. */
  worst: number;
  running: boolean;
}

/**
 * Sends a question whose reply streams in, and checks the list follows it: each time the list grows while the
 * reply is written, the newest text never falls half a screen below the view as it is painted (a list that stays
 * put falls the reply's whole height behind), and its last line is on screen once it is done.
 *
 * Following is measured from the moment the list is first seen at its bottom while busy: sending from far up the
 * conversation (a search hit) takes the list down at once, but the first growth may be looked at before that jump
 * has landed, and it would count the whole way back (184 screens once, in a loaded clean-clone run).
 *
 * The list is looked at when it has grown, after the app has answered the growth: from a ResizeObserver made after
 * the app's, whose callbacks run in the order the observers were made, before the frame is painted. Looked at from
 * an animation frame instead, the figure was the growth since the last frame, before the app had answered it: on a
 * busy machine, a stall of the page let many lines in at once, and 0.5 to 0.6 of a phone's screen was seen that
 * was never painted.
 */
async function followsStreamingReply(page: Page, lines: number, screenshot: string) {
  await log(page).evaluate((element) => {
    const watch: FollowWatch = { frames: 0, reached: false, worst: 0, running: true };
    Object.assign(window, { followWatch: watch });
    const busy = () => element.getAttribute('aria-busy') === 'true';
    const tick = () => {
      if (busy()) watch.frames += 1;
      if (watch.running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const grown = new ResizeObserver(() => {
      if (!watch.running || !busy()) return;
      const below = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (!watch.reached) watch.reached = below <= 2;
      else watch.worst = Math.max(watch.worst, below / element.clientHeight);
    });
    grown.observe(element.firstElementChild!);
  });
  suite.fake.enqueue(streamedReply(lines));
  await input(page).fill('Read me the keeper’s log');
  await input(page).press('Enter');
  await visible(log(page).getByText('Entry 10: the lamp was lit.'));
  await snap(page, screenshot);
  const end = log(page).getByText('End of the log.');
  await visible(end);
  await visible(page.getByRole('button', { name: 'Send message' }));
  await expect.poll(() => inView(end)).toBe(true);
  const watch = await page.evaluate(() => {
    const { followWatch } = window as unknown as { followWatch: FollowWatch };
    followWatch.running = false;
    return followWatch;
  });
  expect(watch.frames).toBeGreaterThan(10);
  expect(watch.reached).toBe(true);
  expect(watch.worst).toBeLessThan(0.5);
}

describe('a long conversation', () => {
  it('opens 2,000 messages at the end with one page, scrolls to the first, finds a search hit in the middle and follows a streaming reply', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t);
    const bot = await createBot(suite.t, token, {
      name: 'Archivist',
      config: { tone: 'friendly', greeting: GREETING },
    });
    const conversation = await seedLongConversation(suite.t, token, bot.id, SIZE, text);
    const fetched: URLSearchParams[] = [];
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/conversations/${conversation.id}/messages`) fetched.push(url.searchParams);
      if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
    });

    await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
    await visible(log(page).getByText(seededText(SIZE - 1), { exact: true }));
    await expect.poll(() => inView(log(page).getByText(seededText(SIZE - 1), { exact: true }))).toBe(true);
    // One page from the end; the greeting opens the conversation, so it waits for the start to be loaded.
    expect(fetched.map((params) => params.toString())).toEqual(['limit=100']);
    // What the page reads first was sent before its code loaded (early requests), each once: the app took those.
    for (const path of [
      '/api/auth/user',
      '/api/chat/status',
      `/api/bots/${bot.id}`,
      `/api/bots/${bot.id}/conversations`,
    ])
      expect(
        asked.filter((p) => p === path),
        path,
      ).toHaveLength(1);
    await hidden(log(page).getByText(GREETING));
    expect(await log(page).locator('[data-index]').count()).toBeLessThan(60);
    await expectAccessible(page, 'a 2,000-message conversation');
    await snap(page, 'long-conversation-1280');

    // Up to the first message, the pages before loading as the reader gets near them, each from where the last began.
    const scroll = await scrollLogToTop(log(page), seededText(0));
    expect(scroll.atTop).toBe(true);
    await visible(log(page).getByText(seededText(0), { exact: true }));
    await visible(log(page).getByText(GREETING));
    expect(scroll.mostRows).toBeLessThan(60);
    expect(fetched.length).toBeGreaterThanOrEqual(SIZE / 100);
    expect(fetched.every((params) => params.get('limit') === '100')).toBe(true);
    const cursors = fetched.slice(1).map((params) => Number(params.get('cursor')));
    expect(cursors).toEqual([...cursors].sort((a, b) => b - a));

    // History finds the message in the middle; the chat opens at it, fetching the pages up to it on a fresh load.
    await page.goto('/history');
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('lighthouse');
    const result = page.getByRole('list', { name: 'Search results' }).getByRole('link');
    await visible(result);
    const href = await result.first().getAttribute('href');
    expect(href).toContain(`m=`);
    await page.goto(href!);
    const hit = log(page).getByText(hitText, { exact: true });
    await visible(hit);
    await expect.poll(() => inView(hit)).toBe(true);
    await hidden(log(page).getByText(seededText(SIZE - 1), { exact: true }));
    await visible(page.getByRole('button', { name: 'Jump to latest' }));
    await expectAccessible(page, 'a search hit in a long conversation');
    await snap(page, 'long-conversation-search-hit-1280');

    // Sending brings the newest message back, and the list follows the reply as it streams.
    await followsStreamingReply(page, 40, 'long-conversation-streaming-1280');
    await expectAccessible(page, 'a long conversation after a streamed reply');
    await snap(page, 'long-conversation-streamed-1280');
    await close();
  });

  it('on a phone, opens at the end and follows a streaming reply', async () => {
    const { page, token, close } = await signedInPage(suite.browser, suite.t, VIEWPORTS.phone);
    const bot = await createBot(suite.t, token, { name: 'Archivist' });
    const conversation = await seedLongConversation(suite.t, token, bot.id, SIZE, text);
    await page.goto(`/chat/${bot.id}?c=${conversation.id}`);
    const newest = log(page).getByText(seededText(SIZE - 1), { exact: true });
    await visible(newest);
    await expect.poll(() => inView(newest)).toBe(true);
    await expectAccessible(page, 'a 2,000-message conversation on a phone');
    await snap(page, 'long-conversation-390');
    await followsStreamingReply(page, 30, 'long-conversation-streaming-390');
    await expectAccessible(page, 'a streamed reply on a phone');
    await snap(page, 'long-conversation-streamed-390');
    await close();
  });
});
