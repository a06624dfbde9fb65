import { createSseParser } from '@shared/chat/sse';
import type { chatStreamEventSchema, ChatStreamEvent } from '@shared/contracts/chat';
import { apiFetch } from '@/lib/request';

/** One event of a reply stream with the id a reconnecting client sends back as Last-Event-ID. */
export interface ReceivedStreamEvent {
  id: string | undefined;
  event: ChatStreamEvent;
}

export type ReplyRequest =
  /** A new user message (with the conversation's attachments it carries). */
  | { kind: 'send'; content: string; fileIds: number[] }
  /** A new reply to the last user message. */
  | { kind: 'regenerate' }
  /** A new version of a user message, and a reply to it. */
  | { kind: 'edit'; messageId: number; content: string }
  /** The reply still running, from after `lastEventId` (from its start without one). */
  | { kind: 'resume'; lastEventId?: string };

/**
 * The contract events are checked against, loaded with the first stream rather than with the chat: the contracts'
 * schemas are built when their module is evaluated, tens of milliseconds of the main thread on a slow machine that
 * opening a conversation no longer spends (decision 0053). It loads while the request is under way.
 */
let eventSchema: Promise<typeof chatStreamEventSchema> | undefined;
const loadEventSchema = () =>
  (eventSchema ??= import('@shared/contracts/chat').then(
    (contract) => contract.chatStreamEventSchema,
    (error: unknown) => {
      // A failed load (the app redeployed under the page) is tried again by the next stream.
      eventSchema = undefined;
      throw error;
    },
  ));

async function open(conversationId: number, request: ReplyRequest, signal: AbortSignal) {
  const base = `/api/conversations/${conversationId}`;
  switch (request.kind) {
    case 'send': {
      const { content, fileIds } = request;
      return apiFetch('POST', `${base}/stream`, { body: fileIds.length ? { content, fileIds } : { content }, signal });
    }
    case 'regenerate':
      return apiFetch('POST', `${base}/regenerate`, { signal });
    case 'edit':
      return apiFetch('POST', `/api/messages/${request.messageId}/edit`, {
        body: { content: request.content },
        signal,
      });
    case 'resume':
      return apiFetch('GET', `${base}/stream`, {
        signal,
        headers: request.lastEventId ? { 'Last-Event-ID': request.lastEventId } : undefined,
      });
  }
}

/**
 * The events of a reply as they arrive (decision record 0006): POST …/stream, …/regenerate or
 * /api/messages/{id}/edit, or GET …/stream to resume one. EventSource cannot POST nor send the auth header, so the body is read here. Refusals throw an
 * ApiError before any event; a resume with no reply running (204) yields nothing; events that do not match the
 * contract are skipped rather than trusted.
 */
export async function* streamReply(
  conversationId: number,
  request: ReplyRequest,
  signal: AbortSignal,
): AsyncGenerator<ReceivedStreamEvent> {
  const [res, schema] = await Promise.all([open(conversationId, request, signal), loadEventSchema()]);
  if (res.status === 204 || !res.body) return;
  const parser = createSseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    for (const { event, data, id } of parser.push(chunk.value)) {
      const parsed = schema.safeParse({ event, data: safeJson(data) });
      if (parsed.success) yield { id, event: parsed.data };
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
