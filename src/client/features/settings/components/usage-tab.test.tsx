import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UsageReport, UsageTotal } from '@shared/contracts/admin';
import { fakeServer } from '@/test/fake-server';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { SettingsPage } from './settings-page';
import { resetTime } from './usage-tab';

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  signIn();
  const llama = { id: '0/llama3', label: 'Llama 3 (local)', connectionId: 0, model: 'llama3' };
  server.json('GET', '/api/models', { models: [llama], defaultModel: llama });
});

const total = (fields: Partial<UsageTotal>): UsageTotal => ({
  userId: 1,
  username: 'sam',
  botId: 3,
  botName: 'Chef',
  model: '0/llama3',
  replies: 1,
  inputTokens: 0,
  outputTokens: 0,
  ...fields,
});

const RESETS_AT = '2026-11-27T00:00:00.000Z';
const report: UsageReport = {
  from: '2026-10-28',
  to: '2026-11-26',
  days: [
    { day: '2026-11-20', replies: 2, inputTokens: 300, outputTokens: 200 },
    { day: '2026-11-26', replies: 4, inputTokens: 1000, outputTokens: 1500 },
  ],
  totals: [
    total({ replies: 5, inputTokens: 1200, outputTokens: 1600 }),
    total({ botId: null, botName: null, model: '2/claude-haiku', replies: 1, inputTokens: 100, outputTokens: 100 }),
  ],
  truncated: false,
  today: { tokens: 2500, replies: 4, limits: { dailyTokens: 10000, dailyReplies: null }, resetsAt: RESETS_AT },
};

const openUsage = () => renderScreen(<SettingsPage />, '/settings?tab=usage');

describe('Settings → Usage', () => {
  it("shows today's use against the limits, the days and the use per botty and model", async () => {
    server.json('GET', '/api/usage', report);
    const { user } = openUsage();

    const today = (await screen.findByRole('heading', { name: 'Today' })).parentElement!;
    expect(within(today).getByText(`${(2500).toLocaleString()} of ${(10000).toLocaleString()}`)).toBeTruthy();
    expect(within(today).getByText('4 · no limit')).toBeTruthy();
    expect(within(today).getByRole('progressbar', { name: 'Tokens used today' }).getAttribute('aria-valuenow')).toBe(
      '25',
    );
    expect(within(today).queryByRole('progressbar', { name: 'Replies used today' })).toBeNull();
    expect(within(today).getByText(`Limits reset ${resetTime(RESETS_AT)}`)).toBeTruthy();

    const days = screen.getByRole('heading', { name: 'Last 30 days' }).parentElement!;
    expect(within(days).getByText(`6 replies and ${(3000).toLocaleString()} tokens`)).toBeTruthy();
    expect(within(days).getByTestId('usage-bars').children).toHaveLength(30);
    await user.click(within(days).getByText('Per day'));
    const perDay = within(days).getByRole('table', { name: 'Usage per day' });
    expect(
      within(perDay)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.children].map((cell) => cell.textContent)),
    ).toEqual([
      ['Nov 26', '4', (2500).toLocaleString()],
      ['Nov 20', '2', '500'],
    ]);

    const byBot = screen.getByRole('table', { name: 'Usage per botty and model, last 30 days' });
    expect(
      within(byBot)
        .getAllByRole('row')
        .slice(1)
        .map((r) => [...r.children].map((cell) => cell.textContent)),
    ).toEqual([
      ['ChefLlama 3 (local)', '5', (2800).toLocaleString()],
      // A model no longer enabled is named as its server calls it.
      ['No botty (drafts)claude-haiku', '1', '200'],
    ]);
  });

  it('says when nothing was used', async () => {
    server.json('GET', '/api/usage', {
      ...report,
      days: [],
      totals: [],
      today: { ...report.today!, tokens: 0, replies: 0, limits: { dailyTokens: null, dailyReplies: 50 } },
    });
    openUsage();
    expect(await screen.findByText('No replies in the last 30 days.')).toBeTruthy();
    expect(screen.getByText('0 · no limit')).toBeTruthy();
    expect(screen.getByText('0 of 50')).toBeTruthy();
  });
});
