import { describe, expect, it } from 'vitest';
import type { Conversation } from '@shared/contracts/chat';
import { withConversationFirst } from './create-conversation';

const conversation = (id: number, title = `Conversation ${id}`): Conversation => ({
  id,
  botId: 1,
  userId: 1,
  title,
  titleSource: 'default',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const ids = (list: Conversation[]) => list.map((c) => c.id);

describe('a started conversation in the cached list', () => {
  it('goes to the top of the list when it is new', () => {
    expect(ids(withConversationFirst([conversation(2), conversation(1)], conversation(3)))).toEqual([3, 2, 1]);
  });

  it('moves to the top, once, when the server handed back one the list already has', () => {
    // The latest conversation, still empty, is reused rather than a new one made; here renamed on the way.
    const list = withConversationFirst([conversation(1), conversation(2)], conversation(2, 'Renamed'));
    expect(ids(list)).toEqual([2, 1]);
    expect(list[0]!.title).toBe('Renamed');
  });
});
