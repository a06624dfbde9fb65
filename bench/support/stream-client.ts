import { Agent, request } from 'node:http';

/**
 * The bench's client: one POST per stream over plain `node:http`, reading the text/event-stream body by event
 * blocks and timing the first and last piece of reply text. Deliberately lean, since it shares the machine's
 * cores with the processes it measures, and the same for every column so none is favoured.
 */

/** What one event block of a stream is: a piece of reply text, a failure, or neither. */
export type EventKind = 'token' | 'error' | null;

export interface StreamResult {
  /** Request sent → first piece of text (ms); null when none came. */
  ttft: number | null;
  tokens: number;
  /** Request sent → body ended (ms). */
  total: number;
  error: string | null;
}

/** OpenAI chat completion chunks: a token is a chunk whose delta carries text (the first one carries ''). */
export const openAiEvent = (block: string): EventKind =>
  block.includes('"content":"') && !block.includes('"content":""') ? 'token' : null;

/** Botty's (and the bare relay's) events: `delta` pieces, then `done` or `error`; Botty's start with an `id:`. */
export const relayEvent = (block: string): EventKind => {
  const event = block.startsWith('id:') ? block.slice(block.indexOf('\n') + 1) : block;
  return event.startsWith('event: delta') ? 'token' : event.startsWith('event: error') ? 'error' : null;
};

// Many concurrent streams: no per-host socket cap, connections reused between rounds like a browser's would be.
// Idle ones are closed after 4 s, as browsers do before a server's keep-alive timeout (Node's is 5 s): reusing
// a connection the server is closing fails the request ("socket hang up"), which counted against the bare relay.
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4_000 });

export function openStream(
  url: string,
  body: object,
  classify: (block: string) => EventKind,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
  onToken?: () => void,
): Promise<StreamResult> {
  const start = performance.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    let ttft: number | null = null;
    let tokens = 0;
    let error: string | null = null;
    let done = false;
    const finish = (failure: string | null) => {
      if (done) return;
      done = true;
      resolve({ ttft, tokens, total: performance.now() - start, error: error ?? failure });
    };
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        signal,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        res.setEncoding('utf8');
        if (res.statusCode !== 200) {
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => finish(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          return;
        }
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let from = 0;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', from)) {
            const block = buffer.slice(from, end);
            from = end + 2;
            const kind = classify(block);
            if (kind === 'token') {
              ttft ??= performance.now() - start;
              tokens += 1;
              onToken?.();
            } else if (kind === 'error') error ??= block.slice(0, 200);
          }
          buffer = buffer.slice(from);
        });
        res.on('end', () => finish(null));
        res.on('error', (err) => finish(err.message));
      },
    );
    req.on('error', (err) => finish(err.message));
    req.end(payload);
  });
}
