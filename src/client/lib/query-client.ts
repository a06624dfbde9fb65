import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/request';

/** Spec §9: data never goes stale on its own, nothing refetches behind the user's back, nothing retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
