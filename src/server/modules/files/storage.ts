import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type * as S3 from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { FilesConfig } from '../../config';

/** Where the original bytes of uploaded files live; keys are made by the server, never by users. */
export interface FileStorage {
  put(key: string, bytes: Uint8Array, mediaType: string): Promise<void>;
  /** Rejects when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** Succeeds when the key already holds nothing. */
  delete(key: string): Promise<void>;
}

export class MissingBlobError extends Error {
  constructor(key: string) {
    super(`no stored file under ${key}`);
  }
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/-]*$/;

function checkedKey(key: string): string {
  // Keys are generated, but a path outside the directory must be impossible even by mistake.
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key ${key}`);
  return key;
}

export function localStorage(dir: string): FileStorage {
  const root = resolve(dir);
  const pathOf = (key: string) => join(root, checkedKey(key));
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file.
      const partial = `${path}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, path);
    },
    async get(key) {
      const path = pathOf(key);
      await stat(path).catch(() => {
        throw new MissingBlobError(key);
      });
      return createReadStream(path);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** The AWS SDK (a quarter of a second to load) is loaded by the first file stored or read (decision 0055). */
export function s3Storage(s3: NonNullable<FilesConfig['s3']>): FileStorage {
  let opened: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;
  const open = () =>
    (opened ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: s3.region,
        endpoint: s3.endpoint,
        // MinIO, s3rver, Ceph and most self-hosted servers serve buckets by path, not as subdomains.
        forcePathStyle: s3.endpoint !== undefined,
        ...(s3.accessKeyId && s3.secretAccessKey
          ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
          : {}),
      }),
    })));
  const Bucket = s3.bucket;
  return {
    async put(key, bytes, mediaType) {
      const { sdk, client } = await open();
      await client.send(
        new sdk.PutObjectCommand({ Bucket, Key: checkedKey(key), Body: bytes, ContentType: mediaType }),
      );
    },
    async get(key) {
      const { sdk, client } = await open();
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket, Key: checkedKey(key) }));
        return object.Body as Readable;
      } catch (err) {
        if (err instanceof sdk.NoSuchKey) throw new MissingBlobError(key);
        throw err;
      }
    },
    async delete(key) {
      const { sdk, client } = await open();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
  };
}

export const createStorage = (files: FilesConfig): FileStorage =>
  files.s3 ? s3Storage(files.s3) : localStorage(files.dir);
