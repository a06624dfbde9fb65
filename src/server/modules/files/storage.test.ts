import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { startS3Server } from '../../../../tests/support/s3-server';
import { createStorage, MissingBlobError, type FileStorage } from './storage';

const bytes = new Uint8Array(Buffer.from('%PDF-1.7 not really, but bytes are bytes\n\u0000\u00ff'));

async function roundTrip(storage: FileStorage) {
  await storage.put('u1/abc-123', bytes, 'application/pdf');
  expect(new Uint8Array(await buffer(await storage.get('u1/abc-123')))).toEqual(bytes);
  await storage.delete('u1/abc-123');
  await expect(storage.get('u1/abc-123')).rejects.toBeInstanceOf(MissingBlobError);
  // Deleting what is already gone is not an error: deletions are retried.
  await storage.delete('u1/abc-123');
}

describe('file storage', () => {
  let dir: string;
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'botty-files-'));
    s3 = await startS3Server();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await s3.close();
  });

  it('round-trips bytes in a local directory', async () => {
    await roundTrip(createStorage(loadConfig({ FILES_DIR: dir }).files));
  });

  it('round-trips bytes through an S3-compatible server when S3_BUCKET is set', async () => {
    await roundTrip(createStorage(loadConfig(s3.env).files));
  });

  it('refuses keys that could leave the directory', async () => {
    const storage = createStorage(loadConfig({ FILES_DIR: dir }).files);
    await expect(storage.put('../escape', bytes, 'text/plain')).rejects.toThrow(/unsafe storage key/);
  });
});
