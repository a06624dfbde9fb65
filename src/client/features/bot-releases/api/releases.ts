import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateReleaseBody, Release, ReleaseGate } from '@shared/contracts/releases';
import { botKeys } from '@/entities/bot/api/bot-keys';
import { apiRequest } from '@/lib/request';

/** How often a release being checked is asked about: its evaluation takes seconds to minutes. */
const CHECKING_POLL_MS = 1500;

const releaseKeys = {
  list: (botId: number) => [...botKeys.detail(botId), 'releases'] as const,
  one: (botId: number, releaseId: number) => [...botKeys.detail(botId), 'releases', releaseId] as const,
  gate: (botId: number) => [...botKeys.detail(botId), 'release-gate'] as const,
};

/** A decision changes the bot's `publishedVersion` and the history; nothing else about the bot. */
function refreshAfterDecision(queryClient: QueryClient, botId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: botKeys.detail(botId), exact: true }),
    queryClient.invalidateQueries({ queryKey: releaseKeys.list(botId), exact: true }),
  ]);
}

/** The bot's releases, newest first; asked again while one is still being checked. */
export function useReleases(botId: number) {
  return useQuery({
    queryKey: releaseKeys.list(botId),
    queryFn: () => apiRequest<Release[]>('GET', `/api/bots/${botId}/releases`),
    refetchInterval: (query) =>
      query.state.data?.some((release) => release.status === 'checking') ? CHECKING_POLL_MS : false,
  });
}

/**
 * One release, polled until it leaves `checking`; then the list and the bot (its `publishedVersion`) are
 * read again, since the decision changed both.
 */
export function useRelease(botId: number, releaseId: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: releaseKeys.one(botId, releaseId ?? 0),
    enabled: releaseId !== undefined,
    queryFn: async () => {
      const release = await apiRequest<Release>('GET', `/api/bots/${botId}/releases/${releaseId}`);
      if (release.status !== 'checking') void refreshAfterDecision(queryClient, botId);
      return release;
    },
    refetchInterval: (query) => (query.state.data?.status === 'checking' ? CHECKING_POLL_MS : false),
  });
}

/** Publishes (the latest version when `version` is left out), anyway with a reason, or rolls back. */
export function usePublish(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReleaseBody) => apiRequest<Release>('POST', `/api/bots/${botId}/releases`, body),
    onSuccess: async (release) => {
      queryClient.setQueryData(releaseKeys.one(botId, release.id), release);
      await refreshAfterDecision(queryClient, botId);
    },
  });
}

export function useReleaseGate(botId: number) {
  return useQuery({
    queryKey: releaseKeys.gate(botId),
    queryFn: () => apiRequest<ReleaseGate>('GET', `/api/bots/${botId}/release-gate`),
  });
}

export function useSaveReleaseGate(botId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gate: ReleaseGate) => apiRequest<ReleaseGate>('PUT', `/api/bots/${botId}/release-gate`, gate),
    onSuccess: (gate) => queryClient.setQueryData(releaseKeys.gate(botId), gate),
  });
}
