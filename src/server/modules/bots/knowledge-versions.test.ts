import { describe, expect, it } from 'vitest';
import type { BotVersion, BotVersionSummary } from '@shared/contracts/bot-versions';
import type { Bot } from '@shared/contracts/bots';
import { KNOWLEDGE_VERSION_WINDOW_MS } from './bots.service';
import { manualClock } from '../../../../tests/support/auth-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { appsWithFiles, uploadSettled } from '../../../../tests/support/files-api';
import { createBot } from '../../../../tests/support/factories';
import { signUp } from '../../../../tests/support/test-app';

describe.each(databaseKinds)('knowledge changes in the version history, on %s', (kind) => {
  const apps = appsWithFiles(kind);

  it('makes one version of files added together, and a new one once published or after a while', async () => {
    const clock = manualClock();
    const t = await apps.start({ clock });
    const { token } = await signUp(t);
    const bot = await createBot(t, token, { capabilities: ['document_analysis'] });
    const path = `/api/bots/${bot.id}/files`;
    const add = (name: string) => uploadSettled(t, token, path, name, new TextEncoder().encode(`About ${name}.`));
    const versions = async () =>
      (await t.request<BotVersionSummary[]>('GET', `/api/bots/${bot.id}/versions`, { token })).body.map((v) => ({
        number: v.number,
        changed: v.changed,
      }));
    const filesOf = async (n: number) =>
      (await t.request<BotVersion>('GET', `/api/bots/${bot.id}/versions/${n}`, { token })).body.snapshot.knowledge!.map(
        (f) => f.name,
      );

    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      await add(name);
      clock.advance(60_000);
    }
    expect(await versions()).toEqual([
      { number: 2, changed: ['knowledge'] },
      { number: 1, changed: [] },
    ]);
    expect(await filesOf(2)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect((await t.request<Bot>('GET', `/api/bots/${bot.id}`, { token })).body.version).toBe(2);

    // Published: what visitors get stays as it was published.
    const release = await t.request('POST', `/api/bots/${bot.id}/releases`, {
      token,
      body: { override: { reason: 'Ready for visitors.' } },
    });
    expect(release.status).toBe(202);
    await add('d.txt');
    expect((await versions()).map((v) => v.number)).toEqual([3, 2, 1]);
    expect(await filesOf(2)).toEqual(['a.txt', 'b.txt', 'c.txt']);

    // Long after the last one, a file starts a version of its own.
    clock.advance(KNOWLEDGE_VERSION_WINDOW_MS + 1);
    await add('e.txt');
    expect((await versions()).map((v) => v.number)).toEqual([4, 3, 2, 1]);
    expect(await filesOf(3)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    expect(await filesOf(4)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
  });
});
