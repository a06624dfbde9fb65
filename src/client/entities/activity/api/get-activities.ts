import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { Activity } from '@shared/contracts/activities';
import { useAuth } from '@/lib/auth';

export const activitiesQueryKey = (userId: number, limit: number) =>
  [`/api/users/${userId}/activities?limit=${limit}`] as const;

const ACTIVITIES_PATH = /^\/api\/users\/\d+\/activities\b/;

/** Every change to a bot adds an activity, so the bot mutations refresh whatever activity lists are cached. */
export const invalidateActivities = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({
    predicate: ({ queryKey: [path] }) => typeof path === 'string' && ACTIVITIES_PATH.test(path),
  });

/** Loads only for the signed-in user, through the default query function (GET of the key). */
export function useActivities(limit: number) {
  const { user } = useAuth();
  return useQuery<Activity[]>({ queryKey: activitiesQueryKey(user?.id ?? 0, limit), enabled: user !== null });
}
