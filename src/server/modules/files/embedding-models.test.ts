import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../../../../tests/support/admin-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startFakeLlm, type FakeLlm } from '../../../../tests/support/fake-llm';
import { appsWithFiles, uploadSettled as upload } from '../../../../tests/support/files-api';
import { findKnowledgeVectorIds } from './vector-index.repository';

const text = (s: string) => new TextEncoder().encode(s);

describe.each(databaseKinds)('embeddings models (%s)', (kind) => {
  let envLlm: FakeLlm;
  let second: FakeLlm;
  const { start } = appsWithFiles(kind);
  beforeAll(async () => {
    envLlm = await startFakeLlm();
    second = await startFakeLlm({ models: ['other-embed'] });
  });
  afterAll(async () => {
    await envLlm.close();
    await second.close();
  });

  it("records each vector's model, embeds with the admin's default once set, and never ranks across models", async () => {
    const t = await start({
      env: { LLM_BASE_URL: envLlm.baseUrl, LLM_MODEL: envLlm.model, LLM_EMBEDDING_MODEL: 'env-embed' },
    });
    const admin = await person(t);
    const bot = await createBot(t, admin.token, { capabilities: ['document_analysis'] });
    const path = `/api/bots/${bot.id}/files`;
    await upload(t, admin.token, path, 'before.txt', text('The kettle warranty lasts 24 months.'));

    const connection = await t.request('POST', '/api/admin/connections', {
      token: admin.token,
      body: { name: 'Embedder', kind: 'openai-compatible', baseUrl: second.baseUrl, allowPrivateAddress: true },
    });
    const id = `${connection.body.id}/other-embed`;
    await t.request('PATCH', `/api/admin/connections/${connection.body.id}`, {
      token: admin.token,
      body: { enabledModels: ['other-embed'] },
    });
    const set = await t.request('PATCH', '/api/admin/settings', {
      token: admin.token,
      body: { defaultModels: { embeddings: id } },
    });
    expect(set.status).toBe(200);
    await upload(t, admin.token, path, 'after.txt', text('Descale the kettle every month.'));

    expect(envLlm.embeddingRequests.map((r) => r.model)).toEqual(['env-embed']);
    expect(second.embeddingRequests.map((r) => r.model)).toEqual(['other-embed']);
    const rows = await t.db.kysely
      .selectFrom('file_chunks')
      .select(['id', 'embedding_model'])
      .where('embedding', 'is not', null)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.embedding_model)).toEqual(['0/env-embed', id]);

    const knowledge = { ownerId: admin.id, botId: bot.id };
    const ids = (model: { id: string; readsUnlabelled: boolean }) =>
      findKnowledgeVectorIds(t.db.kysely, knowledge, model);
    expect(await ids({ id, readsUnlabelled: false })).toEqual([rows[1]!.id]);
    expect(await ids({ id: '0/env-embed', readsUnlabelled: true })).toEqual([rows[0]!.id]);
    // Vectors from before models were recorded belong to the environment's model alone.
    await t.db.kysely.updateTable('file_chunks').set({ embedding_model: null }).where('id', '=', rows[0]!.id).execute();
    expect(await ids({ id: '0/env-embed', readsUnlabelled: true })).toEqual([rows[0]!.id]);
    expect(await ids({ id, readsUnlabelled: false })).toEqual([rows[1]!.id]);
  });
});
