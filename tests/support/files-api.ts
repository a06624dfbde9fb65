import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { DatabaseKind } from '../../src/server/db/database';
import type { KnowledgeFile } from '../../src/shared/contracts/files';
import type { ApiClient } from './api-client';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';
import { until } from './wait';

/** A real multipart upload in the form field `file`, as a browser's FormData sends it. */
export async function uploadFile(t: ApiClient, token: string, path: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as KnowledgeFile & { message: string } };
}

/** Polls the file until its job has run (ready or failed), as the UI does, though every 10 ms. */
export async function settledFile(t: ApiClient, token: string, id: number): Promise<KnowledgeFile> {
  let file: KnowledgeFile | undefined;
  await until(
    async () => {
      const res = await t.request<KnowledgeFile>('GET', `/api/files/${id}`, { token });
      if (res.status !== 200) throw new Error(`GET file ${id}: ${res.status}`);
      file = res.body;
      return file.status !== 'processing';
    },
    { what: `file ${id} to be processed`, timeoutMs: 30_000, intervalMs: 10 },
  );
  return file!;
}

/** Uploads and waits for the outcome; throws unless the upload was accepted. */
export async function uploadSettled(t: ApiClient, token: string, path: string, name: string, bytes: Uint8Array) {
  const res = await uploadFile(t, token, path, name, bytes);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return settledFile(t, token, res.body.id);
}

/**
 * How a suite that stores files starts its apps: each keeps its files in a directory of its own (unless
 * `env.FILES_DIR` names one), looks for file jobs every 25 ms (an upload wakes its runner at once; the bytes of a
 * deleted bot, conversation or account wait for the next look) and is closed after its test; the directories go
 * after the suite. Registers the hooks that do so.
 */
export function appsWithFiles(kind: DatabaseKind, dirPrefix = 'botty-files-') {
  const dirs: string[] = [];
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return {
    async start(options: TestAppOptions = {}) {
      const dir = mkdtempSync(join(tmpdir(), dirPrefix));
      dirs.push(dir);
      const t = await startTestApp({
        kind,
        ...options,
        env: { FILES_DIR: dir, ...options.env },
        fileJobs: { pollMs: 25, ...options.fileJobs },
      });
      apps.push(t);
      return t;
    },
    /** For an app the test closed itself. */
    closed(t: TestApp) {
      apps.splice(apps.indexOf(t), 1);
    },
  };
}
