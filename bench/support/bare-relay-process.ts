import { Agent, createServer, request } from 'node:http';

/**
 * The floor Botty's relay is measured against: a bare `node:http` server in a process of its own that, for each
 * POST, asks the model for a streamed completion and forwards every piece of text as an SSE `delta` event
 * (the model's JSON parsed, ours written; one write per chunk received), then `done`. No auth, database or
 * framework. Answers 'cpu' with its CPU time so far (µs).
 */
const { modelBaseUrl } = JSON.parse(process.argv[2]!) as { modelBaseUrl: string };
// Idle connections closed after 4 s like Botty's (the model's keep-alive timeout is 5 s): a reused connection
// the model is closing would fail the stream.
const upstream = new Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4_000 });

interface Chunk {
  choices: { delta?: { content?: string } }[];
}

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const { content } = JSON.parse(body) as { content: string };
    const payload = JSON.stringify({
      model: 'fake-model',
      stream: true,
      messages: [{ role: 'user', content }],
    });
    const call = request(
      `${modelBaseUrl}/chat/completions`,
      {
        method: 'POST',
        agent: upstream,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (model) => {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        model.setEncoding('utf8');
        let buffer = '';
        model.on('data', (chunk: string) => {
          buffer += chunk;
          let out = '';
          let from = 0;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n', from)) {
            const data = buffer.slice(from + 'data: '.length, end);
            from = end + 2;
            if (data === '[DONE]') continue;
            const text = (JSON.parse(data) as Chunk).choices[0]?.delta?.content;
            if (text) out += `event: delta\ndata: ${JSON.stringify({ text })}\n\n`;
          }
          buffer = buffer.slice(from);
          if (out) res.write(out);
        });
        model.on('end', () => res.end('event: done\ndata: {}\n\n'));
      },
    );
    call.on('error', (err) => res.destroy(err));
    res.on('close', () => {
      if (!res.writableFinished) call.destroy();
    });
    call.end(payload);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send!({ url: `http://127.0.0.1:${port}/stream` });
});

process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send!(user + system);
});
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
