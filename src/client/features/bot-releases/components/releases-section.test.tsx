import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from '@shared/contracts/bots';
import { ChatHeader } from '@/entities/chat/ui/chat-header';
import { fakeServer } from '@/test/fake-server';
import { releaseOf, serveReleases, verdictOf } from '@/test/fake-releases';
import { renderScreen } from '@/test/render';
import { signIn } from '@/test/session';
import { ReleasesSection } from './releases-section';

const botOf = (over: Partial<Bot> = {}) =>
  ({
    id: 7,
    name: 'Chef',
    description: 'Plans meals',
    purpose: 'answering',
    icon: 'utensils',
    active: true,
    capabilities: [],
    config: { model: 'm' },
    exampleQueries: [],
    version: 2,
    publishedVersion: 1,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...over,
  }) as Bot;

const blocked = verdictOf({
  passRate: 0.5,
  worse: 1,
  regressions: 1,
  summary: 'Version 2 vs version 1: 1 worse, 1 regression',
  blockedBy: ['1 regression: at most 0 allowed'],
  questions: [
    { query: 'Soup tonight?', change: 'regression', before: 'pass', after: 'fail', reason: 'No recipe given' },
  ],
});

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  signIn();
});

describe('Releases', () => {
  it('publishes, shows a blocked release with its reasons, and publishes anyway with a reason', async () => {
    const bot = botOf();
    server.json('GET', '/api/bots/7', bot);
    const state = serveReleases(server, 7, {
      latest: 2,
      releases: [releaseOf(1)],
      decide: () => ({ status: 'blocked', baselineVersion: 1, verdict: blocked }),
    });
    const { user } = renderScreen(<ReleasesSection bot={bot} />);
    expect(await screen.findByText('Published: version 1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publish version 2' }));
    expect(server.sent('POST', '/api/bots/7/releases')[0]?.body).toEqual({});
    // Checked on the server, polled until decided; publishing again waits meanwhile.
    expect(await screen.findByText('Checking version 2 against version 1…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish version 2' }).hasAttribute('disabled')).toBe(true);

    const heading = await screen.findByText('Version 2 was not published');
    const result = within(heading.closest<HTMLElement>('[role="status"]')!);
    expect(result.getByText('Version 2 vs version 1: 1 worse, 1 regression')).toBeTruthy();
    expect(result.getByText('1 regression: at most 0 allowed')).toBeTruthy();
    const question = within(result.getByRole('list', { name: 'Questions that got worse' }));
    expect(question.getByText('Soup tonight?')).toBeTruthy();
    expect(question.getByText('pass → fail')).toBeTruthy();
    expect(question.getByText('No recipe given')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Publish anyway' }));
    const dialog = within(screen.getByRole('dialog'));
    await user.click(dialog.getByRole('button', { name: 'Publish anyway' }));
    expect(await dialog.findByText('Say why you publish anyway')).toBeTruthy();
    await user.type(dialog.getByLabelText('Reason'), 'The judge is too strict on soups');
    await user.click(dialog.getByRole('button', { name: 'Publish anyway' }));

    expect(await screen.findByText('Version 2 is published')).toBeTruthy();
    expect(server.sent('POST', '/api/bots/7/releases')[1]?.body).toEqual({
      version: 2,
      override: { reason: 'The judge is too strict on soups' },
    });
    const history = within(await screen.findByRole('list', { name: 'Release history' }));
    expect(await history.findByText('The judge is too strict on soups')).toBeTruthy();
    expect(state.releases[0]?.overrideReason).toBe('The judge is too strict on soups');
  });

  it('rolls back to an earlier published version at once', async () => {
    const bot = botOf({ version: 3, publishedVersion: 2 });
    server.json('GET', '/api/bots/7', bot);
    serveReleases(server, 7, {
      releases: [
        releaseOf(3, { version: 2, overrideReason: 'Urgent fix' }),
        releaseOf(2, { version: 2, status: 'blocked', verdict: blocked }),
        releaseOf(1, { version: 1, verdict: verdictOf({ tested: false, summary: '' }) }),
      ],
    });
    const { user } = renderScreen(<ReleasesSection bot={bot} />);
    const history = within(await screen.findByRole('list', { name: 'Release history' }));
    expect(history.getByText('Nothing was tested.')).toBeTruthy();
    expect(history.getByText('Urgent fix')).toBeTruthy();
    // Only version 1 is an earlier published version.
    expect(history.getAllByRole('button', { name: 'Roll back to this version' })).toHaveLength(1);
    await user.click(history.getByRole('button', { name: 'Roll back to this version' }));
    expect(server.sent('POST', '/api/bots/7/releases')[0]?.body).toEqual({ version: 1, skipGate: true });
    expect(await screen.findByText('Version 1 is published')).toBeTruthy();
    expect(await history.findByText('Rolled back')).toBeTruthy();
  });

  it('saves the gate as a percentage', async () => {
    const bot = botOf();
    server.json('GET', '/api/bots/7', bot);
    serveReleases(server, 7);
    const { user } = renderScreen(<ReleasesSection bot={bot} />);
    const rate = await screen.findByLabelText('Minimum pass rate (%)');
    await user.type(rate, '150');
    await user.click(screen.getByRole('button', { name: 'Save gate' }));
    expect(await screen.findByText('Minimum pass rate must be a percentage from 0 to 100, or empty')).toBeTruthy();
    await user.clear(rate);
    await user.type(rate, '80');
    await user.click(screen.getByRole('button', { name: 'Save gate' }));
    await screen.findByText('Release gate saved');
    expect(server.sent('PUT', '/api/bots/7/release-gate')).toHaveLength(1);
    expect(server.sent('PUT', '/api/bots/7/release-gate')[0]?.body).toEqual({ minPassRate: 0.8, maxRegressions: 0 });
  });
});

describe('Chat header', () => {
  const header = (over: Partial<Bot>) => renderScreen(<ChatHeader bot={botOf(over)} onClose={() => undefined} />);

  it('marks the owner’s draft and says which version the others get', () => {
    header({ version: 3, publishedVersion: 2 });
    expect(screen.getByTitle('People you share this botty with get version 2').textContent).toBe(
      'Draft: people you share this botty with get version 2',
    );
    expect(screen.getByRole('link', { name: 'Chef' }).getAttribute('href')).toBe('/bots/7/releases');
  });

  it('shows no draft before the first release or when the latest is published', () => {
    header({ version: 3, publishedVersion: null });
    expect(screen.queryByText(/Draft/)).toBeNull();
  });
});
