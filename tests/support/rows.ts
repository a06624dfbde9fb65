import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/database';
import { vectorToBytes } from '../../src/server/modules/files/embeddings';
import { insertFile, replaceChunks } from '../../src/server/modules/files/files.repository';

/** A bot of `userId`'s, written straight into the database; `lastUsed` null: never used. */
export async function insertBot(
  db: Kysely<Database>,
  userId: number,
  {
    name = 'Reader',
    lastUsed = null,
    now = new Date().toISOString(),
  }: { name?: string; lastUsed?: string | null; now?: string } = {},
) {
  const bot = await db
    .insertInto('bots')
    .values({
      user_id: userId,
      name,
      description: '',
      purpose: 'answering',
      icon: 'bot',
      active: true,
      capabilities: '[]',
      config: '{}',
      last_used: lastUsed,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return bot.id;
}

/**
 * A user with one bot, written straight into the database, for tests of a repository that needs the rows but
 * not the API around them.
 */
export async function insertUserWithBot(db: Kysely<Database>, now = new Date().toISOString()) {
  const user = await db
    .insertInto('users')
    .values({
      username: 'ada',
      email: 'ada@example.com',
      password_hash: 'not a hash',
      role: 'user',
      email_verified: false,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, botId: await insertBot(db, user.id, { now }) };
}

/**
 * A ready knowledge file of the owner's bot whose passages carry vectors of `model`, written through the
 * repository as the file runner would; its id.
 */
export async function insertReadyKnowledge(
  db: Kysely<Database>,
  owner: { userId: number; botId: number },
  file: {
    name: string;
    model: string;
    passages: { text: string; vector: Float32Array }[];
    /** Written for pgvector too, as the file runner does where it is on. */
    pgvector?: boolean;
  },
) {
  const now = new Date().toISOString();
  const row = await insertFile(db, {
    user_id: owner.userId,
    bot_id: owner.botId,
    name: file.name,
    media_type: 'text/plain',
    size: 0,
    storage_key: `rows-${owner.botId}-${file.name}-${file.model}`,
    status: 'processing',
    created_at: now,
    updated_at: now,
  });
  await replaceChunks(
    db,
    row.id,
    file.passages.map((p) => ({
      text: p.text,
      page: null,
      section: null,
      embedding: vectorToBytes(p.vector),
      embeddingModel: file.model,
    })),
    { pgvector: file.pgvector },
  );
  await db
    .updateTable('files')
    .set({ status: 'ready', chunk_count: file.passages.length })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}
