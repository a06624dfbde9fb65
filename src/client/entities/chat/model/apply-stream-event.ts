import type { ChatStreamEvent, Message } from '@shared/contracts/chat';

/** Messages shown before the server has saved them carry negative ids; the saved copy replaces them. */
export const isDraft = (message: Message) => message.id < 0;

/**
 * A message on screen before the server saved it, with a negative id below every id of the list negated: a draft
 * reply's row key (rowKey) is then never a saved message's.
 */
export function draftMessage(
  list: readonly Message[],
  fields: Pick<Message, 'conversationId' | 'role' | 'content' | 'createdAt'> & Partial<Pick<Message, 'attachments'>>,
): Message {
  const id = Math.min(0, ...list.map((message) => -Math.abs(message.id))) - 1;
  return { status: 'complete', sources: [], steps: [], attachments: [], ...fields, id };
}

/** Everything up to the last user message: what a regeneration keeps. */
export function withoutLastReplies(messages: readonly Message[]): Message[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return messages.slice(0, lastUser + 1);
}

export const isDraftReply = (message: Message) => isDraft(message) && message.role === 'assistant';

/**
 * A message's key in the list. A reply being written carries its saved id negated from its `start` on, so it keys
 * as its saved copy will: the row, and the reply's rendered markdown in it, stay when the copy replaces it.
 */
export const rowKey = (message: Message) => (isDraftReply(message) ? -message.id : message.id);

/** The list with its draft reply changed, the draft started (empty, `streaming`) when there is none yet. */
function withDraftReply(list: Message[], change: (reply: Message) => Message): Message[] {
  const last = list.at(-1);
  if (last && isDraftReply(last)) return [...list.slice(0, -1), change(last)];
  // The draft's time is never shown; the saved reply brings the server's.
  const started = draftMessage(list, {
    conversationId: last?.conversationId ?? 0,
    role: 'assistant',
    content: '',
    createdAt: last?.createdAt ?? '',
  });
  return [...list, change({ ...started, status: 'streaming' })];
}

/**
 * The conversation's messages after one event of the reply stream (decision record 0006): the saved user
 * message replaces its draft; `start` begins a draft reply in place of any saved copy of the same reply (a
 * resumed stream replays the reply from its start, so the partial text saved so far is rebuilt, not doubled);
 * sources, steps and text fill the draft; the saved reply takes its place. An error, or a stop before any
 * text, leaves the list as it is: what the server kept is fetched afterwards.
 */
export function applyStreamEvent(list: Message[], event: ChatStreamEvent): Message[] {
  switch (event.event) {
    case 'user-message':
      if (list.some((message) => message.id === event.data.id)) return list;
      return list.map((message) => (isDraft(message) && message.role === 'user' ? event.data : message));
    case 'start': {
      const rest = list.filter((message) => message.id !== event.data.messageId && !isDraftReply(message));
      return withDraftReply(rest, (reply) => ({ ...reply, id: -event.data.messageId }));
    }
    case 'sources':
      return withDraftReply(list, (reply) => ({ ...reply, sources: event.data.sources }));
    case 'step': {
      const { index, ...step } = event.data;
      return withDraftReply(list, (reply) => {
        const steps = [...reply.steps];
        steps[index] = step;
        return { ...reply, steps };
      });
    }
    case 'delta':
      return withDraftReply(list, (reply) => ({ ...reply, content: reply.content + event.data.text }));
    case 'done': {
      const saved = event.data;
      if (!saved) return list.some(isDraftReply) ? list.filter((message) => !isDraftReply(message)) : list;
      return [...list.filter((message) => !isDraftReply(message) && message.id !== saved.id), saved];
    }
    default:
      return list;
  }
}
