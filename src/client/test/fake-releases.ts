import type {
  CreateReleaseBody,
  Release,
  ReleaseGate,
  ReleaseStatus,
  ReleaseVerdict,
} from '@shared/contracts/releases';
import { DEFAULT_RELEASE_GATE } from '@shared/contracts/releases';
import type { fakeServer } from './fake-server';

export const releaseOf = (id: number, over: Partial<Release> = {}): Release => ({
  id,
  botId: 7,
  version: 1,
  status: 'published',
  skipGate: false,
  overrideReason: null,
  baselineVersion: null,
  evaluationId: null,
  baselineEvaluationId: null,
  verdict: null,
  message: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  decidedAt: '2026-11-26T10:01:00.000Z',
  ...over,
});

export const verdictOf = (over: Partial<ReleaseVerdict> = {}): ReleaseVerdict => ({
  tested: true,
  passRate: 1,
  baselinePassRate: 1,
  better: 0,
  worse: 0,
  regressions: 0,
  judgeUnavailable: 0,
  summary: 'Version 2 vs version 1: no change',
  blockedBy: [],
  questions: [],
  gate: DEFAULT_RELEASE_GATE,
  ...over,
});

/**
 * The releases routes of one bot as the server answers them: a release asked for is `checking` until the
 * next read of it, which answers what `decide` says (a gated release); an override or a rollback publishes
 * at once. The bot's own route is the test's.
 */
export function serveReleases(
  server: ReturnType<typeof fakeServer>,
  botId: number,
  {
    releases = [] as Release[],
    decide = (): Partial<Release> => ({ status: 'published' as ReleaseStatus }),
    latest = 1,
  } = {},
) {
  const state = { releases: [...releases], gate: { ...DEFAULT_RELEASE_GATE } as ReleaseGate };
  const base = `/api/bots/${botId}`;
  server.json('GET', `${base}/releases`, () => state.releases);
  server.json(
    'POST',
    `${base}/releases`,
    (request) => {
      const body = request.body as CreateReleaseBody;
      const immediate = body.override !== undefined || body.skipGate === true;
      const release = releaseOf(Math.max(0, ...state.releases.map((r) => r.id)) + 1, {
        botId,
        version: body.version ?? latest,
        status: immediate ? 'published' : 'checking',
        skipGate: body.skipGate ?? false,
        overrideReason: body.override?.reason ?? null,
        baselineVersion: state.releases.find((r) => r.status === 'published')?.version ?? null,
        decidedAt: null,
      });
      state.releases.unshift(release);
      // Each release is also readable on its own, decided from its second read on.
      server.json('GET', `${base}/releases/${release.id}`, () => {
        const index = state.releases.findIndex((r) => r.id === release.id);
        if (state.releases[index]!.status === 'checking') state.releases[index] = { ...release, ...decide() };
        return state.releases[index]!;
      });
      return release;
    },
    202,
  );
  for (const release of state.releases) server.json('GET', `${base}/releases/${release.id}`, release);
  server.json('GET', `${base}/release-gate`, () => state.gate);
  server.json('PUT', `${base}/release-gate`, (request) => (state.gate = request.body as ReleaseGate));
  return state;
}
