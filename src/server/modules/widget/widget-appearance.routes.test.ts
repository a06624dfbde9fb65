import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_MESSAGES } from '@shared/chat/widget-protocol';
import { DEFAULT_WIDGET_APPEARANCE, WIDGET_APPEARANCE_MESSAGES } from '@shared/contracts/widget';
import { databaseKinds } from '../../../../tests/support/databases';
import { createBot } from '../../../../tests/support/factories';
import { signUp, startTestApp, type TestApp } from '../../../../tests/support/test-app';

const SITE = 'http://127.0.0.1:4321';

describe.each(databaseKinds)('widget appearance, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind });
  });
  afterAll(async () => t.close());

  async function embeddedBot() {
    const owner = await signUp(t);
    const bot = await createBot(t, owner.token, { name: 'Lamp helper', config: { greeting: 'Hi from the bot' } });
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, {
      token: owner.token,
      body: { visibility: 'link', embedOrigins: [SITE] },
    });
    return { owner, bot };
  }

  const appearance = (botId: number, token: string, body?: object) =>
    t.request(body ? 'PATCH' : 'GET', `/api/bots/${botId}/widget-appearance`, { token, body });
  const config = (botId: number, origin?: string) =>
    fetch(`${t.url}/api/widget/${botId}/config`, { headers: origin ? { origin } : {} });

  it('starts from the defaults, keeps what the owner changes and gives the embedding site the launcher’s look', async () => {
    const { owner, bot } = await embeddedBot();
    expect((await appearance(bot.id, owner.token)).body).toEqual(DEFAULT_WIDGET_APPEARANCE);

    const saved = await appearance(bot.id, owner.token, {
      color: '#FACC15',
      position: 'left',
      offsetX: 32,
      title: '  Ask Acme  ',
      starters: ['Do you ship abroad?', ' What lamps suit a desk? '],
    });
    expect(saved.status).toBe(200);
    const expected = {
      ...DEFAULT_WIDGET_APPEARANCE,
      color: '#facc15',
      position: 'left',
      offsetX: 32,
      title: 'Ask Acme',
      starters: ['Do you ship abroad?', 'What lamps suit a desk?'],
    };
    expect(saved.body).toEqual(expected);
    // Only the fields sent change.
    expect((await appearance(bot.id, owner.token, { offsetY: 40 })).body).toEqual({ ...expected, offsetY: 40 });

    const res = await config(bot.id, SITE);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(res.headers.get('vary')).toMatch(/origin/i);
    expect(await res.json()).toEqual({
      color: '#facc15',
      position: 'left',
      offsetX: 32,
      offsetY: 40,
      title: 'Ask Acme',
    });

    // The framed page carries the title, colour, the bot's greeting (none of the widget's own) and the starters.
    const html = await (await fetch(`${t.url}/embed/${bot.id}?origin=${encodeURIComponent(SITE)}`)).text();
    expect(html).toContain('data-title="Ask Acme"');
    expect(html).toContain('data-color="#facc15"');
    expect(html).toContain('data-greeting="Hi from the bot"');
    expect(html).toContain('data-starters="[&quot;Do you ship abroad?&quot;,&quot;What lamps suit a desk?&quot;]"');
    await appearance(bot.id, owner.token, { greeting: 'Welcome to Acme', title: '' });
    const again = await (await fetch(`${t.url}/embed/${bot.id}?origin=${encodeURIComponent(SITE)}`)).text();
    expect(again).toContain('data-greeting="Welcome to Acme"');
    expect(again).toContain('data-title="Lamp helper"');
  });

  it.each([
    [{ color: 'purple' }, WIDGET_APPEARANCE_MESSAGES.color],
    [{ color: '#12345' }, WIDGET_APPEARANCE_MESSAGES.color],
    [{ position: 'top' }, WIDGET_APPEARANCE_MESSAGES.position],
    [{ offsetX: 201 }, WIDGET_APPEARANCE_MESSAGES.offset],
    [{ offsetY: -1 }, WIDGET_APPEARANCE_MESSAGES.offset],
    [{ offsetY: 1.5 }, WIDGET_APPEARANCE_MESSAGES.offset],
    [{ title: 'x'.repeat(61) }, WIDGET_APPEARANCE_MESSAGES.title],
    [{ greeting: 'x'.repeat(501) }, WIDGET_APPEARANCE_MESSAGES.greeting],
    [{ starters: ['a', 'b', 'c', 'd', 'e'] }, WIDGET_APPEARANCE_MESSAGES.starters],
    [{ starters: ['  '] }, WIDGET_APPEARANCE_MESSAGES.starter],
    [{ starters: ['x'.repeat(121)] }, WIDGET_APPEARANCE_MESSAGES.starter],
  ])('refuses %j with a 400 that says why', async (body, message) => {
    const { owner, bot } = await embeddedBot();
    const res = await appearance(bot.id, owner.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('is the owner’s alone, and refuses the launcher to sites that may not embed the bot, readably', async () => {
    const { owner, bot } = await embeddedBot();
    const stranger = await signUp(t);
    expect((await appearance(bot.id, stranger.token)).status).toBe(404);
    expect((await appearance(bot.id, stranger.token, { color: '#000000' })).status).toBe(404);

    for (const refused of [await config(bot.id, 'http://localhost:9999'), await config(bot.id)]) {
      expect(refused.status).toBe(404);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect(await refused.json()).toMatchObject({ message: WIDGET_MESSAGES.notAvailable });
    }
    await t.request('PATCH', `/api/bots/${bot.id}/sharing`, { token: owner.token, body: { visibility: 'private' } });
    expect((await config(bot.id, SITE)).status).toBe(404);
    expect((await config(999_999, SITE)).status).toBe(404);
  });
});
