import { APICallError, RetryError } from 'ai';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Ai } from '../providers';
import { CHAT_ERRORS, describeModelError, offlineReplyText, runChatReply } from './chat-reply';

const apiError = (statusCode?: number) =>
  new APICallError({
    message: 'upstream',
    url: 'http://model.test/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
  });

describe('describeModelError', () => {
  it.each([
    [apiError(undefined), CHAT_ERRORS.unreachable],
    [apiError(401), CHAT_ERRORS.apiKey],
    [apiError(403), CHAT_ERRORS.apiKey],
    [apiError(404), 'Model not found: llama3.2. Check LLM_MODEL.'],
    [apiError(429), CHAT_ERRORS.busy],
    [apiError(500), 'The language model failed to answer (error 500). Please try again.'],
    [new RetryError({ message: 'gave up', reason: 'maxRetriesExceeded', errors: [apiError(401)] }), CHAT_ERRORS.apiKey],
    [new TypeError('something odd'), CHAT_ERRORS.unknown],
  ])('describes %s', (error, message) => {
    expect(describeModelError(error, 'llama3.2')).toBe(message);
  });
});

describe('streamChatReply offline', () => {
  const offline: Ai = { provider: 'offline', modelId: null, model: null };
  const request = (signal: AbortSignal) => ({
    ai: offline,
    botName: 'Scout',
    system: 'unused',
    turns: [],
    signal,
    timeouts: { firstTokenMs: 30_000, totalMs: 120_000 },
    log: pino({ level: 'silent' }),
  });

  it('says plainly, in a few pieces, that no model is connected and how to connect one', async () => {
    const pieces: string[] = [];
    await runChatReply(request(new AbortController().signal), { onText: (piece) => pieces.push(piece) });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(offlineReplyText('Scout'));
    expect(offlineReplyText('Scout')).toMatch(
      /^I'm Scout, but no language model is connected to this Botty server yet/,
    );
    expect(offlineReplyText('Scout')).toContain('`LLM_BASE_URL=http://127.0.0.1:11434/v1`');
  });

  it('stops when asked', async () => {
    const stop = new AbortController();
    const pieces: string[] = [];
    await runChatReply(request(stop.signal), {
      onText(piece) {
        pieces.push(piece);
        stop.abort();
      },
    });
    expect(pieces).toHaveLength(1);
  });
});
