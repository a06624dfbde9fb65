import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBot } from './support/factories';
import { uploadSettled } from './support/files-api';
import { pdfWithPages } from './support/files';
import { startServerProcess } from './support/server-process';
import { signUp } from './support/test-app';

// `npm start` runs the server's build (dist/server, decision 0055): one bundle for the server and one for the
// extraction worker, which it starts from beside its own file rather than from the TypeScript sources.
describe('the built server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'botty-built-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts on an empty SQLite file and reads an uploaded PDF in its extraction worker', async () => {
    const server = await startServerProcess({
      DATABASE_URL: join(dir, 'botty.db'),
      FILES_DIR: join(dir, 'files'),
    });
    try {
      const { token } = await signUp(server);
      const bot = await createBot(server, token);
      const pdf = await pdfWithPages(['The warranty lasts two years.', 'Returns are free within 30 days.']);
      const file = await uploadSettled(server, token, `/api/bots/${bot.id}/files`, 'terms.pdf', pdf);
      expect(file).toMatchObject({ status: 'ready', error: null });
      expect(file.chunkCount).toBeGreaterThan(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
