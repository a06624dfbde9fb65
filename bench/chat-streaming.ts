/**
 * Chat streaming: what our server adds on top of the model it relays.
 *
 * A fake OpenAI-compatible model (own process) writes TOKENS tokens, one every INTERVAL_MS, like a fast local
 * model. The same load is sent to it directly and through Botty's POST /api/conversations/{id}/stream (server in
 * its own process), at 1, 50 and 500 concurrent streams, and compared:
 * - time to first token (request sent → first text received), median and 95th percentile;
 * - time per token (first → last token, divided by the gaps), median: a relay that keeps up matches the model;
 * - the server's CPU time per relayed token.
 * Before those, MEMORY_STREAMS replies are held open by a model that stops after one token, and the server's RSS
 * and heap growth per open stream is read (after a full GC). Loopback only; stops by itself within DEADLINE_MS.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createSseParser } from '../src/shared/chat/sse';

/** Concurrent streams, and how many times each load is repeated (direct and via Botty alternately) for steadier figures. */
const LEVELS = [
  { streams: 1, rounds: 10 },
  { streams: 50, rounds: 3 },
  { streams: 500, rounds: 1 },
];
const TOKENS = 40;
const INTERVAL_MS = 20;
const MAX_STREAMS = Math.max(...LEVELS.map((level) => level.streams));
const MEMORY_STREAMS = 500;
const HOLD_MARKER = '[hold]';
const DEADLINE_MS = 110_000;

interface Timing {
  ttft: number;
  perToken: number;
}

function startChild<T>(
  script: string,
  args: object,
  execArgv: string[] = [],
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [JSON.stringify(args)], {
    execArgv: ['--import', 'tsx', ...execArgv],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
  });
}

/** Reads a text/event-stream body, calling `onToken` for every piece of reply text. */
async function readTokens(res: Response, tokenOf: (event: string, data: string) => string | null, onToken: () => void) {
  if (!res.ok) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  const parser = createSseParser();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    for (const { event, data } of parser.push(chunk.value)) if (tokenOf(event, data)) onToken();
  }
}

/** One stream's timings, from the moment its request is sent. */
async function timeStream(
  open: () => Promise<Response>,
  tokenOf: (event: string, data: string) => string | null,
): Promise<Timing> {
  const start = performance.now();
  const times: number[] = [];
  await readTokens(await open(), tokenOf, () => times.push(performance.now()));
  if (times.length < 2) throw new Error(`expected a streamed reply, got ${times.length} token(s)`);
  return { ttft: times[0]! - start, perToken: (times.at(-1)! - times[0]!) / (times.length - 1) };
}

const openAiToken = (_event: string, data: string) =>
  data === '[DONE]'
    ? null
    : (JSON.parse(data) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content || null;

function bottyToken(event: string, data: string) {
  if (event === 'error') throw new Error(`the reply failed: ${data}`);
  return event === 'delta' ? (JSON.parse(data) as { text: string }).text : null;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (server: number, direct: number) => `${(server / direct).toFixed(2)}×`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function printTable(rows: string[][]) {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const [i, row] of rows.entries()) {
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    );
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const children: ChildProcess[] = [];
const deadline = setTimeout(() => {
  console.error(`chat-streaming: still running after ${DEADLINE_MS / 1000} s; giving up`);
  for (const child of children) child.kill();
  process.exit(1);
}, DEADLINE_MS);

try {
  const model = await startChild<{ baseUrl: string }>('./support/fake-model-process.ts', {
    tokens: TOKENS,
    intervalMs: INTERVAL_MS,
    holdMarker: HOLD_MARKER,
  });
  children.push(model.child);
  const server = await startChild<{ url: string; token: string; conversationIds: number[] }>(
    './support/chat-server-process.ts',
    // The held replies get conversations of their own: theirs stay busy while the server saves what they wrote.
    { modelBaseUrl: model.ready.baseUrl, conversations: MAX_STREAMS + MEMORY_STREAMS },
    ['--expose-gc'],
  );
  children.push(server.child);
  const { url, token, conversationIds } = server.ready;

  const ask = <T>(what: 'cpu' | 'memory') =>
    new Promise<T>((resolve) => {
      server.child.once('message', (answer) => resolve(answer as T));
      server.child.send(what);
    });
  const cpuMicros = () => ask<number>('cpu');
  const memory = () => ask<{ rss: number; heapUsed: number }>('memory');

  const direct = (i: number, signal?: AbortSignal) =>
    fetch(`${model.ready.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'fake-model',
        stream: true,
        messages: [{ role: 'user', content: `Question ${i}` }],
      }),
      signal,
    });
  const viaBotty = (i: number, content = `Question ${i}`, signal?: AbortSignal) =>
    fetch(`${url}/api/conversations/${conversationIds[i]}/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content }),
      signal,
    });

  const concurrently = (n: number, stream: (i: number) => Promise<Timing>) =>
    Promise.all(Array.from({ length: n }, (_, i) => stream(i)));

  // Warm-up: connections, JIT, the first database writes.
  await concurrently(5, (i) => timeStream(() => direct(i), openAiToken));
  await concurrently(5, (i) => timeStream(() => viaBotty(i), bottyToken));

  const idle = await memory();
  const holders = new AbortController();
  // Each resolves once its stream has carried a token, i.e. the reply is fully under way on the server.
  const opened = Array.from(
    { length: MEMORY_STREAMS },
    (_, i) =>
      new Promise<void>((resolve, reject) => {
        viaBotty(MAX_STREAMS + i, `Question ${i} ${HOLD_MARKER}`, holders.signal)
          .then((res) => readTokens(res, bottyToken, resolve))
          .catch((err: unknown) => (holders.signal.aborted ? resolve() : reject(err)));
      }),
  );
  await Promise.all(opened);
  const open = await memory();
  holders.abort();

  const rows = [
    [
      'streams',
      'TTFT p50 direct',
      'via Botty',
      'ratio',
      'TTFT p95 direct',
      'via Botty',
      'ratio',
      'per token direct',
      'via Botty',
      'ratio',
      'server CPU/token',
    ],
  ];
  for (const { streams: n, rounds } of LEVELS) {
    const straight: Timing[] = [];
    const relayed: Timing[] = [];
    let serverCpu = 0;
    for (let round = 0; round < rounds; round += 1) {
      straight.push(...(await concurrently(n, (i) => timeStream(() => direct(i), openAiToken))));
      const before = await cpuMicros();
      relayed.push(...(await concurrently(n, (i) => timeStream(() => viaBotty(i), bottyToken))));
      serverCpu += (await cpuMicros()) - before;
    }
    const [d50, b50, d95, b95] = [
      percentile(
        straight.map((t) => t.ttft),
        50,
      ),
      percentile(
        relayed.map((t) => t.ttft),
        50,
      ),
      percentile(
        straight.map((t) => t.ttft),
        95,
      ),
      percentile(
        relayed.map((t) => t.ttft),
        95,
      ),
    ] as const;
    const [dTok, bTok] = [
      percentile(
        straight.map((t) => t.perToken),
        50,
      ),
      percentile(
        relayed.map((t) => t.perToken),
        50,
      ),
    ];
    const cpuPerToken = serverCpu / (rounds * n * TOKENS);
    rows.push([
      `${n}${rounds > 1 ? ` (×${rounds})` : ''}`,
      ms(d50),
      ms(b50),
      ratio(b50, d50),
      ms(d95),
      ms(b95),
      ratio(b95, d95),
      ms(dTok),
      ms(bTok),
      ratio(bTok, dTok),
      `${cpuPerToken.toFixed(0)} µs`,
    ]);
  }

  console.log(
    `Model: ${TOKENS} tokens per reply, one every ${INTERVAL_MS} ms. ${availableParallelism()} CPUs shared by client, server and model.`,
  );
  console.log('TTFT: request sent → first text. Per token: first → last text, per gap. Ratio: via Botty ÷ direct.\n');
  printTable(rows);

  console.log(`\nServer memory with ${MEMORY_STREAMS} replies held open by a stalled model (after a full GC):`);
  printTable([
    ['', 'idle', `${MEMORY_STREAMS} open`, 'per open stream'],
    ['RSS', mib(idle.rss), mib(open.rss), kib((open.rss - idle.rss) / MEMORY_STREAMS)],
    ['heap used', mib(idle.heapUsed), mib(open.heapUsed), kib((open.heapUsed - idle.heapUsed) / MEMORY_STREAMS)],
  ]);
} finally {
  clearTimeout(deadline);
  for (const child of children) child.disconnect();
}
