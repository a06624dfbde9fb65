import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/database';

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
  const bot = await db
    .insertInto('bots')
    .values({
      user_id: user.id,
      name: 'Reader',
      description: '',
      purpose: 'answering',
      icon: 'bot',
      active: true,
      capabilities: '[]',
      config: '{}',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, botId: bot.id };
}
