import type { Executor } from '../../db/database';
import { MESSAGE_COLUMNS } from '../chat/messages.repository';

/** Everything a user owns, for the data export; rows come back whole and are shaped by the service. */
export async function findEverythingOwnedBy(db: Executor, userId: number) {
  const [bots, conversations, messages, activities] = await Promise.all([
    db.selectFrom('bots').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('conversations').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .select(MESSAGE_COLUMNS.map((column) => `messages.${column}` as const))
      .where('conversations.user_id', '=', userId)
      .orderBy('messages.id')
      .execute(),
    db.selectFrom('activities').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
  ]);
  return { bots, conversations, messages, activities };
}

/** Sessions, tokens, bots, conversations, messages and activities follow through their foreign keys. */
export const deleteUser = (db: Executor, userId: number) => db.deleteFrom('users').where('id', '=', userId).execute();
