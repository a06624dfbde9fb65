import type { Executor } from '../../db/database';
import { verifyPassword } from '../../lib/passwords';
import { findUserById } from './users.repository';

/*
 * The users module as other modules use it: auth signs users up and in and changes their details, account checks
 * a password before erasing one. Only users.repository reads and writes the records; every function takes the
 * executor (the database or the caller's transaction) it runs on.
 */
export {
  countUsers,
  findUserByEmail,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  isFirstUser,
  roleOf,
  toUser,
  updateUser,
  usernameTaken,
} from './users.repository';

/** The user when `password` is theirs; undefined when it is not, or when there is no such user. */
export async function findUserWithPassword(db: Executor, userId: number, password: string) {
  const row = await findUserById(db, userId);
  return row && (await verifyPassword(row.password_hash, password)) ? row : undefined;
}
