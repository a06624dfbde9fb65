export interface SseMessage {
  event: string;
  data: string;
  /** The event's id, which a reconnecting client sends back as Last-Event-ID. */
  id?: string;
}

/** One event block: `field: value` lines; comments (`:`) and blocks without data (heartbeats) yield nothing. */
function parseBlock(block: string): SseMessage | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return data.length ? { event, data: data.join('\n'), ...(id === undefined ? {} : { id }) } : null;
}

/**
 * An incremental text/event-stream parser: feed it the body's text as it arrives, in chunks of any size, and
 * it returns the events completed so far. A POST cannot use EventSource, so the client reads the stream itself.
 */
export function createSseParser() {
  let buffer = '';
  return {
    push(chunk: string): SseMessage[] {
      buffer += chunk;
      const messages: SseMessage[] = [];
      for (let end = /\r?\n\r?\n/.exec(buffer); end; end = /\r?\n\r?\n/.exec(buffer)) {
        const message = parseBlock(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        if (message) messages.push(message);
      }
      return messages;
    },
  };
}
