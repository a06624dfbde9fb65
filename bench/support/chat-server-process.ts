import { sql } from 'kysely';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { insertConversation } from '../../src/server/modules/chat/conversations.repository';
import { createTestDb } from '../../tests/support/databases';

/**
 * The Botty server alone in a process (started with --expose-gc), so its memory and CPU can be read. Its
 * database is a fresh SQLite file, or a fresh schema in the PostgreSQL named by TEST_DATABASE_URL. It sets up
 * one user with one bot, a conversation per concurrent stream (replies in a conversation run one at a time), each
 * with an earlier exchange, and
 * an API key for the OpenAI-compatible API, then answers 'cpu' with its CPU time so far (µs) and 'memory' with its memory after a full GC.
 */
const { modelBaseUrl, conversations } = JSON.parse(process.argv[2]!) as { modelBaseUrl: string; conversations: number };

// The database opened as `main.ts` opens it (SQLite's upkeep off the event loop).
const testDb = await createTestDb(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite', {
  upkeepInBackground: true,
});
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
  LLM_BASE_URL: modelBaseUrl,
  LLM_MODEL: 'fake-model',
  RATE_LIMIT_API_KEY_PER_MINUTE: '1000000',
});
const limit = { max: 1_000_000, timeWindow: 60_000 };
const app = await buildApp({ config, db: testDb.db, authRateLimit: limit, chatRateLimit: limit });
await app.listen({ port: 0, host: '127.0.0.1' });

async function call(method: 'POST', url: string, payload: object, token?: string) {
  const res = await app.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
const account = { username: 'bench', email: 'bench@example.com', password: 'bench-password-1' };
await call('POST', '/api/auth/register', { ...account, fullName: '', role: 'user' });
const { token } = await call('POST', '/api/auth/login', { username: account.username, password: account.password });
const bot = await call(
  'POST',
  '/api/bots',
  { name: 'Bench', description: 'Answers quickly', purpose: 'answering' },
  token,
);
// Straight into the database: the API hands back the user's empty conversation rather than a new one. Titled
// by the user, so no reply starts a background title request to the model.
const conversationIds: number[] = [];
for (let i = 0; i < conversations; i += 1) {
  const row = await insertConversation(
    testDb.db.kysely,
    { botId: bot.id, userId: bot.userId, title: `Bench ${i}`, titleSource: 'user' },
    new Date().toISOString(),
  );
  conversationIds.push(row.id);
}

const { key: apiKey } = await call('POST', '/api/keys', { name: 'Bench', botId: bot.id }, token);
// Each conversation has an earlier exchange, as a live one would: the model is asked with some history, and the
// tables hold rows. A live PostgreSQL has statistics on them (autovacuum analyzes tables as they grow); a
// schema filled a moment ago has none, and the named statements would be planned from guesses, e.g. finding a
// conversation by scanning all of its user's.
const now = new Date().toISOString();
for (let i = 0; i < conversationIds.length; i += 200) {
  const questions = await insertMessages(
    conversationIds.slice(i, i + 200).map((id) => ({ conversationId: id, parentId: null, role: 'user' as const })),
  );
  await insertMessages(
    questions.map((q) => ({ conversationId: q.conversation_id, parentId: q.id, role: 'assistant' as const })),
  );
}
function insertMessages(rows: { conversationId: number; parentId: number | null; role: 'user' | 'assistant' }[]) {
  return testDb.db.kysely
    .insertInto('messages')
    .values(
      rows.map((m) => ({
        conversation_id: m.conversationId,
        parent_id: m.parentId,
        role: m.role,
        content: m.role === 'user' ? 'An earlier question' : 'An earlier answer, a few words long.',
        status: 'complete',
        created_at: now,
        updated_at: now,
      })),
    )
    .returning(['id', 'conversation_id'])
    .execute();
}
if (testDb.db.kind === 'postgres') await sql`analyze`.execute(testDb.db.kysely);

const address = app.server.address() as { port: number };
process.send!({ url: `http://127.0.0.1:${address.port}`, token, conversationIds, apiKey, model: `bot-${bot.id}` });

process.on('message', (what) => {
  if (what === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!(user + system);
    return;
  }
  globalThis.gc?.();
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send!({ rss, heapUsed });
});
process.on('disconnect', () => {
  // Streams left open at the end are the bench's own; there is nothing to save.
  app.server.closeAllConnections();
  void app
    .close()
    .then(() => testDb.drop())
    .then(() => process.exit(0));
});
