import type { Executor } from '../../db/database';
import { toActivity } from '../activities/activities.repository';
import { toBot } from '../bots/bots.repository';
import { toConversation } from '../chat/conversations.repository';
import { MESSAGE_COLUMNS, toMessage } from '../chat/messages.repository';
import { toFile } from '../files/files.repository';

/**
 * Everything a user owns, for the data export, each shaped as its own module shapes it (their repositories'
 * mappers): bots, conversations, messages, activities and the files' details, oldest first.
 */
export async function findEverythingOwnedBy(db: Executor, userId: number) {
  const [bots, conversations, messages, activities, files] = await Promise.all([
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
    db.selectFrom('files').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
  ]);
  return {
    bots: bots.map(toBot),
    conversations: conversations.map(toConversation),
    messages: messages.map((row) => toMessage(row)),
    activities: activities.map(toActivity),
    files: files.map(toFile),
  };
}

/** Sessions, tokens, bots, conversations, messages and activities follow through their foreign keys. */
export const deleteUser = (db: Executor, userId: number) => db.deleteFrom('users').where('id', '=', userId).execute();
