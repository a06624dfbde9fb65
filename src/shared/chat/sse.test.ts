import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse';

describe('createSseParser', () => {
  it('returns events as their blocks complete, however the text is split', () => {
    const text = 'event: delta\ndata: {"text":"Hi"}\n\n: heartbeat\n\nevent: done\r\ndata: null\r\n\r\n';
    for (const size of [1, 3, 7, text.length]) {
      const parser = createSseParser();
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
      expect(events, `chunks of ${size}`).toEqual([
        { event: 'delta', data: '{"text":"Hi"}' },
        { event: 'done', data: 'null' },
      ]);
    }
  });

  it('holds back an unfinished event, joins multi-line data, and defaults the event name', () => {
    const parser = createSseParser();
    expect(parser.push('data: one\ndata:two\n')).toEqual([]);
    expect(parser.push('\nevent: error\ndata: {}')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
    expect(parser.push('\n\n')).toEqual([{ event: 'error', data: '{}' }]);
  });
});
