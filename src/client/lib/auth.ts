import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { User } from '@shared/contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { SESSION_URL } from '@/lib/early-requests';
import { apiFetch, ApiError, apiRequest } from '@/lib/request';
import { clearSession, getAuthToken, saveStoredUser } from '@/lib/storage';

export const USER_QUERY_KEY = ['user'] as const;

const isUser = (value: unknown): value is User =>
  typeof value === 'object' && value !== null && typeof (value as Partial<User>).id === 'number';

/**
 * Spec §4: a stored token is checked once on load; any answer but a user with an id signs the visitor out.
 * A check that got no answer (the request failed, as it does when the page is left or reloaded while the
 * check is under way) verified nothing: this page goes on as signed out, but the stored session stays for
 * the next page, which shares session storage with this one and checks the token again.
 */
const userQueryOptions = queryOptions({
  queryKey: USER_QUERY_KEY,
  queryFn: async ({ signal }): Promise<User | null> => {
    if (!getAuthToken()) return null;
    let answer: unknown = null;
    try {
      const res = await apiFetch('GET', SESSION_URL, { signal, allowUnauthorized: true });
      if (res.status !== 401) answer = await res.json();
    } catch (error) {
      if (signal.aborted) throw error;
      // An error status or a body that is not JSON is still the server's answer; anything else is none.
      if (!(error instanceof ApiError || error instanceof SyntaxError)) return null;
    }
    if (isUser(answer)) return answer;
    clearSession();
    return null;
  },
  // Without a token there is nothing to verify, so signed-out screens render without a loading flash.
  initialData: () => (getAuthToken() ? undefined : null),
});

/**
 * Starts the stored token's check at once, before the router has loaded the page's code, rather than when the
 * first screen asking who is signed in renders (that waited half a second behind the page's chunks).
 */
export const checkStoredSession = (queryClient: QueryClient) => void queryClient.prefetchQuery(userQueryOptions);

/** The signed-in user once the stored token's check is done (null: nobody). */
export const signedInUser = (queryClient: QueryClient) => queryClient.ensureQueryData(userQueryOptions);

export function useAuth() {
  const { data, isLoading } = useQuery(userQueryOptions);
  const user = data ?? null;
  // Who sees the Admin console (decisions §1); the server checks again on every /api/admin call.
  const isAdmin = user?.role === 'admin' || user?.role === 'superadmin';
  return { user, isLoading, isAuthenticated: user !== null, isAdmin };
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
