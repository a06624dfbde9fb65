import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { searchChunks } from '../../src/server/modules/files/retrieval';
import { createTestDb } from '../../tests/support/databases';

/**
 * The Botty server alone in a process, so its memory can be read and its event loop is its own: a fresh SQLite
 * file, or a fresh schema in the PostgreSQL named by TEST_DATABASE_URL, and files in a temporary directory. It
 * sets up one user with one bot, then answers `{ search: string[] }` with the time (ms) searchChunks took for
 * each question, run one after another inside the server, as the chat does before a reply: wall time, and
 * this process's CPU time (which on a busy machine says more about the cost; PostgreSQL's own is not in it).
 */
// The database opened as `main.ts` opens it (SQLite's upkeep off the event loop).
const testDb = await createTestDb(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite', {
  upkeepInBackground: true,
});
const filesDir = mkdtempSync(join(tmpdir(), 'botty-bench-files-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  FILES_DIR: filesDir,
  // How files are read, as an operator would set it (e.g. FILES_PDFTOTEXT=off for pdf.js alone).
  ...Object.fromEntries(
    ['FILES_PDFTOTEXT', 'FILES_EXTRACTION_WORKERS', 'FILES_EXTRACTION_PRIORITY'].flatMap((name) =>
      process.env[name] ? [[name, process.env[name]]] : [],
    ),
  ),
  // The bench's fake model, which the chat measured while files are read answers from.
  ...(process.env.BENCH_MODEL_URL ? { LLM_BASE_URL: process.env.BENCH_MODEL_URL, LLM_MODEL: 'fake-model' } : {}),
});
const limit = { max: 1_000_000, timeWindow: 60_000 };
// Started as the server starts (src/server/main.ts), with an extraction worker ready.
const app = await buildApp({
  config,
  db: testDb.db,
  authRateLimit: limit,
  chatRateLimit: limit,
  fileJobs: { warmWorker: true },
});
await app.listen({ port: 0, host: '127.0.0.1' });

async function call(url: string, payload: object, token?: string) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
const account = { username: 'bench', email: 'bench@example.com', password: 'bench-password-1' };
await call('/api/auth/register', { ...account, fullName: '', role: 'user' });
const { token, user } = await call('/api/auth/login', { username: account.username, password: account.password });
const bot = await call(
  '/api/bots',
  { name: 'Bench', description: 'Answers from its files', purpose: 'answering', capabilities: ['document_analysis'] },
  token,
);

const address = app.server.address() as { port: number };
process.send!({ url: `http://127.0.0.1:${address.port}`, token, botId: bot.id, database: testDb.db.kind });

process.on('message', (message: { search: string[] }) => {
  void (async () => {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (const query of message.search) {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      await searchChunks({ db: testDb.db, embeddings: null }, { userId: user.id, botId: bot.id, query });
      const { user: userCpu, system } = process.cpuUsage(startCpu);
      wall.push(performance.now() - start);
      cpu.push((userCpu + system) / 1000);
    }
    process.send!({ wall, cpu });
  })();
});
process.on('disconnect', () => {
  void app
    .close()
    .then(() => testDb.drop())
    .then(() => rmSync(filesDir, { recursive: true, force: true }))
    .then(() => process.exit(0));
});
