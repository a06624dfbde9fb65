import { setTimeout as sleep } from 'node:timers/promises';
import { createSseParser, type SseMessage } from '../../src/shared/chat/sse';
import {
  chatStreamEventSchema,
  type ChatStreamEvent,
  type Conversation,
  type Message,
} from '../../src/shared/contracts/chat';
import { widgetStreamEventSchema, type WidgetStreamEvent } from '../../src/shared/contracts/widget';
import type { ApiClient } from './api-client';

/** Creates a conversation through the API as the owner of `token`. */
export async function createConversation(t: ApiClient, token: string, botId: number): Promise<Conversation> {
  const res = await t.request<Conversation>('POST', '/api/conversations', { token, body: { botId } });
  if (res.status !== 201 && res.status !== 200)
    throw new Error(`create conversation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function messagesOf(t: ApiClient, token: string, conversationId: number): Promise<Message[]> {
  const res = await t.request<Message[]>('GET', `/api/conversations/${conversationId}/messages`, { token });
  if (res.status !== 200) throw new Error(`list messages failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export type ReceivedEvent = ChatStreamEvent & { at: number; id?: string };

function toReceivedEvent({ event, data, id }: SseMessage): ReceivedEvent {
  return { ...chatStreamEventSchema.parse({ event, data: JSON.parse(data) }), at: performance.now(), id };
}

/** Every event of a widget reply's stream, read to its end and checked against the widget's contract. */
export async function readWidgetEvents(res: Response): Promise<WidgetStreamEvent[]> {
  const parser = createSseParser();
  return parser
    .push(await res.text())
    .map(({ event, data }) => widgetStreamEventSchema.parse({ event, data: JSON.parse(data) }));
}

/** Every event of a text/event-stream response, read to its end and checked against the contract. */
export async function readEvents(res: Response): Promise<ReceivedEvent[]> {
  const parser = createSseParser();
  return parser.push(await res.text()).map(toReceivedEvent);
}

/**
 * A streaming call read as it arrives, the way a browser client reads it: every event is checked against the
 * shared contract and time-stamped, so tests can tell a stream from a reply delivered all at once.
 */
export async function openChatStream(t: ApiClient, path: string, init: { token: string; body?: unknown }) {
  const connection = new AbortController();
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${init.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: connection.signal,
  });
  if (res.status !== 200) throw new Error(`stream refused: ${res.status} ${await res.text()}`);

  const events: ReceivedEvent[] = [];
  const parser = createSseParser();
  const read = async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        for (const message of parser.push(chunk.value)) events.push(toReceivedEvent(message));
      }
    } catch (err) {
      if (!connection.signal.aborted) throw err;
    }
    return events;
  };
  const finished = read();
  let ended = false;
  void finished.finally(() => (ended = true)).catch(() => {});

  return {
    headers: res.headers,
    events,
    /** Every event, once the server ended the stream. */
    finished,
    /** The first event that matches, waiting for it to arrive. */
    async waitFor(match: (event: ReceivedEvent) => boolean, timeoutMs = 5000): Promise<ReceivedEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (ended || Date.now() > deadline) throw new Error(`no such event; received ${JSON.stringify(events)}`);
        await sleep(5);
      }
    },
    /** Drops the connection, as a closed browser tab does. */
    disconnect: () => connection.abort(),
  };
}

/** A whole streamed reply: every event, in order. */
export async function streamChat(t: ApiClient, path: string, init: { token: string; body?: unknown }) {
  return (await openChatStream(t, path, init)).finished;
}

export const deltasOf = (events: ChatStreamEvent[]) =>
  events.flatMap((e) => (e.event === 'delta' ? [e.data.text] : []));
