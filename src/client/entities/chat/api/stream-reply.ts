import { createSseParser } from '@shared/chat/sse';
import { chatStreamEventSchema, type ChatStreamEvent } from '@shared/contracts/chat';
import { apiFetch } from '@/lib/request';

export interface StreamReplyOptions {
  conversationId: number;
  /** The user's message; without one the last user message gets a new reply (regenerate). */
  content?: string;
  signal: AbortSignal;
}

/**
 * The events of POST /api/conversations/{id}/stream (or /regenerate) as they arrive (decision record 0006).
 * EventSource cannot POST, so the body is read here. Refusals throw an ApiError before any event; events
 * that do not match the contract are skipped rather than trusted.
 */
export async function* streamReply({
  conversationId,
  content,
  signal,
}: StreamReplyOptions): AsyncGenerator<ChatStreamEvent> {
  const path = content === undefined ? 'regenerate' : 'stream';
  const res = await apiFetch('POST', `/api/conversations/${conversationId}/${path}`, {
    body: content === undefined ? undefined : { content },
    signal,
  });
  if (!res.body) return;
  const parser = createSseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    for (const { event, data } of parser.push(chunk.value)) {
      const parsed = chatStreamEventSchema.safeParse({ event, data: safeJson(data) });
      if (parsed.success) yield parsed.data;
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
