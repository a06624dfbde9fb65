import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateBotSharingRequest } from '@shared/contracts/bot-sharing';
import type { Bot } from '@shared/contracts/bots';
import type { ExplorePage, SharedBot, ShareLink } from '@shared/contracts/shared-bots';
import type { Purpose } from '@shared/bots/purposes';
import { invalidateActivities } from '@/entities/activity/api/get-activities';
import { apiRequest } from '@/lib/request';
import { botKeys } from './bot-keys';

/** Bots as people they are shared with see them (decision 0017). */
export const sharedKeys = {
  all: ['shared-bots'] as const,
  bySlug: (slug: string) => [...sharedKeys.all, 'slug', slug] as const,
  byId: (id: number) => [...sharedKeys.all, 'id', id] as const,
  explore: (filter: ExploreFilter) => [...sharedKeys.all, 'explore', filter] as const,
};

/** The owner's sharing settings; only the fields sent change. */
export function useUpdateSharing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateBotSharingRequest }) =>
      apiRequest<Bot>('PATCH', `/api/bots/${id}/sharing`, changes),
    onSuccess: async (bot) => {
      queryClient.setQueryData(botKeys.detail(bot.id), bot);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: botKeys.list() }),
        queryClient.invalidateQueries({ queryKey: sharedKeys.all }),
        invalidateActivities(queryClient),
      ]);
    },
  });
}

/** A new link for the bot; the answer is the only time its slug is shown. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<ShareLink>('POST', `/api/bots/${id}/share-link`),
    onSuccess: (_link, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: botKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: botKeys.list() }),
      ]),
  });
}

/** Opening a link: the server then lets the caller chat with the bot. */
export const useSharedBot = (slug: string) =>
  useQuery({
    queryKey: sharedKeys.bySlug(slug),
    queryFn: () => apiRequest<SharedBot>('GET', `/api/shared/bots/${encodeURIComponent(slug)}`),
    retry: false,
  });

/** A bot the caller may use (their own, public, or a link they opened), as visitors see it. */
export const useUsableBot = (id: number | undefined, enabled = true) =>
  useQuery({
    queryKey: sharedKeys.byId(id ?? 0),
    queryFn: () => apiRequest<SharedBot>('GET', `/api/explore/bots/${id}`),
    enabled: enabled && id !== undefined && id > 0,
    retry: false,
    // Its count of users changes with other people's visits, so it is asked again each time it is shown.
    refetchOnMount: 'always',
  });

export interface ExploreFilter {
  q: string;
  purpose: Purpose | null;
}

function explorePath({ q, purpose }: ExploreFilter, cursor: string | null) {
  const params = new URLSearchParams();
  if (q.trim()) params.set('q', q.trim());
  if (purpose) params.set('purpose', purpose);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/api/explore/bots${query ? `?${query}` : ''}`;
}

/** Public bots, a page at a time; the previous results stay up while a new search loads. */
export const useExploreBots = (filter: ExploreFilter) =>
  useInfiniteQuery({
    queryKey: sharedKeys.explore(filter),
    queryFn: ({ pageParam }) => apiRequest<ExplorePage>('GET', explorePath(filter, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });

/** "Add to my botties": by link slug, or by id for a bot the caller may use. */
export function useCopyBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (from: { slug: string } | { id: number }) =>
      apiRequest<Bot>(
        'POST',
        'slug' in from ? `/api/shared/bots/${encodeURIComponent(from.slug)}/copy` : `/api/explore/bots/${from.id}/copy`,
      ),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: botKeys.list() }), invalidateActivities(queryClient)]),
  });
}
