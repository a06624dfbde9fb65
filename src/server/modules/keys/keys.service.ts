import { randomInt } from 'node:crypto';
import { KEY_MESSAGES, type ApiKey, type CreateApiKeyBody, type CreatedApiKey } from '@shared/contracts/keys';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database';
import { isoNow, type Clock } from '../../lib/clock';
import { coalescedWritesPer } from '../../lib/coalesced-writes';
import { AppError } from '../../lib/errors';
import { isExpired, requireFutureExpiry } from '../../lib/expiry';
import { hashToken } from '../../lib/tokens';
import { requireOwnedBot } from '../bots/bots.service';
import {
  deleteKeysExpiredBefore,
  deleteKeyOfUser,
  findKeyByHash,
  findKeyOfUser,
  findKeysOfUser,
  insertKey,
  toApiKey,
  touchKey,
  type AuthenticatedKey,
} from './keys.repository';

export interface KeysDeps {
  db: Db;
  clock: Clock;
}

const KEY_PREFIX = 'botty_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base-62 characters carry 256 random bits, like the session tokens. */
const KEY_CHARS = 43;
/** How much of a key its list entry shows: the marker and four characters. */
const VISIBLE_CHARS = KEY_PREFIX.length + 4;

/** `botty_` and 256 random bits in letters and digits, so the key survives copying from any terminal or form. */
function newKey(): string {
  let key = KEY_PREFIX;
  for (let i = 0; i < KEY_CHARS; i++) key += BASE62[randomInt(BASE62.length)];
  return key;
}

export async function listKeys(deps: KeysDeps, userId: number): Promise<{ keys: ApiKey[] }> {
  return { keys: (await findKeysOfUser(deps.db.kysely, userId)).map(toApiKey) };
}

/** The key is in the answer once; only its SHA-256 and first characters are stored. */
export async function createKey(deps: KeysDeps, userId: number, body: CreateApiKeyBody): Promise<CreatedApiKey> {
  const expiresAt = requireFutureExpiry(deps.clock, body.expiresAt, KEY_MESSAGES.expiresAtPast);
  const key = newKey();
  return deps.db.kysely.transaction().execute(async (tx) => {
    if (body.botId !== null) await requireOwnedBot(tx, userId, body.botId);
    const { id } = await insertKey(
      tx,
      {
        userId,
        botId: body.botId,
        name: body.name,
        prefix: key.slice(0, VISIBLE_CHARS),
        keyHash: hashToken(key),
        expiresAt,
      },
      isoNow(deps.clock),
    );
    return { ...toApiKey(await findKeyOfUser(tx, userId, id)), key };
  });
}

/** Deleting the row is the revocation: the next call with the key finds nothing. */
export async function revokeKey(deps: KeysDeps, userId: number, id: number) {
  const result = await deleteKeyOfUser(deps.db.kysely, userId, id);
  if (!result.numDeletedRows) throw new AppError('NOT_FOUND', KEY_MESSAGES.notFound);
  return { message: KEY_MESSAGES.revoked };
}

/**
 * How stale a key's "last used" may be: a busy key would otherwise write its row on every call, a commit on
 * the way to each streamed reply's first token.
 */
export const KEY_LAST_USED_PRECISION_MS = 60_000;

/**
 * The calls that find a key's "last used" stale at the same moment all write it: one write at a time per key,
 * the latest time of those that came meanwhile next, so they do not queue on the key's row lock.
 */
const recordKeyUse = coalescedWritesPer(
  (a: string, b: string) => (a > b ? a : b),
  (db: Kysely<Database>, id: number, at: string) => touchKey(db, id, at),
);

/** The key's row when it exists and has not expired (its use is then recorded); null otherwise. */
export async function authenticateKey(deps: KeysDeps, key: string): Promise<AuthenticatedKey | null> {
  if (!key.startsWith(KEY_PREFIX)) return null;
  const row = await findKeyByHash(deps.db.kysely, hashToken(key));
  if (!row || isExpired(deps.clock, row.expires_at)) return null;
  const now = deps.clock.now().getTime();
  if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= KEY_LAST_USED_PRECISION_MS) {
    await recordKeyUse(deps.db.kysely, row.id, isoNow(deps.clock));
  }
  return row;
}

/** Expired keys stay listed (as expired) for a while, so a developer whose calls start failing can see why. */
export const EXPIRED_KEY_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export const purgeExpiredKeys = (deps: KeysDeps) =>
  deleteKeysExpiredBefore(deps.db.kysely, new Date(deps.clock.now().getTime() - EXPIRED_KEY_KEPT_MS).toISOString());
