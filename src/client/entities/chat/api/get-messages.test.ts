import { describe, expect, it } from 'vitest';
import type { Message } from '@shared/contracts/chat';
import { withNewestPage, withOlderPage } from './get-messages';

const message = (id: number): Message => ({
  id,
  conversationId: 1,
  role: id % 2 ? 'user' : 'assistant',
  content: `Message ${id}`,
  status: 'complete',
  createdAt: '2025-01-01T00:00:00.000Z',
  sources: [],
  steps: [],
  attachments: [],
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
const ids = (messages: Message[]) => messages.map((m) => m.id);

describe('a conversation’s window of messages', () => {
  it('is the whole conversation when the newest page is shorter than a page, else the page with older left', () => {
    expect(withNewestPage(undefined, range(1, 3), 4)).toEqual({ messages: range(1, 3), older: false });
    expect(withNewestPage(undefined, range(5, 8), 4)).toEqual({ messages: range(5, 8), older: true });
  });

  it('puts older pages in front until one comes back short', () => {
    const newest = withNewestPage(undefined, range(5, 8), 4);
    const before = withOlderPage(newest, range(1, 4), 4);
    expect(ids(before.messages)).toEqual(ids(range(1, 8)));
    expect(before.older).toBe(true);
    expect(withOlderPage(before, [], 4).older).toBe(false);
  });

  it('keeps the older messages loaded when the newest page is fetched again after a reply', () => {
    const loaded = { messages: range(1, 8), older: true };
    const refreshed = withNewestPage(loaded, [...range(7, 8), message(9), message(10)], 4);
    expect(ids(refreshed.messages)).toEqual(ids(range(1, 10)));
    expect(refreshed.older).toBe(true);
  });

  it('starts again from the page when the conversation changed further back than the page reaches', () => {
    const loaded = { messages: range(1, 8), older: false };
    // Another tab edited message 2: the branch now runs 1, 20, 21, … and the page holds none of those loaded.
    const page = [message(20), message(21), message(22), message(23)];
    expect(withNewestPage(loaded, page, 4)).toEqual({ messages: page, older: true });
  });
});
