import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent, Message, Source } from '@shared/contracts/chat';
import {
  applyStreamEvent,
  draftMessage,
  isDraft,
  isDraftReply,
  rowKey,
  withoutLastReplies,
} from './apply-stream-event';

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

  it('starts an empty streaming draft on start, fills in sources and steps, and keeps them in the saved reply', () => {
    const sources: Source[] = [
      { n: 1, kind: 'web', title: 'Vitamin D', snippet: 'Sunlight helps.', url: 'https://nih.gov/d' },
    ];
    const list = run(
      [...history, savedUser],
      [
        { event: 'start', data: { messageId: 4 } },
        { event: 'step', data: { index: 0, kind: 'search', query: 'vitamin d', status: 'running' } },
        { event: 'step', data: { index: 1, kind: 'open', url: 'https://nih.gov/d', status: 'running' } },
        { event: 'step', data: { index: 0, kind: 'search', query: 'vitamin d', status: 'done' } },
        {
          event: 'step',
          data: { index: 1, kind: 'open', url: 'https://nih.gov/d', status: 'failed', error: 'Timed out' },
        },
        { event: 'sources', data: { sources } },
      ],
    );
    const draft = list.at(-1)!;
    expect(isDraftReply(draft)).toBe(true);
    expect(draft).toMatchObject({ content: '', status: 'streaming', sources });
    expect(draft.steps).toEqual([
      { kind: 'search', query: 'vitamin d', status: 'done' },
      { kind: 'open', url: 'https://nih.gov/d', status: 'failed', error: 'Timed out' },
    ]);
    const grown = applyStreamEvent(list, { event: 'delta', data: { text: 'Yes [1].' } });
    expect(grown.at(-1)).toMatchObject({ content: 'Yes [1].', sources, steps: draft.steps });
    expect(grown).toHaveLength(4);
  });

  it('rebuilds a reply replayed from its start in place of the partial copy saved so far', () => {
    const partial: Message = { ...message(4, 'assistant', 'Because'), status: 'streaming' };
    const list = run(
      [...history, savedUser, partial],
      [
        { event: 'user-message', data: savedUser },
        { event: 'start', data: { messageId: 4 } },
        { event: 'delta', data: { text: 'Because ' } },
        { event: 'delta', data: { text: 'it is.' } },
      ],
    );
    expect(list.slice(0, 3)).toEqual([...history, savedUser]);
    expect(list).toHaveLength(4);
    expect(list[3]).toMatchObject({ content: 'Because it is.', status: 'streaming' });
    const saved = message(4, 'assistant', 'Because it is.');
    expect(applyStreamEvent(list, { event: 'done', data: saved })).toEqual([...history, savedUser, saved]);
  });

  it('takes the stored copy away when the saved reply arrives without a draft', () => {
    const partial: Message = { ...message(4, 'assistant', 'Bec'), status: 'streaming' };
    const saved = message(4, 'assistant', 'Because.');
    expect(applyStreamEvent([...history, savedUser, partial], { event: 'done', data: saved })).toEqual([
      ...history,
      savedUser,
      saved,
    ]);
  });

  it('drops an empty draft reply when the reply is stopped before any text', () => {
    const list = applyStreamEvent([...history, savedUser], { event: 'start', data: { messageId: 4 } });
    expect(applyStreamEvent(list, { event: 'done', data: null })).toEqual([...history, savedUser]);
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
  it('counts down below every id of the list negated, so no draft keys as a saved message', () => {
    expect(draftMessage([], { conversationId: 7, role: 'user', content: 'a', createdAt: AT }).id).toBe(-1);
    const first = draftMessage([message(5, 'user', 'a')], {
      conversationId: 7,
      role: 'user',
      content: 'b',
      createdAt: AT,
    });
    expect(first.id).toBe(-6);
    const reply = draftMessage([message(5, 'user', 'a'), first], {
      conversationId: 7,
      role: 'assistant',
      content: '',
      createdAt: AT,
    });
    expect(reply.id).toBe(-7);
    expect(rowKey(reply)).toBe(7);
  });
});

describe('rowKey', () => {
  it('keys a streaming reply as its saved copy from its start on, so the copy takes over its row', () => {
    const history = [message(1, 'user', 'Hi'), message(2, 'assistant', 'Hello'), message(3, 'user', 'Why?')];
    const streaming = run(history, [
      { event: 'start', data: { messageId: 4 } },
      { event: 'delta', data: { text: 'Because' } },
    ]);
    expect(isDraftReply(streaming[3]!)).toBe(true);
    const saved = applyStreamEvent(streaming, { event: 'done', data: message(4, 'assistant', 'Because') });
    expect(streaming.map(rowKey)).toEqual(saved.map(rowKey));
    expect(saved.map(rowKey)).toEqual([1, 2, 3, 4]);
  });
});
