import type { ChatStreamEvent, Message } from '@shared/contracts/chat';

/** Messages shown before the server has saved them carry negative ids; the saved copy replaces them. */
export const isDraft = (message: Message) => message.id < 0;

/** A message on screen before the server saved it, with the next free negative id of the list. */
export function draftMessage(
  list: readonly Message[],
  fields: Pick<Message, 'conversationId' | 'role' | 'content' | 'createdAt'>,
): Message {
  const id = Math.min(0, ...list.map((message) => message.id)) - 1;
  return { ...fields, id, status: 'complete', sources: [], steps: [], attachments: [] };
}

/** Everything up to the last user message: what a regeneration keeps. */
export function withoutLastReplies(messages: readonly Message[]): Message[] {
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return messages.slice(0, lastUser + 1);
}

const isDraftReply = (message: Message) => isDraft(message) && message.role === 'assistant';

/**
 * The conversation's messages after one event of the reply stream (decision record 0006): the saved user
 * message replaces its draft, the first text starts a draft reply and the next texts grow it, and the saved
 * reply takes the draft's place. An error, or a stop before any text, leaves the list as it is: what the
 * server kept is fetched afterwards.
 */
export function applyStreamEvent(list: Message[], event: ChatStreamEvent): Message[] {
  switch (event.event) {
    case 'user-message':
      return list.map((message) => (isDraft(message) && message.role === 'user' ? event.data : message));
    case 'delta': {
      const last = list.at(-1);
      if (last && isDraftReply(last))
        return [...list.slice(0, -1), { ...last, content: last.content + event.data.text }];
      // The draft's time is never shown; the saved reply brings the server's.
      const started = draftMessage(list, {
        conversationId: last?.conversationId ?? 0,
        role: 'assistant',
        content: event.data.text,
        createdAt: last?.createdAt ?? '',
      });
      return [...list, started];
    }
    case 'done':
      return event.data ? [...list.filter((message) => !isDraftReply(message)), event.data] : list;
    default:
      return list;
  }
}
