import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminSettings, Connection, ModelChoice } from '@shared/contracts/admin';
import { person } from '../../../tests/support/admin-api';
import { databaseKinds } from '../../../tests/support/databases';
import { createBot } from '../../../tests/support/factories';
import { uploadSettled } from '../../../tests/support/files-api';
import { startTwoInstances, type TwoInstances } from '../../../tests/support/two-instances';

describe.runIf(databaseKinds.includes('postgres'))('notices between two instances on one PostgreSQL and Redis', () => {
  let two: TwoInstances;
  let filesDir: string | undefined;
  afterEach(async () => {
    await two.close();
    if (filesDir) rmSync(filesDir, { recursive: true, force: true });
  });

  it('shows a change of settings or connections made on one instance at the next read on the other', async () => {
    two = await startTwoInstances();
    const { a, b } = two;
    // The first account: the superadmin.
    const admin = await person(a);
    const as = { token: admin.token };
    const settingsOnB = async () => (await b.request<AdminSettings>('GET', '/api/admin/settings', as)).body;
    const modelsOnB = async () =>
      (await b.request<{ models: ModelChoice[]; defaultModel: ModelChoice | null }>('GET', '/api/models', as)).body;

    // Each read once on B, so B remembers them (for 5 s without a notice).
    expect((await settingsOnB()).registrationMode).toBe('open');
    const before = await modelsOnB();

    const closed = await a.request('PATCH', '/api/admin/settings', { ...as, body: { registrationMode: 'closed' } });
    expect(closed.status).toBe(200);
    expect((await settingsOnB()).registrationMode).toBe('closed');

    const created = await a.request<Connection>('POST', '/api/admin/connections', {
      ...as,
      body: { name: 'Second box', kind: 'openai-compatible', baseUrl: two.fake.baseUrl, allowPrivateAddress: true },
    });
    expect(created.status).toBe(201);
    const model = `${created.body.id}/second-model`;
    const enabled = await a.request('PATCH', `/api/admin/connections/${created.body.id}`, {
      ...as,
      body: { enabledModels: ['second-model'] },
    });
    expect(enabled.status).toBe(200);
    const after = await modelsOnB();
    expect(after.models.map((m) => m.id)).toEqual([...before.models.map((m) => m.id), model]);
    expect(after.defaultModel?.id).not.toBe(model);

    const chosen = await a.request('PATCH', '/api/admin/settings', { ...as, body: { defaultModels: { chat: model } } });
    expect(chosen.status).toBe(200);
    expect((await modelsOnB()).defaultModel?.id).toBe(model);
  });

  it("has a file uploaded through one instance read by the other's runner at once, not at its next poll", async () => {
    filesDir = mkdtempSync(join(tmpdir(), 'botty-notices-'));
    // A takes uploads but runs no file jobs; B looks for work by itself only every minute, longer than the
    // upload helper waits for its file (30 s): the file is ready only if the upload woke B.
    two = await startTwoInstances(
      { env: { FILES_DIR: filesDir } },
      { a: { fileJobs: { start: false } }, b: { fileJobs: { pollMs: 60_000 } } },
    );
    const owner = await person(two.a);
    const bot = await createBot(two.a, owner.token, { capabilities: ['document_analysis'] });
    const file = await uploadSettled(
      two.a,
      owner.token,
      `/api/bots/${bot.id}/files`,
      'kettle.txt',
      new TextEncoder().encode('The kettle warranty lasts 24 months.'),
    );
    expect(file).toMatchObject({ status: 'ready', chunkCount: 1 });
  });
});
