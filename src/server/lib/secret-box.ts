import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, type Config } from '../config';
import type { Db } from '../db/database';
import { fromJson, toJson } from '../db/json';

/** Encrypts secrets stored in the database (connection API keys) with AES-256-GCM. */
export interface SecretBox {
  seal(plain: string): string;
  /** Throws when the text was sealed with another key or was altered. */
  open(sealed: string): string;
}

const VERSION = 'v1';
const KEY_BYTES = 32;
/** Fixed, so that every instance given the same passphrase derives the same key. */
const PASSPHRASE_SALT = 'botty:secret-key:v1';
/** What is sealed into app_settings 'secretCheck' so a wrong key is found at start, not at the first chat. */
const CHECK_PLAIN = 'botty-secret-check';
const CHECK_KEY = 'secretCheck';

/**
 * The 32-byte key SECRET_KEY spells: 64 hex characters or base64 of 32 bytes are used as they are; any other
 * value (config.ts asks for at least 32 characters) is a passphrase stretched with scrypt.
 */
export function keyFromSecret(secret: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(secret)) return Buffer.from(secret, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(secret)) {
    const bytes = Buffer.from(secret, 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return scryptSync(secret, PASSPHRASE_SALT, KEY_BYTES);
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
        .join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** Next to the SQLite file, or ./data for PostgreSQL and in-memory databases. */
export function generatedKeyPath(database: Config['database']): string {
  const dir = database.kind === 'sqlite' && database.path !== ':memory:' ? dirname(database.path) : './data';
  return join(dir, 'secret.key');
}

/**
 * The key file's key, created once (mode 0600) by whichever instance comes first: written whole under a name of
 * its own, then linked into place, so an instance starting at the same moment never reads a half-written key.
 */
function generatedKey(path: string, log: FastifyBaseLogger): Buffer {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, path);
      log.warn(
        { path },
        'SECRET_KEY is not set: generated a key file for the secrets stored in the database; back it up, or set SECRET_KEY',
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(draft);
    }
  }
  return keyFromSecret(readFileSync(path, 'utf8').trim());
}

/**
 * The server's secret box. A key that cannot open the check value sealed by the first start stops the server
 * with one ConfigError line rather than failing on every stored key later.
 */
export async function openSecretBox(
  deps: { db: Db; config: Pick<Config, 'secretKey' | 'database'>; log: FastifyBaseLogger },
  now: string,
): Promise<SecretBox> {
  const { secretKey, database } = deps.config;
  const box = createSecretBox(
    secretKey ? keyFromSecret(secretKey) : generatedKey(generatedKeyPath(database), deps.log),
  );
  const db = deps.db.kysely;
  await db
    .insertInto('app_settings')
    // An object: a bare JSON string would read back ambiguously (db/json.ts parses strings from SQLite).
    .values({ key: CHECK_KEY, value: toJson({ sealed: box.seal(CHECK_PLAIN) }), updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('key', '=', CHECK_KEY)
    .executeTakeFirstOrThrow();
  let opened: string | null = null;
  try {
    opened = box.open(String((fromJson(row.value) as { sealed?: unknown }).sealed));
  } catch {
    // A wrong key fails GCM's authentication; reported below.
  }
  if (opened !== CHECK_PLAIN) {
    throw new ConfigError(
      `SECRET_KEY: ${secretKey ? 'this key' : `the key in ${generatedKeyPath(database)}`} cannot decrypt the secrets stored in the database; use the key they were encrypted with (README: rotating SECRET_KEY)`,
    );
  }
  return box;
}
