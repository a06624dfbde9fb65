import { setTimeout as sleep } from 'node:timers/promises';
import type { KnowledgeFile } from '../../src/shared/contracts/files';
import type { TestApp } from './test-app';

/** A real multipart upload in the form field `file`, as a browser's FormData sends it. */
export async function uploadFile(t: TestApp, token: string, path: string, name: string, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as KnowledgeFile & { message: string } };
}

/** Polls the file until its job has run (ready or failed), as the UI does. */
export async function settledFile(t: TestApp, token: string, id: number): Promise<KnowledgeFile> {
  for (let i = 0; i < 300; i++) {
    const res = await t.request<KnowledgeFile>('GET', `/api/files/${id}`, { token });
    if (res.status !== 200) throw new Error(`GET file ${id}: ${res.status}`);
    if (res.body.status !== 'processing') return res.body;
    await sleep(100);
  }
  throw new Error(`file ${id} still processing`);
}

/** Uploads and waits for the outcome; throws unless the upload was accepted. */
export async function uploadSettled(t: TestApp, token: string, path: string, name: string, bytes: Uint8Array) {
  const res = await uploadFile(t, token, path, name, bytes);
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return settledFile(t, token, res.body.id);
}
