import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { User } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { apiFetch, apiRequest } from '@/lib/request';
import { clearSession, getAuthToken, saveStoredUser } from '@/lib/storage';

export const USER_QUERY_KEY = ['user'] as const;

/** The signed-in user, or null when the server does not know the token (401). */
async function fetchUser(signal: AbortSignal): Promise<User | null> {
  const res = await apiFetch('GET', '/api/auth/user', { signal, allowUnauthorized: true });
  return res.status === 401 ? null : ((await res.json()) as User);
}

/** Spec §4: a stored token is checked once on load; anything but a user with an id signs the visitor out. */
const userQueryOptions = queryOptions({
  queryKey: USER_QUERY_KEY,
  queryFn: async ({ signal }): Promise<User | null> => {
    if (!getAuthToken()) return null;
    try {
      const user = await fetchUser(signal);
      if (user && typeof user.id === 'number') return user;
    } catch (error) {
      if (signal.aborted) throw error;
    }
    clearSession();
    return null;
  },
  // Without a token there is nothing to verify, so signed-out screens render without a loading flash.
  initialData: () => (getAuthToken() ? undefined : null),
});

export function useAuth() {
  const { data, isLoading } = useQuery(userQueryOptions);
  const user = data ?? null;
  return { user, isLoading, isAuthenticated: user !== null };
}

export function setCurrentUser(queryClient: QueryClient, user: User): void {
  queryClient.setQueryData(USER_QUERY_KEY, user);
  saveStoredUser(user);
}

export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<{ message: string }>('POST', '/api/auth/logout'),
    // Signing out locally must work even when the server cannot be reached.
    onSettled: async () => {
      clearSession();
      // The guard of the page being left skips recording it as the post-login target (see protected-route.tsx).
      await navigate('/login');
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, null);
      toast({ title: 'Logged out' });
    },
  });
}
