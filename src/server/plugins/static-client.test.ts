import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

describe('the built client', () => {
  const root = mkdtempSync(join(tmpdir(), 'botty-client-'));
  let t: TestApp;
  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'chat-page-B11bKQ_H.js'), 'export {};');
    writeFileSync(join(root, 'embed.js'), '/* loader */');
    t = await startTestApp({ clientRoot: root });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets the browser keep fingerprinted assets for good, and check everything else', async () => {
    const asset = await t.request('GET', '/assets/chat-page-B11bKQ_H.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const loader = await t.request('GET', '/embed.js');
    expect(loader.headers.get('cache-control')).toBe('public, max-age=0');
    expect(loader.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // The page itself, at any client path, is always checked so a new release shows at once.
    const page = await t.request('GET', '/chat/1?c=2');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });
});
