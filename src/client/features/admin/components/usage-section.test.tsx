import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageReport } from '@shared/contracts/admin';
import { fakeServer } from '@/test/fake-server';
import { openAdmin, SETTINGS, signInAs } from '../test/admin-fixtures';

const REPORT: UsageReport = {
  from: '2026-10-28',
  to: '2026-11-26',
  days: [
    { day: '2026-11-25', replies: 2, inputTokens: 100, outputTokens: 50 },
    { day: '2026-11-26', replies: 1, inputTokens: 1000, outputTokens: 500 },
  ],
  totals: [
    {
      userId: 3,
      username: 'bob',
      botId: 5,
      botName: 'Chef',
      model: '1/llama3',
      replies: 3,
      inputTokens: 1100,
      outputTokens: 550,
    },
  ],
  truncated: false,
  today: null,
};

let server: ReturnType<typeof fakeServer>;
const saved: { href: string; download: string }[] = [];
let clickSpy: { mockRestore: () => void };

beforeEach(() => {
  server = fakeServer();
  server.on('GET', '/api/admin/usage', (request) => {
    const format = new URL(request.path, 'http://localhost').searchParams.get('format');
    return format === 'csv'
      ? new Response('day,username\n2026-11-25,bob\n', {
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="usage.csv"' },
        })
      : Response.json(REPORT);
  });
  server.json('GET', '/api/admin/settings', SETTINGS);
  server.json('GET', '/api/models', {
    models: [{ id: '1/llama3', label: 'llama3 · Local Ollama', connectionId: 1, model: 'llama3' }],
    defaultModel: null,
  });
  // The browser's download: a blob address and a click on a link, which jsdom cannot follow.
  Object.assign(URL, { createObjectURL: () => 'blob:usage', revokeObjectURL: () => {} });
  saved.length = 0;
  clickSpy = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
  // Today, for the default range: only the clock's date is fixed, timers run as usual.
  vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z'), toFake: ['Date'] });
  signInAs('admin');
});
afterEach(() => {
  vi.useRealTimers();
  clickSpy.mockRestore();
});

describe('Admin → Usage', () => {
  it('asks for the last 30 days and shows them per person, bot and model', async () => {
    await openAdmin('/admin/usage');
    const table = await screen.findByRole('region', { name: 'Usage by person, bot and model' });
    // The model by its label, once the models are in.
    await within(table).findByText('llama3 · Local Ollama');
    const row = within(table).getByRole('row', { name: /bob/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Chef', 'llama3 · Local Ollama', '3', '1,100', '550']);
    expect(server.sent('GET', '/api/admin/usage?from=2026-10-28&to=2026-11-26&format=json')).toHaveLength(1);
    expect(screen.getByText('1,650')).toBeTruthy();
  });

  it('downloads the range as CSV with the sign-in token', async () => {
    const { user } = await openAdmin('/admin/usage');
    await screen.findByRole('region', { name: 'Usage by person, bot and model' });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:usage', download: 'usage.csv' }]));
    const [request] = server.sent('GET', '/api/admin/usage?from=2026-10-28&to=2026-11-26&format=csv');
    expect(request?.headers.get('Authorization')).toBe('Bearer token');
  });

  it('saves default daily limits per role', async () => {
    server.json('PATCH', '/api/admin/settings', (request) => ({ ...SETTINGS, ...(request.body as object) }));
    const { user } = await openAdmin('/admin/usage');

    const admins = await screen.findByRole('group', { name: 'Admins' });
    await user.type(within(admins).getByRole('spinbutton', { name: 'Daily replies' }), '50');
    const users = screen.getByRole('group', { name: 'Users' });
    await user.clear(within(users).getByRole('spinbutton', { name: 'Daily tokens' }));
    await user.click(screen.getByRole('button', { name: 'Save limits' }));

    await waitFor(() =>
      expect(server.sent('PATCH', '/api/admin/settings')[0]?.body).toEqual({
        defaultLimits: {
          user: { dailyTokens: null, dailyReplies: 200 },
          admin: { dailyTokens: null, dailyReplies: 50 },
          superadmin: { dailyTokens: null, dailyReplies: null },
        },
      }),
    );
  });
});
