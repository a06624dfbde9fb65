/**
 * Chat streaming: what Botty's relay costs between the model and the browser, beside the floor.
 *
 * A fake OpenAI-compatible model (own process) writes TOKENS-token replies as fast as it can. The same load goes
 * four ways, each at 1, 50 and 500 concurrent streams, in alternation so that drifting background load hits
 * all alike:
 * - bare relay: a plain `node:http` SSE relay (own process, support/bare-relay-process.ts): the floor;
 * - model direct: the model's own stream, no relay;
 * - Botty: POST /api/conversations/{id}/stream (server in its own process with the Node flags of `npm start`,
 *   SQLite, or the PostgreSQL in BENCH_DATABASE_URL), with its auth, database writes, checkpoints and SSE events;
 * - /v1: the same server's OpenAI-compatible POST /v1/chat/completions with `stream: true` (API key, the bot as
 *   model `bot-{id}`, stateless: no conversation is stored), chunks as OpenAI writes them.
 * Figures: time to first token (request sent → first text) p50/p95, wall time for all streams of a load, errors
 * (failed streams, or fewer than TOKENS tokens), the relay processes' CPU per relayed token, and Botty's memory
 * per open stream (RSS and heap growth with MEMORY_STREAMS replies held open by a stalled model, after a full
 * GC), beside the targets of issue 10, for Botty's own endpoint and for /v1 (issue 12). With PostgreSQL on this
 * machine, its processes' CPU per reply too (the database shares the two cores). Loopback only; stops by itself
 * within DEADLINE_MS.
 *
 * Each process runs built, as `npm start` runs the server (support/child-processes.ts).
 *
 * BENCH_CPU_PROF=<dir> runs the Botty server under `node --cpu-prof` and leaves its profile in <dir>;
 * BENCH_STREAMS=500 (or 1, 50) runs that load alone, e.g. to profile it; BENCH_MEMORY=0 leaves out the held
 * replies; BENCH_TOKENS=20 (any length) tells a reply's own cost from its tokens' (CPU per reply at two lengths).
 */
import type { ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { postgresCpuMicros } from './support/postgres-cpu';
import { children, startChild } from './support/child-processes';
import { startNodeFlags } from './support/start-flags';
import { openAiEvent, openStream, relayEvent, type StreamResult } from './support/stream-client';

/** Concurrent streams, and how many rounds of each (all three ways per round) for steadier figures. */
const LEVELS = [
  { streams: 1, rounds: 15 },
  { streams: 50, rounds: 15 },
  { streams: 500, rounds: 5 },
].filter(({ streams }) => !process.env.BENCH_STREAMS || process.env.BENCH_STREAMS === String(streams));
const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const MAX_STREAMS = Math.max(...LEVELS.map((level) => level.streams));
/** BENCH_MEMORY=0 leaves the memory rows out (e.g. for a profile of the loads alone). */
const MEMORY_STREAMS = process.env.BENCH_MEMORY === '0' ? 0 : 500;
const HOLD_MARKER = '[hold]';
const WARM_UP_ROUNDS = 10;
const DEADLINE_MS = 240_000;
const databaseUrl = process.env.BENCH_DATABASE_URL;
/** Issue 26's: within 1.3× of the bare relay on SQLite, 1.5× on PostgreSQL (whose server shares the two cores). */
const TARGETS = { firstTokenOverheadMs: 3, wallRatio: databaseUrl ? 1.5 : 1.3, memoryPerStreamBytes: 64 * 1024 };

const WAYS = ['bare relay', 'model direct', 'Botty', '/v1'] as const;
type Way = (typeof WAYS)[number];
/** The ways through Botty, each set beside the bare relay. */
const BOTTY_WAYS = ['Botty', '/v1'] as const satisfies readonly Way[];

const ask = <T>(child: ChildProcess, what: string) =>
  new Promise<T>((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(what);
  });

const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const times = (value: number) => `${value.toFixed(2)}×`;
const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

function printTable(rows: string[][]) {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  for (const [i, row] of rows.entries()) {
    if (row.length === 0) {
      console.log(widths.map((w) => '-'.repeat(w)).join('  '));
      continue;
    }
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  ')
        .trimEnd(),
    );
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

const deadline = setTimeout(() => {
  console.error(`chat-streaming: still running after ${DEADLINE_MS / 1000} s; giving up`);
  for (const child of children) child.kill();
  process.exit(1);
}, DEADLINE_MS);

try {
  // Every process run as the server is in production: built, with no TypeScript loader in it.
  const model = await startChild<{ baseUrl: string }>(
    new URL('./support/fake-model-process.ts', import.meta.url),
    { tokens: TOKENS, intervalMs: 0, holdMarker: HOLD_MARKER },
    { built: true },
  );
  const bare = await startChild<{ url: string }>(
    new URL('./support/bare-relay-process.ts', import.meta.url),
    { modelBaseUrl: model.ready.baseUrl },
    { built: true },
  );
  const profileDir = process.env.BENCH_CPU_PROF;
  const server = await startChild<{
    url: string;
    token: string;
    conversationIds: number[];
    apiKey: string;
    model: string;
  }>(
    new URL('./support/chat-server-process.ts', import.meta.url),
    // The held replies get conversations of their own: theirs stay busy while the server saves what they wrote.
    { modelBaseUrl: model.ready.baseUrl, conversations: MAX_STREAMS + MEMORY_STREAMS },
    {
      execArgv: [
        ...startNodeFlags(),
        '--expose-gc',
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ],
      env: { TEST_DATABASE_URL: databaseUrl ?? '' },
      built: true,
    },
  );
  const { url, token, conversationIds, apiKey, model: botModel } = server.ready;
  const auth = { authorization: `Bearer ${token}` };
  const keyAuth = { authorization: `Bearer ${apiKey}` };
  const completion = (content: string) => ({
    model: botModel,
    stream: true,
    messages: [{ role: 'user', content }],
  });

  const stream: Record<Way, (i: number) => Promise<StreamResult>> = {
    'bare relay': (i) => openStream(bare.ready.url, { content: `Question ${i}` }, relayEvent),
    'model direct': (i) =>
      openStream(
        `${model.ready.baseUrl}/chat/completions`,
        { model: 'fake-model', stream: true, messages: [{ role: 'user', content: `Question ${i}` }] },
        openAiEvent,
      ),
    Botty: (i) =>
      openStream(
        `${url}/api/conversations/${conversationIds[i]}/stream`,
        { content: `Question ${i}` },
        relayEvent,
        auth,
      ),
    '/v1': (i) => openStream(`${url}/v1/chat/completions`, completion(`Question ${i}`), openAiEvent, keyAuth),
  };
  const cpuOf: Partial<Record<Way, () => Promise<number>>> = {
    'bare relay': () => ask<number>(bare.child, 'cpu'),
    Botty: () => ask<number>(server.child, 'cpu'),
    '/v1': () => ask<number>(server.child, 'cpu'),
  };

  interface Load {
    ttfts: number[];
    walls: number[];
    errors: number;
    firstError: string | null;
    tokens: number;
    cpuMicros: number;
    databaseCpuMicros: number;
    replies: number;
  }
  const databaseCpu = () => (databaseUrl ? postgresCpuMicros() : null);
  async function runLoad(way: Way, n: number, into: Load) {
    const cpuBefore = await cpuOf[way]?.();
    const databaseBefore = databaseCpu();
    const start = performance.now();
    const results = await Promise.all(Array.from({ length: n }, (_, i) => stream[way](i)));
    into.walls.push(performance.now() - start);
    if (cpuBefore !== undefined) into.cpuMicros += (await cpuOf[way]!()) - cpuBefore;
    // A reply's stream ends once its row and its bot's use count are saved: nothing of it is left to count.
    const databaseAfter = databaseCpu();
    if (databaseBefore !== null && databaseAfter !== null) into.databaseCpuMicros += databaseAfter - databaseBefore;
    into.replies += n;
    for (const result of results) {
      if (result.ttft !== null) into.ttfts.push(result.ttft);
      into.tokens += result.tokens;
      const failure = result.error ?? (result.tokens === TOKENS ? null : `${result.tokens} of ${TOKENS} tokens`);
      if (failure) {
        into.errors += 1;
        into.firstError ??= failure;
      }
    }
  }

  const newLoad = (): Load => ({
    ttfts: [],
    walls: [],
    errors: 0,
    firstError: null,
    tokens: 0,
    cpuMicros: 0,
    databaseCpuMicros: 0,
    replies: 0,
  });
  // Warm-up: connections, the first database writes, and V8's optimising of each way's code, as in a server that
  // has been answering for a while: after one round of 20 replies, the one-stream row still timed the compiling
  // of the chat's longer path (its first token ~1 ms later than after ten rounds).
  for (let round = 0; round < WARM_UP_ROUNDS; round += 1) for (const way of WAYS) await runLoad(way, 20, newLoad());

  const rows: string[][] = [['', ...WAYS, 'Botty/bare', '/v1/bare', 'target', 'Botty', '/v1']];
  const cpu = Object.fromEntries(
    WAYS.map((way) => [way, { micros: 0, tokens: 0, databaseMicros: 0, replies: 0 }]),
  ) as Record<Way, { micros: number; tokens: number; databaseMicros: number; replies: number }>;
  for (const { streams: n, rounds } of LEVELS) {
    const loads = Object.fromEntries(WAYS.map((way) => [way, newLoad()])) as Record<Way, Load>;
    for (let round = 0; round < rounds; round += 1) {
      // Rotating the order, so none always runs right after the heaviest.
      for (let k = 0; k < WAYS.length; k += 1) {
        const way = WAYS[(round + k) % WAYS.length]!;
        await runLoad(way, n, loads[way]);
      }
    }
    for (const way of WAYS) {
      cpu[way].micros += loads[way].cpuMicros;
      cpu[way].tokens += loads[way].tokens;
      cpu[way].databaseMicros += loads[way].databaseCpuMicros;
      cpu[way].replies += loads[way].replies;
    }
    const figure = (of: (load: Load) => number) => WAYS.map((way) => of(loads[way]));
    const p50 = figure((load) => percentile(load.ttfts, 50));
    const p95 = figure((load) => percentile(load.ttfts, 95));
    const wall = figure((load) => percentile(load.walls, 50));
    const errors = figure((load) => load.errors);
    const label = `${n} stream${n > 1 ? 's' : ''}${rounds > 1 ? ` (×${rounds})` : ''}`;
    const column = (way: Way) => WAYS.indexOf(way);
    const overhead = (way: Way) => p50[column(way)]! - p50[0]!;
    const ratio = (values: number[]) => BOTTY_WAYS.map((way) => values[column(way)]! / values[0]!);
    if (rows.length > 1) rows.push([]);
    rows.push(
      [
        `${label}: first token p50`,
        ...p50.map(ms),
        ...BOTTY_WAYS.map(
          (way, i) => `${times(ratio(p50)[i]!)} (${overhead(way) < 0 ? '-' : '+'}${ms(Math.abs(overhead(way)))})`,
        ),
        ...(n === 1
          ? [
              `≤ +${TARGETS.firstTokenOverheadMs} ms`,
              ...BOTTY_WAYS.map((way) => verdict(overhead(way) <= TARGETS.firstTokenOverheadMs)),
            ]
          : []),
      ],
      [`  first token p95`, ...p95.map(ms), ...ratio(p95).map(times)],
      [
        `  wall, all streams${rounds > 1 ? ' (median)' : ''}`,
        ...wall.map(ms),
        ...ratio(wall).map(times),
        ...(n > 1 ? [`≤ ${TARGETS.wallRatio}×`, ...ratio(wall).map((r) => verdict(r <= TARGETS.wallRatio))] : []),
      ],
      [
        `  errors`,
        ...errors.map(String),
        '',
        '',
        ...(n > 1 ? ['0', ...BOTTY_WAYS.map((way) => verdict(errors[column(way)] === 0))] : []),
      ],
    );
    for (const way of WAYS) {
      if (loads[way].firstError) console.error(`${way}, ${n} streams, first error: ${loads[way].firstError}`);
    }
  }

  // Memory: replies held open by a model that stalls after one token, read after a full GC. /v1 first: its
  // streams end when their client goes away, while Botty's replies go on (only Stop ends them).
  const memory = () => ask<{ rss: number; heapUsed: number }>(server.child, 'memory');
  async function memoryPerStream(open: (i: number, signal: AbortSignal, onToken: () => void) => Promise<StreamResult>) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = await memory();
    const holders = new AbortController();
    setMaxListeners(MEMORY_STREAMS, holders.signal);
    // Each resolves once its stream has carried a token, i.e. the reply is fully under way on the server.
    const opened = Array.from(
      { length: MEMORY_STREAMS },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          open(i, holders.signal, resolve).then((result) =>
            holders.signal.aborted ? resolve() : reject(new Error(result.error ?? 'stream ended')),
          );
        }),
    );
    await Promise.all(opened);
    const held = await memory();
    holders.abort();
    return { rss: (held.rss - idle.rss) / MEMORY_STREAMS, heap: (held.heapUsed - idle.heapUsed) / MEMORY_STREAMS };
  }
  const perStream = MEMORY_STREAMS && {
    '/v1': await memoryPerStream((i, signal, onToken) =>
      openStream(
        `${url}/v1/chat/completions`,
        completion(`Question ${i} ${HOLD_MARKER}`),
        openAiEvent,
        keyAuth,
        signal,
        onToken,
      ),
    ),
    Botty: await memoryPerStream((i, signal, onToken) =>
      openStream(
        `${url}/api/conversations/${conversationIds[MAX_STREAMS + i]}/stream`,
        { content: `Question ${i} ${HOLD_MARKER}` },
        relayEvent,
        auth,
        signal,
        onToken,
      ),
    ),
  };
  const perToken = (way: Way) => cpu[way].micros / cpu[way].tokens;
  const perReply = (way: Way) => cpu[way].micros / cpu[way].replies;
  const memoryRow = (
    held: Record<(typeof BOTTY_WAYS)[number], { rss: number; heap: number }>,
    label: string,
    of: 'rss' | 'heap',
  ) => [
    label,
    '',
    '',
    kib(held.Botty[of]),
    kib(held['/v1'][of]),
    '',
    '',
    `≤ ${kib(TARGETS.memoryPerStreamBytes)}`,
    ...BOTTY_WAYS.map((way) => verdict(held[way][of] <= TARGETS.memoryPerStreamBytes)),
  ];
  rows.push([]);
  if (perStream)
    rows.push(memoryRow(perStream, 'memory per open stream, RSS', 'rss'), memoryRow(perStream, '  heap used', 'heap'));
  const micros = (value: number) => `${value.toFixed(1)} µs`;
  for (const [label, per, show] of [
    ['CPU per relayed token', perToken, micros],
    ['CPU per reply', perReply, (value: number) => ms(value / 1000)],
  ] as const) {
    rows.push([
      label,
      show(per('bare relay')),
      '',
      ...BOTTY_WAYS.map((way) => show(per(way))),
      ...BOTTY_WAYS.map((way) => times(per(way) / per('bare relay'))),
    ]);
  }
  if (databaseCpu() !== null)
    rows.push([
      'PostgreSQL CPU per reply',
      '',
      '',
      ...BOTTY_WAYS.map((way) => `${(cpu[way].databaseMicros / cpu[way].replies).toFixed(0)} µs`),
    ]);

  console.log(
    `${TOKENS}-token replies from a fake model, as fast as it writes; ${availableParallelism()} CPUs shared by the` +
      ` client, model, bare relay and Botty (${databaseUrl ? 'PostgreSQL' : 'SQLite'}), each its own process;` +
      ' Botty: POST /api/conversations/{id}/stream, /v1: its POST /v1/chat/completions (stream: true).',
  );
  console.log(
    'Wall: first request sent → last stream ended.' +
      (MEMORY_STREAMS ? ` Memory: ${MEMORY_STREAMS} replies held open, after a full GC.` : '') +
      ' CPU: per token and per reply, all of its threads.\n',
  );
  printTable(rows);
} finally {
  clearTimeout(deadline);
  for (const child of children) if (child.connected) child.disconnect();
}
