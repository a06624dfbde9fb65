import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logSink } from '../../../tests/support/log-sink';
import { databaseUrl, startServerProcess } from '../../../tests/support/server-process';
import { startTestApp } from '../../../tests/support/test-app';
import { createTestDb, databaseKinds } from '../../../tests/support/databases';
import { createSecretBox, keyFromSecret } from './secret-box';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('base64');

describe('secret box', () => {
  it('takes 64 hex characters or base64 of 32 bytes as the key, and stretches a passphrase', () => {
    const raw = randomBytes(32);
    expect(keyFromSecret(raw.toString('hex'))).toEqual(raw);
    expect(keyFromSecret(raw.toString('base64'))).toEqual(raw);
    expect(keyFromSecret(raw.toString('base64url'))).toEqual(raw);
    const passphrase = 'correct horse battery staple, and then some more';
    expect(keyFromSecret(passphrase)).toHaveLength(32);
    expect(keyFromSecret(passphrase)).toEqual(keyFromSecret(passphrase));
  });

  it('opens what it sealed, and nothing sealed with another key or altered', () => {
    const box = createSecretBox(keyFromSecret(KEY_A));
    const sealed = box.seal('sk-live-123');
    expect(sealed).not.toContain('sk-live');
    expect(box.seal('sk-live-123')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sk-live-123');
    expect(() => createSecretBox(keyFromSecret(KEY_B)).open(sealed)).toThrow();
    const [v, iv, tag, body] = sealed.split(':');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0]! ^= 1;
    expect(() => box.open([v, iv, tag, flipped.toString('base64')].join(':'))).toThrow();
  });

  it('is refused by the configuration when SECRET_KEY is too short to be a key or a passphrase', async () => {
    await expect(startTestApp({ env: { SECRET_KEY: 'short' } })).rejects.toThrow(
      'SECRET_KEY: must be 64 hex characters, base64 of 32 bytes, or a passphrase of at least 32 characters',
    );
  });

  it('generates a key file next to the SQLite file once, with a warning, when SECRET_KEY is unset', async () => {
    const testDb = await createTestDb('sqlite');
    const path = (testDb.target as { path: string }).path;
    const keyFile = join(dirname(path), 'secret.key');
    const env = { DATABASE_URL: path, SECRET_KEY: '', LOG_LEVEL: 'warn' };
    const first = logSink();
    const t = await startTestApp({ testDb, env, logStream: first.stream });
    await t.close({ keepDb: true });
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(path)).filter((name) => name.startsWith('secret.key'))).toEqual(['secret.key']);
    const key = readFileSync(keyFile, 'utf8');
    expect(first.entries().filter((e) => /SECRET_KEY is not set/.test(e.msg))).toHaveLength(1);

    const second = logSink();
    const again = await startTestApp({ testDb, env, logStream: second.stream });
    expect(readFileSync(keyFile, 'utf8')).toBe(key);
    await again.close();
    expect(second.lines.join('\n')).not.toContain('SECRET_KEY is not set');
  });
});

describe.each(databaseKinds)('a wrong SECRET_KEY at start on %s', (kind) => {
  it('stops the server with one clear line instead of failing later', async () => {
    const testDb = await createTestDb(kind);
    try {
      const t = await startTestApp({ testDb, env: { SECRET_KEY: KEY_A } });
      await t.close({ keepDb: true });

      await expect(startTestApp({ testDb, env: { SECRET_KEY: KEY_B } })).rejects.toThrow(
        /^SECRET_KEY: this key cannot decrypt the secrets stored in the database/,
      );
      const failure = await startServerProcess({ DATABASE_URL: databaseUrl(testDb), SECRET_KEY: KEY_B }).then(
        () => null,
        (err: Error) => err.message,
      );
      const stderr = failure?.replace(/^server exited with 1: /, '') ?? '';
      expect(stderr.trim().split('\n')).toEqual([
        'Configuration error: SECRET_KEY: this key cannot decrypt the secrets stored in the database; use the key they were encrypted with (README: rotating SECRET_KEY)',
      ]);

      const right = await startTestApp({ testDb, env: { SECRET_KEY: KEY_A } });
      await right.close({ keepDb: true });
    } finally {
      await testDb.drop();
    }
  });
});
