import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent, Message } from '@shared/contracts/chat';
import { applyStreamEvent, draftMessage, isDraft, withoutLastReplies } from './apply-stream-event';

const AT = '2025-01-01T00:00:00.000Z';
const message = (id: number, role: Message['role'], content: string): Message => ({
  id,
  conversationId: 7,
  role,
  content,
  status: 'complete',
  createdAt: AT,
  sources: [],
  steps: [],
  attachments: [],
});

const run = (list: Message[], events: ChatStreamEvent[]) => events.reduce(applyStreamEvent, list);

describe('applyStreamEvent', () => {
  const history = [message(1, 'user', 'Hi'), message(2, 'assistant', 'Hello')];
  const draftUser = draftMessage(history, { conversationId: 7, role: 'user', content: 'Why?', createdAt: AT });
  const savedUser = message(3, 'user', 'Why?');

  it('puts the saved user message in place of its draft', () => {
    const list = applyStreamEvent([...history, draftUser], { event: 'user-message', data: savedUser });
    expect(list).toEqual([...history, savedUser]);
  });

  it('starts a draft reply with the first text and grows it with the next', () => {
    const list = run(
      [...history, savedUser],
      [
        { event: 'delta', data: { text: 'Because ' } },
        { event: 'delta', data: { text: 'it is.' } },
      ],
    );
    expect(list).toHaveLength(4);
    expect(list.slice(0, 3)).toEqual([...history, savedUser]);
    expect(list[3]).toMatchObject({ role: 'assistant', content: 'Because it is.', conversationId: 7 });
    expect(isDraft(list[3]!)).toBe(true);
  });

  it('gives the draft reply an id no other message of the list has', () => {
    const list = applyStreamEvent([...history, draftUser], { event: 'delta', data: { text: 'Hm' } });
    const ids = list.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(list.filter(isDraft)).toHaveLength(2);
  });

  it('replaces the draft reply with the saved one when done', () => {
    const saved = message(4, 'assistant', 'Because it is.');
    const list = run(
      [...history, draftUser],
      [
        { event: 'user-message', data: savedUser },
        { event: 'delta', data: { text: 'Because it is.' } },
        { event: 'done', data: saved },
      ],
    );
    expect(list).toEqual([...history, savedUser, saved]);
    expect(list.some(isDraft)).toBe(false);
  });

  it('leaves the list as it is for a stop before any text and for an error', () => {
    const list = [...history, savedUser];
    expect(applyStreamEvent(list, { event: 'done', data: null })).toBe(list);
    const partial = applyStreamEvent(list, { event: 'delta', data: { text: 'Be' } });
    expect(applyStreamEvent(partial, { event: 'error', data: { message: 'The model failed', messageId: 4 } })).toBe(
      partial,
    );
  });

  it('does not change the list it was given', () => {
    const list = [...history, draftUser];
    const copy = structuredClone(list);
    run(list, [
      { event: 'user-message', data: savedUser },
      { event: 'delta', data: { text: 'x' } },
      { event: 'done', data: message(4, 'assistant', 'x') },
    ]);
    expect(list).toEqual(copy);
  });
});

describe('withoutLastReplies', () => {
  it('keeps everything up to the last user message', () => {
    const list = [
      message(1, 'user', 'a'),
      message(2, 'assistant', 'b'),
      message(3, 'user', 'c'),
      message(4, 'assistant', 'd'),
    ];
    expect(withoutLastReplies(list)).toEqual(list.slice(0, 3));
  });

  it('keeps nothing without a user message', () => {
    expect(withoutLastReplies([message(2, 'assistant', 'Hello')])).toEqual([]);
  });
});

describe('draftMessage', () => {
  it('counts down from -1 below every id already in the list', () => {
    expect(draftMessage([], { conversationId: 7, role: 'user', content: 'a', createdAt: AT }).id).toBe(-1);
    const first = draftMessage([message(5, 'user', 'a')], {
      conversationId: 7,
      role: 'user',
      content: 'b',
      createdAt: AT,
    });
    expect(first.id).toBe(-1);
    expect(draftMessage([first], { conversationId: 7, role: 'assistant', content: '', createdAt: AT }).id).toBe(-2);
  });
});
