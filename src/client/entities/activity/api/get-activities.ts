import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { Activity } from '@shared/contracts/activities';
import { useAuth } from '@/lib/auth';
import { apiRequest } from '@/lib/request';

const activityKeys = {
  all: ['activities'] as const,
  list: (userId: number, limit: number) => [...activityKeys.all, userId, limit] as const,
};

const getActivities = (userId: number, limit: number) =>
  apiRequest<Activity[]>('GET', `/api/users/${userId}/activities?limit=${limit}`);

/** Every change to a bot adds an activity, so the bot mutations refresh whatever activity lists are cached. */
export const invalidateActivities = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: activityKeys.all });

/** Loads only for the signed-in user. */
export function useActivities(limit: number) {
  const { user } = useAuth();
  const userId = user?.id ?? 0;
  return useQuery({
    queryKey: activityKeys.list(userId, limit),
    queryFn: () => getActivities(userId, limit),
    enabled: user !== null,
  });
}
