import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplorePage, ShareLink } from '@shared/contracts/shared-bots';
import { person, type Person } from '../../../../tests/support/admin-api';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';

const SITE = 'https://shop.example';

describe.each(databaseKinds)('the shared bots of a disabled account, on %s', (kind) => {
  let t: TestApp;
  let superadmin: Person;
  beforeAll(async () => {
    t = await startTestApp({ kind });
    superadmin = await person(t);
  });
  afterAll(() => t.close());

  it('stop answering others (link, Explore, chat, widget) until the account is enabled again', async () => {
    const owner = await person(t);
    const guest = await person(t);
    const bot = await createBot(t, owner.token, { name: 'Widely shared' });
    const shared = await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'public', embedOrigins: [SITE] },
    });
    expect(shared.status).toBe(200);
    const { slug } = (await t.request<ShareLink>('POST', `/api/bots/${bot.id}/share-link`, { token: owner.token }))
      .body;

    const reach = async () => ({
      link: (await t.request('GET', `/api/shared/bots/${slug}`, { token: guest.token })).status,
      explore: (await t.request('GET', `/api/explore/bots/${bot.id}`, { token: guest.token })).status,
      listed: (
        await t.request<ExplorePage>('GET', '/api/explore/bots?q=Widely', { token: guest.token })
      ).body.items.some((b) => b.id === bot.id),
      // 201 the first time, 200 when the guest's empty conversation with the bot is reused.
      chat:
        (await t.request('POST', '/api/conversations', { token: guest.token, body: { botId: bot.id } })).status < 300,
      widget: (await t.request('GET', `/api/widget/${bot.id}/config`, { headers: { origin: SITE } })).status,
    });
    const open = { link: 200, explore: 200, listed: true, chat: true, widget: 200 };
    expect(await reach()).toEqual(open);

    const setDisabled = (disabled: boolean) =>
      t.request('PATCH', `/api/admin/users/${owner.id}`, { token: superadmin.token, body: { disabled } });
    expect((await setDisabled(true)).status).toBe(200);
    expect(await reach()).toEqual({ link: 404, explore: 404, listed: false, chat: false, widget: 404 });

    expect((await setDisabled(false)).status).toBe(200);
    expect(await reach()).toEqual(open);
  });
});
